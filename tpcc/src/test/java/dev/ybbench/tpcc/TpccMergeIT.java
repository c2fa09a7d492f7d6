package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.tpcc.core.TpccFigures;
import dev.ybbench.harness.results.StagedDirectory;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.testing.CtrlC;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --merge on hand-made client runs: every work merges, and runs of different works do not. */
class TpccMergeIT {
  @TempDir
  Path root;

  private static PhaseResult work(Path latency, String phase, String type, long n, double tpmC) throws Exception {
    Histogram h = new Histogram(3);
    h.recordValueWithCount(5000, n);
    h.setStartTimeStamp(1_790_000_000_000L);
    h.setEndTimeStamp(1_790_000_060_000L);
    HlogFiles.writeIntervals(latency, phase, type, List.of(h));
    return TpccFigures.with(PhaseResult.ofOperations(Map.of(type, new OperationResult(n, 0, Map.of(), 0, n / 60.0,
        LatencyPercentiles.of(h))), 60, List.of()), TpccFigures.work(tpmC, null, Map.of(), null, null));
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
    RunDirectory.JSON.writeValue(dir.resolve(RunSummary.FILE).toFile(), s.withExtension(TpccFigures.KEY,
        new TpccFigures.Run(1, 10, null))
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
        false, w -> { }, () -> false);
    RunSummary m = RunSummary.read(merged);
    assertEquals(List.of("execute", "execute-2"), List.copyOf(m.phases().keySet()));
    assertEquals(180, m.phase("execute").operations().get("NewOrder").successes());
    assertEquals(180.0, TpccFigures.of(m.phase("execute")).tpmC());
    assertEquals(new PhaseResult.Figure("tpmC", "tpmC", 180.0, true, TpccFigures.NEW_ORDERS),
        m.phase("execute").headline(), "the merged work names its headline");
    assertTrue(m.phase("execute-2").headline().throughput(), "a work of Payments alone: its throughput");
    assertEquals(900, m.phase("execute-2").operations().get("Payment").successes());
    assertEquals(900, m.phase("execute-2").operations().get("Payment").latencyUs().count());
    assertEquals(2, TpccFigures.of(m).warehouses());
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
    UserError e = assertThrows(UserError.class, () -> TpccMerge.merge(List.of(a, b), root.resolve("results"), false,
        w -> { }, () -> false));
    assertTrue(e.getMessage().contains("its warehouses 1-1 overlap another client's"), e.getMessage());
  }

  /**
   * A client killed in its execute phase: refused with every gap named; with --include-incomplete
   * the other's works merge into a run marked partial, naming the killed client and how long it ran.
   */
  @Test
  void aClientKilledMidRunMergesOnlyAsPartial() throws Exception {
    Path a = client("a", 1, 60, 0);
    Path killed = client("b", 2, 120, 0);
    Files.delete(killed.resolve(RunSummary.FILE)); // killed: its run.json and nothing after
    ObjectNode info = (ObjectNode) RunDirectory.JSON.readTree(killed.resolve("run.json").toFile());
    info.putObject("fleet").put("id", "f").put("clients", 2).put("index", 1);
    RunDirectory.JSON.writeValue(killed.resolve("run.json").toFile(), info);

    UserError alone = assertThrows(UserError.class, () -> TpccMerge.merge(List.of(a), root.resolve("results"), false,
        w -> { }, () -> false));
    assertTrue(alone.getMessage().startsWith("Cannot merge: the database of 2 warehouses is not whole: warehouses "
        + "2 … 2 are in no run given; give every client's run"), alone.getMessage());
    UserError refused = assertThrows(UserError.class, () -> TpccMerge.merge(List.of(a, killed),
        root.resolve("results"), false, w -> { }, () -> false));
    assertTrue(refused.getMessage().contains("(client 1 of the 2 in fleet f): its run never finished"),
        refused.getMessage());

    Path merged = TpccMerge.merge(List.of(a, killed), root.resolve("results"), true, w -> { }, () -> false);
    RunSummary m = RunSummary.read(merged);
    assertEquals("partial", m.state());
    assertTrue(m.reason().matches("the database of 2 warehouses is not whole: client 1 was killed \\d+ s into its "
        + "run \\(b never finished\\)"), m.reason());
    assertEquals(60, m.phase("execute").operations().get("NewOrder").successes());
  }

