package dev.ybbench.ycsb;

import static dev.ybbench.ycsb.RunYcsbTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.ycsb.RunYcsbTest.Outcome;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** run_ycsb.sh's Java side end to end: YCSB's own files and command lines, workload E over hash and range. */
class RunYcsbIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  @Test
  void upstreamWorkloadFilesRunUnmodifiedWithDashP() throws Exception {
    Path upstream = Path.of(getClass().getResource("/upstream-workloada").toURI());
    Outcome o = run("-P", upstream.toString(), "--threads", "2", "--results-dir", results.toString());
    assertEquals(0, o.exitCode(), o.err() + o.out());
    JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
    assertEquals(1000, summary.at("/phases/load/successes").asLong());
    assertEquals(1000, summary.at("/phases/run/successes").asLong() + summary.at("/phases/run/errors").asLong());
    assertEquals(0, summary.at("/phases/run/errors").asLong());
  }

  /** YCSB's own command line reports in YCSB's own words, which scripts reading YCSB's output grep for. */
  @Test
  void ycsbsOwnCommandLineGetsYcsbsOwnSummaryLines() throws Exception {
    Path upstream = Path.of(getClass().getResource("/upstream-workloada").toURI());
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println)) {
      List<String> common = List.of("jdbc", "-P", upstream.toString(), "-p", "recordcount=200", "-p",
          "operationcount=400", "-threads", "2", "-s", "--hosts", pg.hostPort(), "--user", "postgres",
          "--results-dir", results.toString(), "--no-install");
      Outcome load = run(Stream.concat(Stream.of("load"), common.stream()).toArray(String[]::new));
      assertEquals(0, load.exitCode(), load.err() + load.out());
      assertTrue(load.out().contains("\n[OVERALL], Throughput(ops/sec), "), load.out());
      assertTrue(load.out().contains("\n[INSERT], Operations, 200\n"), load.out());
      Outcome ran = run(Stream.concat(Stream.of("run"), common.stream()).toArray(String[]::new));
      assertEquals(0, ran.exitCode(), ran.err() + ran.out());
      for (String line : List.of("[OVERALL], RunTime(ms), ", "[OVERALL], Throughput(ops/sec), ", "[READ], Operations, ",
          "[READ], AverageLatency(us), ", "[READ], 95thPercentileLatency(us), ", "[UPDATE], Return=OK, ")) {
        assertTrue(ran.out().contains("\n" + line), line + " in " + ran.out());
      }
      assertFalse(ran.out().contains("RUN Throughput"), ran.out());
      // ybbench's own flags keep ybbench's words, which name the phase (one run may load and run).
      Outcome ours = run("-P", upstream.toString(), "--phase", "run", "--records", "200", "--operations", "100",
          "--threads", "2", "--hosts", pg.hostPort(), "--user", "postgres", "--results-dir", results.toString(),
          "--no-install");
      assertEquals(0, ours.exitCode(), ours.err() + ours.out());
      assertTrue(ours.out().contains("\n[OVERALL], RUN Throughput(ops/sec), "), ours.out());
    }
  }

  @Test
  void workloadEOverHashRangeScansWithoutErrors() throws Exception {
    Outcome o = run("workloade-hashrange", "--records", "2000", "--operations", "500", "--threads", "2",
        "--results-dir", results.toString());
    assertEquals(0, o.exitCode(), o.err() + o.out());
    assertTrue(o.out().contains("PRIMARY KEY (ycsb_key1, ycsb_key2)"), o.out());
    JsonNode run = JSON.readTree(o.runDir().resolve("summary.json").toFile()).at("/phases/run");
    assertEquals(0, run.get("errors").asLong(), run.toString());
    assertTrue(run.at("/operations/SCAN/successes").asLong() > 400, run.toString());
  }
}
