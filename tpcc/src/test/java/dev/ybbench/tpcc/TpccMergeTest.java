package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    HlogFiles.write(latency, phase, Map.of(type, h));
    return PhaseResult.ofOperations(Map.of(type, new OperationResult(n, 0, Map.of(), 0, n / 60.0, Latency.of(h))), 60,
        List.of()).withTpcc(tpmC, null, Map.of());
  }

  /** A client of one warehouse: the mix's New-Orders, then (when {@code payments} > 0) a work of Payments. */
  private Path client(String name, long newOrders, long payments) throws Exception {
    Path dir = root.resolve(name);
    RunSummary s = RunSummary.start("tpcc", "tiny", new ServerInfo("PostgreSQL", "17.11", ""))
        .withPhase("execute", work(dir.resolve("latency"), "execute", "NewOrder", newOrders, newOrders));
    if (payments > 0) {
      s = s.withPhase("execute-2", work(dir.resolve("latency"), "execute-2", "Payment", payments, 0));
    }
    Files.createDirectories(dir);
    RunDirectory.JSON.writeValue(dir.resolve(RunSummary.FILE).toFile(), s.withTpcc(1, 10, null)
        .withState("complete", null));
    return dir;
  }

  @Test
  void everyWorkMerges() throws Exception {
    Path merged = TpccMerge.merge(List.of(client("a", 60, 600), client("b", 120, 300)), root.resolve("results"));
    RunSummary m = RunSummary.read(merged);
    assertEquals(List.of("execute", "execute-2"), List.copyOf(m.phases().keySet()));
    assertEquals(180, m.phase("execute").operations().get("NewOrder").successes());
    assertEquals(180.0, m.phase("execute").tpmC());
    assertEquals(900, m.phase("execute-2").operations().get("Payment").successes());
    assertEquals(900, m.phase("execute-2").operations().get("Payment").latencyUs().count());
    assertEquals(2, m.warehouses());
    assertTrue(Files.exists(merged.resolve("latency/execute-2-Payment.hlog")));
  }

  @Test
  void runsOfDifferentWorksAreRefused() throws Exception {
    UserError e = assertThrows(UserError.class, () -> TpccMerge.merge(List.of(client("a", 60, 600),
        client("b", 120, 0)), root.resolve("results")));
    assertEquals("Cannot merge runs of different works: [execute, execute-2] and [execute]", e.getMessage());
  }
}
