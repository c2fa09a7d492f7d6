package dev.ybbench.sysbench;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.merge.PhaseMerge;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.sysbench.engine.SysbenchFigures;
import dev.ybbench.sysbench.engine.SysbenchResults;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * One result for sysbench clients that ran one test at once against the same tables ({@code
 * --clients N}, each with 'run'): transactions, ignored errors and queries add up, and the latency
 * is their final histograms added together, which is exact ({@link PhaseMerge}); the server's
 * audit is over every client's statements, from the first client's start to the last one's end.
 * Second by second, the timeseries is the clients' transactions/s added up; it has no
 * percentiles, since sysbench reports one a second per client and those do not add up. Only
 * complete runs of the same test and tables, as many as they say ran, are merged.
 */
final class SysbenchMerge {
  private SysbenchMerge() {}

  /** What each client sets for itself: its threads. */
  private static final Pattern OWN = Pattern.compile("threads");

  /** Merges the runs; a {@code stop} (Ctrl-C) ends it with nothing written. */
  static Path merge(List<Path> runs, Path resultsRoot, Consumer<String> warn, BooleanSupplier stop)
      throws IOException {
    List<RunMerge.Part> parts = RunMerge.read(runs, Sysbench.NAME, OWN, SysbenchFigures::upgradeFormat2);
    for (RunMerge.Part p : parts) {
      String clients = p.parameter("clients");
      if (!Integer.toString(parts.size()).equals(clients)) {
        throw new UserError("Cannot merge " + p.dir() + ": it ran as one of " + clients + " clients (--clients), and "
            + parts.size() + " runs are given; give every client's run of that test once");
      }
    }
    RunSummary first = parts.get(0).summary();
    Map<String, PhaseMerge.Merged> merged = new LinkedHashMap<>();
    RunSummary summary = RunSummary.start(Sysbench.NAME, first.workload() + "-merged", first.server().info());
    for (Map.Entry<String, PhaseMerge.Merged> e : RunMerge.phases(parts, stop).entrySet()) {
      String name = e.getKey();
      PhaseMerge.Merged m = e.getValue();
      long onTables = 0;
      for (RunMerge.Part p : parts) {
        Long q = p.summary().phase(name).auditedStatements();
        if (q == null) {
          throw new UserError("Cannot merge " + p.dir() + ": its " + name + " phase has no count of sysbench's queries "
              + "(sysbench printed no final statistics)");
        }
        onTables += q;
      }
      PhaseResult phase = SysbenchFigures.with(m.phase(), queries(parts, name, m.phase().durationS()), onTables);
      merged.put(name, m.withPhase(phase).withReportedTimeseries());
      summary = summary.withPhase(name, phase);
    }
    if (!merged.containsKey("run")) {
      throw new UserError(runs.get(0) + " holds no measured sysbench run to merge");
    }
    Map<String, String> params = new LinkedHashMap<>();
    params.put("threads", Integer.toString(parts.stream().mapToInt(p -> Integer.parseInt(p.parameter("threads")))
        .sum()));
    return RunMerge.write(parts, resultsRoot, summary, merged, OWN, params, warn, stop);
  }

  /**
   * The merged run's checks, a line each per phase: its totals, and the statements the server
   * completed on the tables against the clients' sysbench counted. False when they differ.
   */
  static boolean audit(Path merged, Consumer<String> out) throws IOException {
    boolean ok = true;
    for (Map.Entry<String, PhaseResult> e : RunSummary.read(merged).phases().entrySet()) {
      PhaseResult p = e.getValue();
      OperationResult tx = p.operations().get(SysbenchResults.TRANSACTION);
      out.accept(String.format(Locale.ROOT, "[%s] %d transactions, %d ignored errors, %.1f per second over %.1f s, "
          + "p99 %s µs", e.getKey(), p.successes(), p.retries(), p.throughputOps(), p.durationS(),
          tx == null || tx.latencyUs() == null ? "-" : tx.latencyUs().p99()));
      ok &= RunMerge.audited(e.getKey(), p, false, "statements", out);
    }
    return ok;
  }

  /** Each kind of query (read, write, other) added up over the clients, its rate over the merged window. */
  private static Map<String, OperationResult> queries(List<RunMerge.Part> parts, String phase, double seconds) {
    Map<String, Long> counts = new LinkedHashMap<>();
    for (RunMerge.Part p : parts) {
      SysbenchFigures.queries(p.summary().phase(phase)).forEach((kind, q) -> counts.merge(kind, q.successes(),
          Long::sum));
    }
    Map<String, OperationResult> out = new LinkedHashMap<>();
    counts.forEach((kind, n) -> out.put(kind, new OperationResult(n, 0, Map.of(), 0,
        PhaseResult.round(n / Math.max(seconds, 0.001)), null)));
    return out;
  }
}