  @Test
  void runsOfDifferentWorksAreRefused() throws Exception {
    Path a = client("a", 1, 60, 600);
    Path b = client("b", 2, 120, 0);
    UserError e = assertThrows(UserError.class, () -> TpccMerge.merge(List.of(a, b), root.resolve("results"), false,
        w -> { }, () -> false));
    assertEquals("Cannot merge runs of different phases: [execute, execute-2] in " + a + " but [execute] in " + b,
        e.getMessage());
  }

  /** Ctrl-C at each step of a merge in turn: every time, no merged run and nothing half-written is left. */
  @Test
  void ctrlCAtAnyStepLeavesNoMergedRun() throws Exception {
    List<Path> parts = List.of(client("a", 1, 60, 600), client("b", 2, 120, 300));
    Path results = root.resolve("results");
    for (int stopAt = 1; ; stopAt++) {
      AtomicInteger asked = new AtomicInteger();
      int n = stopAt;
      try {
        Path merged = TpccMerge.merge(parts, results, false, w -> { }, () -> asked.incrementAndGet() >= n);
        assertTrue(stopAt > 5, "a merge asks before each phase it reads and writes, before the charts and the report "
            + "and before it commits; it asked only " + (stopAt - 1) + " times");
        assertEquals(List.of(merged), Files.list(results).toList());
        break;
      } catch (StagedDirectory.Stopped stopped) {
        assertEquals(List.of(), Files.exists(results) ? Files.list(results).toList() : List.of(),
            "stopped at step " + stopAt);
      }
    }
  }

  /**
   * Ctrl-C sent to run_tpcc.sh --merge while it reads a client's latency (held there by a named
   * pipe): it stops within 5 s, exit 130, and leaves no merged run.
   */
  @Test
  void ctrlCEndsAMergeWithinFiveSeconds() throws Exception {
    Path a = client("a", 1, 60, 600);
    Path b = client("b", 2, 120, 300);
    Histogram h = new Histogram(3);
    h.recordValueWithCount(5000, 120);
    h.setStartTimeStamp(1_790_000_000_000L);
    h.setEndTimeStamp(1_790_000_060_000L);
    Path actual = b.resolve("latency").resolve(PhaseRecorder.ACTUAL_DIR);
    HlogFiles.writeIntervals(actual, "execute", "NewOrder", List.of(h));
    Path results = root.resolve("results");
    try (CtrlC.Held hlog = CtrlC.hold(actual.resolve("execute-NewOrder.hlog"));
         CtrlC p = CtrlC.startJava(Runner.class, RunTpccTest.HOME, List.of(Tpcc.NAME, "--merge", a.toString(), b.toString(),
             "--results-dir", results.toString()))) {
      long sent;
      try (hlog) {
        hlog.awaitReader(Duration.ofSeconds(60));
        p.send();
        p.awaitLine(RunLifecycle.STOPPING::equals, Duration.ofSeconds(30));
        sent = System.nanoTime();
      }
      assertEquals(RunLifecycle.EXIT_INTERRUPTED, p.exitCode(Duration.ofSeconds(30)), p.output());
      double seconds = (System.nanoTime() - sent) / 1e9;
      assertTrue(seconds < 5, "exited " + seconds + " s after Ctrl-C");
      assertTrue(p.output().endsWith(RunMerge.INTERRUPTED), p.output());
      assertEquals(List.of(), Files.exists(results) ? Files.list(results).toList() : List.of());
    }
  }
}
