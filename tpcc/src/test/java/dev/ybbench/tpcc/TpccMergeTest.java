package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.Latency;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --merge on hand-made client runs: every work merges, and runs of different works do not. */
class TpccMergeTest {
  @TempDir
  Path root;

  private static PhaseResult work(Path latency, String phase, String type, long n, double tpmC) throws Exception {
    Histogram h = new Histogram(3);
    h.recordValueWithCount(5000, n);
    h.setStartTimeStamp(1_790_000_000_000L);
    h.setEndTimeStamp(1_790_000_060_000L);
    HlogFiles.writeIntervals(latency, phase, type, List.of(h));
    return PhaseResult.ofOperations(Map.of(type, new OperationResult(n, 0, Map.of(), 0, n / 60.0, Latency.of(h))), 60,
        List.of()).withTpcc(tpmC, null, Map.of());
  }

  /** A client of warehouse {@code warehouse}: the mix's New-Orders, then (when {@code payments} > 0) a work of Payments. */
  private Path client(String name, int warehouse, long newOrders, long payments) throws Exception {
    Path dir = root.resolve(name);
    RunSummary s = RunSummary.start("tpcc", "tiny", new ServerInfo("PostgreSQL", "17.11", ""))
        .withPhase("execute", work(dir.resolve("latency"), "execute", "NewOrder", newOrders, newOrders));
    if (payments > 0) {
      s = s.withPhase("execute-2", work(dir.resolve("latency"), "execute-2", "Payment", payments, 0));
    }
    Files.createDirectories(dir);
    RunDirectory.JSON.writeValue(dir.resolve(RunSummary.FILE).toFile(), s.withTpcc(1, 10, null)
        .withState("complete", null));
    ObjectNode info = RunDirectory.JSON.createObjectNode().put("bench", "tpcc").put("workload", "tiny")
        .put("state", "complete").put("started", "2026-09-21T10:00:00Z").put("ended", "2026-09-21T10:01:00Z");
    info.putObject("host").put("name", name);
    info.putObject("parameters").put("warehouses", "1").put("start_warehouse", Integer.toString(warehouse))
        .put("total_warehouses", "2").put("terminals", "10").put("connections", "2");
    RunDirectory.JSON.writeValue(dir.resolve("run.json").toFile(), info);
    return dir;
  }

  @Test
  void everyWorkMerges() throws Exception {
    Path merged = TpccMerge.merge(List.of(client("a", 1, 60, 600), client("b", 2, 120, 300)), root.resolve("results"),
        w -> { });
    RunSummary m = RunSummary.read(merged);
    assertEquals(List.of("execute", "execute-2"), List.copyOf(m.phases().keySet()));
    assertEquals(180, m.phase("execute").operations().get("NewOrder").successes());
    assertEquals(180.0, m.phase("execute").tpmC());
    assertEquals(900, m.phase("execute-2").operations().get("Payment").successes());
    assertEquals(900, m.phase("execute-2").operations().get("Payment").latencyUs().count());
    assertEquals(2, m.warehouses());
    assertTrue(Files.exists(merged.resolve("latency/execute-2-Payment.hlog")));
    JsonNode info = RunDirectory.JSON.readTree(merged.resolve("run.json").toFile());
    assertEquals("2", info.at("/parameters/warehouses").asText());
    assertEquals("1", info.at("/parameters/start_warehouse").asText());
    assertEquals("20", info.at("/parameters/terminals").asText());
    assertEquals("a,b", info.at("/host/name").asText());
    assertEquals(2, info.path("merged_from").size());
  }

  @Test
  void clientsOfOneWarehouseAreRefused() throws Exception {
    Path a = client("a", 1, 60, 0);
    Path b = client("b", 1, 60, 0);
    UserError e = assertThrows(UserError.class, () -> TpccMerge.merge(List.of(a, b), root.resolve("results"), w -> { }));
    assertTrue(e.getMessage().contains("its warehouses 1-1 overlap another client's"), e.getMessage());
  }

  @Test
  void runsOfDifferentWorksAreRefused() throws Exception {
    Path a = client("a", 1, 60, 600);
    Path b = client("b", 2, 120, 0);
    UserError e = assertThrows(UserError.class, () -> TpccMerge.merge(List.of(a, b), root.resolve("results"), w -> { }));
    assertEquals("Cannot merge runs of different phases: [execute, execute-2] in " + a + " but [execute] in " + b,
        e.getMessage());
  }
}
