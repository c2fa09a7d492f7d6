package dev.ybbench.ycsb;

import static dev.ybbench.ycsb.RunYcsbTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.ycsb.RunYcsbTest.Outcome;
import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** run_ycsb.sh core: YCSB's order, each run's command line, the refusals, the dry run and the last table. */
class CoreSequenceTest {
  @TempDir
  Path dir;

  private static CoreSequence sequence(String... given) {
    return new CoreSequence(RunYcsbTest.HOME, new Console(new PrintStream(OutputStream.nullOutputStream())),
        List.of(given));
  }

  @Test
  void theOrderIsYcsbsOneLoadForABCFDAndOneForE() {
    assertEquals(List.of("workloada both", "workloadb run", "workloadc run", "workloadf run", "workloadd run",
        "workloade both"), CoreSequence.STEPS.stream().map(s -> s.workload() + " " + s.phase()).toList());
  }

  @Test
  void onTheServerItStartedEachRunConnectsToItsNodesInPlaceOfTheServerFlags() {
    CoreSequence s = sequence("--records", "1000", "core", "--db-version", "16", "--db-setting", "jit=off",
        "--label", "2024.2", "--dry-run");
    assertEquals(List.of("--records", "1000", "--db-version", "16", "--db-setting", "jit=off", "--label", "2024.2"),
        s.shared());
    assertEquals(List.of("workloadb", "--records", "1000", "--label", "2024.2", "--hosts", "127.0.0.1:5999", "--user",
        "postgres", "--phase", "run"), s.running(CoreSequence.STEPS.get(1), new CoreSequence.Started(
            "127.0.0.1:5999", "postgres", null)));
    // On hosts given, each run is the line as typed with its workload and phase.
    assertEquals(List.of("workloade", "--records", "1000", "--db-version", "16", "--db-setting", "jit=off",
        "--label", "2024.2", "--phase", "both"), s.running(CoreSequence.STEPS.get(5), null));
    // YCQL: the embedded nodes' replication factor, as a run on them would take it; a --user given stays.
    CoreSequence ycql = sequence("core", "--api", "ycql", "--nodes", "3", "--user", "me");
    assertEquals(List.of("workloada", "--api", "ycql", "--user", "me", "--hosts", "127.0.0.1,127.0.0.2,127.0.0.3",
        "--rf", "3", "--phase", "both"), ycql.running(CoreSequence.STEPS.get(0), new CoreSequence.Started(
            "127.0.0.1,127.0.0.2,127.0.0.3", null, 3)));
  }

