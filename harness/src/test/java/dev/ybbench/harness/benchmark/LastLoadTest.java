package dev.ybbench.harness.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ybbench.harness.ServerTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A dry run's load time comes from the newest complete load of the same benchmark on the same kind of target. */
class LastLoadTest {
  @TempDir
  Path results;

  private void run(String name, String bench, String state, boolean embedded, String hosts, String api, double rate)
      throws Exception {
    Path d = Files.createDirectories(results.resolve(name));
    Files.writeString(d.resolve("run.json"), "{\"bench\": \"" + bench + "\", \"state\": \"" + state + "\""
        + (api == null ? "" : ", \"api\": \"" + api + "\"") + ", \"server\": {\"embedded\": " + embedded
        + ", \"hosts\": \"" + hosts + "\"}}");
    Files.writeString(d.resolve("summary.json"), "{\"phases\": {\"load\": {\"headline\": {\"metric\": \"load\", "
        + "\"unit\": \"rows/s\", \"value\": " + rate + "}}}}");
  }

  @Test
  void theNewestCompleteLoadOnTheSameKindOfTargetGivesTheRate() throws Exception {
    run("20261101T000000Z_tpcc_x", "tpcc", "complete", true, "127.0.0.1:4000", null, 100_000);
    run("20261102T000000Z_tpcc_x", "tpcc", "complete", true, "127.0.0.1:4001", null, 228_611);
    run("20261103T000000Z_tpcc_x", "tpcc", "failed", true, "127.0.0.1:4002", null, 900_000);
    run("20261104T000000Z_tpcc_x", "tpcc", "complete", false, "10.0.0.1:5433,10.0.0.2:5433", null, 50_000);
    run("20261105T000000Z_ycsb_workloada", "ycsb", "complete", true, "127.0.0.1:4003", "ysql", 60_000);
    ServerTarget embedded = ServerTarget.choose(ServerTarget.Api.YSQL, null, null, 1);
    LastLoad last = LastLoad.find(results, "tpcc", embedded, null);
    assertEquals(new LastLoad(228_611, "20261102T000000Z_tpcc_x"), last, "a failed run is no measurement");
    assertEquals("about 3 min 39 s at 228,611 rows/s, as the load of 20261102T000000Z_tpcc_x measured",
        LastLoad.estimate(last, 50_001_100));
    ServerTarget cluster = ServerTarget.choose(ServerTarget.Api.YSQL, "10.0.0.1,10.0.0.2", null, 1);
    assertEquals(50_000, LastLoad.find(results, "tpcc", cluster, null).rowsPerS(), "the same nodes");
    assertNull(LastLoad.find(results, "tpcc", ServerTarget.choose(ServerTarget.Api.YSQL, "10.0.0.9", null, 1), null));
    assertNull(LastLoad.find(results, "ycsb", embedded, "ycql"), "another API");
    assertEquals(60_000, LastLoad.find(results, "ycsb", embedded, "ysql").rowsPerS());
    assertEquals("no earlier complete load of this benchmark on this target in the results directory to go by",
        LastLoad.estimate(null, 1000));
    assertNull(LastLoad.find(results.resolve("none"), "tpcc", embedded, null));
  }

  @Test
  void sizesReadAsDfPrintsThem() {
    assertEquals("950 B", Outline.bytes(950));
    assertEquals("12.9 MB", Outline.bytes(12_935_168));
    assertEquals("122 MB", Outline.bytes(121_970_688));
    assertEquals("10.7 GB", Outline.bytes(10_727_661_568L));
  }
}
