package dev.ybbench.tpcc;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.PhaseMerge;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.tpcc.txn.ExecutePhase;
import dev.ybbench.tpcc.txn.TransactionKind;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One result for a database that several client machines drove at once, each with its own
 * --start-warehouse range, work by work: counts and tpmC add up, and latency percentiles come
 * from the clients' HdrHistograms added together, which is exact ({@link PhaseMerge}). Only
 * complete runs of the same works are merged: a failed or interrupted client would make the sum
 * stand for less than was asked.
 */
final class TpccMerge {
  private TpccMerge() {}

  static Path merge(List<Path> runs, Path resultsRoot) throws IOException {
    List<RunSummary> parts = new ArrayList<>();
    for (Path r : runs) {
      RunSummary s = RunSummary.read(r);
      if (!"tpcc".equals(s.bench()) || s.phase(ExecutePhase.PHASE) == null) {
        throw new UserError(r + " holds no TPC-C execute phase to merge");
      }
      if (!RunInfo.COMPLETE.equals(s.state())) {
        throw new UserError("Cannot merge " + r + ": it is " + s.state()
            + (s.reason() == null ? "" : " (" + s.reason() + ")"));
      }
      parts.add(s);
    }
    RunSummary first = parts.get(0);
    for (RunSummary s : parts) {
      if (!s.server().equals(first.server())) {
        throw new UserError("Cannot merge runs against different servers: " + first.server() + " and " + s.server());
      }
    }
    List<String> works = executePhases(first);
    for (RunSummary s : parts) {
      if (!executePhases(s).equals(works)) {
        throw new UserError("Cannot merge runs of different works: " + works + " and " + executePhases(s));
      }
    }
    int warehouses = parts.stream().mapToInt(RunSummary::warehouses).sum();
    int terminals = parts.stream().mapToInt(RunSummary::terminals).sum();
    String workload = first.workload() + "-merged";
    List<String> from = runs.stream().map(Path::toString).toList();
    RunSummary summary = RunSummary.start("tpcc", workload, first.server().info());
    Map<String, PhaseMerge.Merged> merged = new LinkedHashMap<>();
    for (String work : works) {
      PhaseMerge.Merged m = PhaseMerge.of(runs, work);
      merged.put(work, m);
      summary = summary.withPhase(work, withTpcc(m, parts, work, warehouses));
    }
    summary = summary.withTpcc(warehouses, terminals, null).withMergedFrom(from).withState(RunInfo.COMPLETE, null);

    RunDirectory out = RunDirectory.create(resultsRoot, "tpcc", workload, first.server().info(), Instant.now());
    for (Map.Entry<String, PhaseMerge.Merged> m : merged.entrySet()) {
      m.getValue().write(out.latencyDir(), m.getKey());
    }
    out.writeJson(RunSummary.FILE, summary);
    RunInfo info = new RunInfo("tpcc", workload, null, Instant.now())
        .put("merged_from", from)
        .end(RunInfo.COMPLETE, Instant.now(), null);
    out.writeJson("run.json", info.tree());
    return out.path();
  }

  /** execute, execute-2 …: one per work of the config, in order. */
  private static List<String> executePhases(RunSummary s) {
    return s.phases().keySet().stream().filter(p -> p.matches(ExecutePhase.PHASE + "(-\\d+)?")).toList();
  }

  /**
   * TPC-C's figures of a merged work: tpmC adds up (each client's New-Orders over its own
   * window), efficiency against every part's warehouses, terminal waits summed, and the p90
   * limits judged on the merged latency.
   */
  private static PhaseResult withTpcc(PhaseMerge.Merged m, List<RunSummary> parts, String work, int warehouses) {
    double tpmC = 0;
    Map<String, Long> afterWindow = new TreeMap<>();
    Map<String, PhaseResult.TerminalWaits> waits = new LinkedHashMap<>();
    for (RunSummary s : parts) {
      PhaseResult p = s.phase(work);
      tpmC += p.tpmC() == null ? 0 : p.tpmC();
      if (p.terminalWaits() != null) {
        p.terminalWaits().forEach((name, w) -> waits.merge(name, w, PhaseResult.TerminalWaits::plus));
      }
      if (p.afterWindow() != null) {
        p.afterWindow().forEach((name, n) -> afterWindow.merge(name, n, Long::sum));
      }
    }
    PhaseResult first = parts.get(0).phase(work);
    // The parts' own limits say whether their Deliveries were deferred (judged from queueing, against 80 s).
    PhaseResult.ResponseTimeLimit delivery = first.responseTimeLimits() == null ? null
        : first.responseTimeLimits().get(TransactionKind.DELIVERY.benchbaseName());
    boolean deferred = delivery != null && delivery.limitS() == TransactionKind.DEFERRED_DELIVERY_LIMIT_SECONDS;
    return m.phase()
        .withTpcc(tpmC, first.efficiencyPct() == null ? null
            : TpccMetrics.efficiency(tpmC, warehouses), TpccMetrics.responseTimeLimits(m.latency(), deferred))
        .withAfterWindow(afterWindow.isEmpty() ? null : afterWindow)
        .withTerminalWaits(waits.isEmpty() ? null : waits);
  }
}