  @Test
  void flagsThatWouldChangeTheSequenceAreRefusedByName() {
    assertEquals("-P does not go with core: the sequence runs workloads/workloada … workloade; set a property with "
        + "-p NAME=VALUE", assertThrows(UserError.class, () -> sequence("core", "-P", "my.properties").refuse())
        .getMessage());
    assertEquals("--phase does not go with core: the sequence loads twice and runs six times; run one workload for "
        + "one phase", assertThrows(UserError.class, () -> sequence("core", "--phase=run").refuse()).getMessage());
    Outcome o = run("core", "--confirm", "2", "--history", dir.resolve("h.db").toString());
    assertEquals(2, o.exitCode(), o.out());
    assertEquals("error: --confirm does not go with core: judge each run with compare.sh --history --confirm RUN_DIR",
        o.err().strip());
    Outcome merged = run("--merge", dir.resolve("a").toString(), "core");
    assertEquals(2, merged.exitCode(), merged.out());
    java.io.ByteArrayOutputStream fleetErr = new java.io.ByteArrayOutputStream();
    int fleet = new dev.ybbench.harness.fleet.FleetCommand(new Console(new PrintStream(OutputStream.nullOutputStream())),
        RunYcsbTest.HOME, new dev.ybbench.harness.cli.ShutdownGuard(() -> { }, () -> { }, java.time.Duration.ofSeconds(1)))
        .execute(new String[] {"--benchmark", "ycsb", "--clients", "2", "core", "--dry-run"}, new PrintStream(fleetErr,
            true, java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(2, fleet);
    assertEquals("error: fleet.sh runs one workload a step, and core is six runs: run ./run_ycsb.sh core, or "
        + "fleet.sh with one workload at a time", fleetErr.toString(java.nio.charset.StandardCharsets.UTF_8).strip());
    // What one of its runs would refuse is refused before anything starts, naming the run.
    Outcome bad = run("core", "--threads", "0", "--results-dir", dir.toString());
    assertEquals(2, bad.exitCode(), bad.out());
    assertTrue(bad.err().startsWith("error: workloada in the core sequence: "), bad.err());
  }

  @Test
  void aDryRunListsTheSequenceItsLoadsAndItsTimeAndStartsNothing() {
    Path results = dir.resolve("none");
    Outcome o = run("core", "--records", "5000", "--duration", "20", "--label", "2024.2", "--results-dir",
        results.toString(), "--dry-run");
    assertEquals(0, o.exitCode(), o.err() + o.out());
    String out = o.out();
    assertTrue(out.startsWith("Plan (nothing started): YCSB's core sequence over YSQL, in YCSB's order, 6 runs on 2 "
        + "loads\n"), out);
    assertTrue(out.contains("  1. workloada: load 1 (drops and creates the table, loads 5000 records), then runs "
        + "(load time unknown until it runs; no earlier complete load of this benchmark on this target in the results "
        + "directory to go by, run 20 s)\n"), out);
    assertTrue(out.contains("  5. workloadd: runs over load 1 (run 20 s)\n     ./run_ycsb.sh workloadd --records 5000 "
        + "--duration 20 --label 2024.2 --results-dir " + results + " --hosts '<embedded server>' --user postgres "
        + "--phase run\n"), out);
    assertTrue(out.contains("  6. workloade: load 2 (drops and creates the table, loads 5000 records)"), out);
    assertTrue(out.contains("  wall_time: at least 2 min 00 s, plus the 2 loads, whose time only the runs can tell"),
        out);
    assertTrue(out.contains("  target: embedded PostgreSQL 17"), out);
    assertFalse(Files.exists(results), "a dry run makes no directory");
  }

  @Test
  void theTableHasARowPerPhaseAndOperationAndSaysWhatDidNotRun() throws Exception {
    Path a = summary("a", "workloada", Map.of("load", Map.of("INSERT", new long[] {5000, 0, 0, 20_000, 61_000}),
        "run", Map.of("READ", new long[] {9000, 0, 0, 150, 990}, "UPDATE", new long[] {8000, 2, 1, 510, 4010})),
        Map.of("load", 16869.4, "run", 4503.6));
    Path b = summary("b", "workloadb", Map.of("run", Map.of("READ", new long[] {20000, 0, 0, 80, 510})),
        Map.of("run", 11442.0));
    List<String> lines = CoreTable.lines("ysql", List.of(new CoreTable.Done("workloada", a, 0),
        new CoreTable.Done("workloadb", b, 0), new CoreTable.Done("workloadc", null, 2)), 6);
    assertEquals(List.of(
        "YCSB core over YSQL on PostgreSQL 17.11: 3 of 6 runs",
        "workload   phase state            ops/s  operation            p50 ms    p99 ms   errors  aborts",
        "workloada  load  complete        16,869  INSERT                20.00     61.00        0       0",
        "           run                    4,504  READ                   0.15      0.99        0       0",
        "                                         UPDATE                 0.51      4.01        2       1",
        "workloadb  run   complete        11,442  READ                   0.08      0.51        0       0",
        "workloadc        exit 2",
        "  workloada: " + a,
        "  workloadb: " + b), lines);
  }

  /** A run directory whose summary.json has these phases: per operation successes, errors, aborts, p50, p99. */
  private Path summary(String name, String workload, Map<String, Map<String, long[]>> phases,
      Map<String, Double> throughput) throws Exception {
    Path d = Files.createDirectories(dir.resolve(name));
    RunSummary s = RunSummary.start("ycsb", workload, new ServerInfo("PostgreSQL", "17.11", ""));
    for (String phase : List.of("load", "run")) {
      if (!phases.containsKey(phase)) {
        continue;
      }
      Map<String, OperationResult> ops = new LinkedHashMap<>();
      phases.get(phase).entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
        long[] v = e.getValue();
        ops.put(e.getKey(), new OperationResult(v[0], v[1], Map.of(), 0, 0, new LatencyPercentiles(v[0], 1L, v[3],
            v[3], v[4], v[4], v[4], v[4], (double) v[3])).withAborts(v[2] == 0 ? Map.of() : Map.of("sqlstate-40001",
            v[2])));
      });
      PhaseResult p = PhaseResult.ofOperations(ops, 1.0, List.of());
      s = s.withPhase(phase, p.toBuilder().throughputOps(throughput.get(phase)).build());
    }
    RunDirectory.JSON.writeValue(d.resolve(RunSummary.FILE).toFile(), s.withState("complete", null));
    return d;
  }
}
