package dev.ybbench.tpcc;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.merge.PhaseMerge;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.tpcc.config.TransactionSpec;
import dev.ybbench.tpcc.core.TpccFigures;
import dev.ybbench.tpcc.core.TpccMetrics;
import dev.ybbench.tpcc.txn.ExecutePhase;
import java.io.IOException;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * One result for a database that several client machines drove at once, each with its own
 * --start-warehouse range, work by work: counts and tpmC add up, and latency percentiles come
 * from the clients' HdrHistograms added together, which is exact ({@link PhaseMerge}). Only
 * complete runs of the same works are merged: a failed or interrupted client would make the sum
 * stand for less than was asked.
 */
final class TpccMerge {
  private TpccMerge() {}

  /** What each client sets for itself: its range of warehouses, and the terminals and connections that drive them. */
  private static final Pattern OWN = Pattern.compile("warehouses|start_warehouse|terminals|connections");

  /** Merges the runs; a {@code stop} (Ctrl-C) ends it with nothing written. */
  static Path merge(List<Path> runs, Path resultsRoot, Consumer<String> warn, BooleanSupplier stop)
      throws IOException {
    List<RunMerge.Part> parts = RunMerge.read(runs, Tpcc.NAME, OWN, TpccFigures::upgradeFormat2);
    List<RunSummary> summaries = parts.stream().map(RunMerge.Part::summary).toList();
    RunSummary first = summaries.get(0);
    List<String> works = executePhases(first);
    if (works.isEmpty()) {
      throw new UserError(runs.get(0) + " holds no TPC-C execute phase to merge");
    }
    checkRanges(parts);
    int warehouses = summaries.stream().mapToInt(s -> TpccFigures.of(s).warehouses()).sum();
    int terminals = summaries.stream().mapToInt(s -> TpccFigures.of(s).terminals()).sum();
    Map<String, PhaseMerge.Merged> merged = new LinkedHashMap<>(RunMerge.phases(parts, stop));
    merged.keySet().retainAll(works);
    RunSummary summary = RunSummary.start(Tpcc.NAME, first.workload() + "-merged", first.server().info());
    for (String work : works) {
      summary = summary.withPhase(work, withTpcc(merged.get(work), summaries, work, warehouses));
    }
    summary = summary.withExtension(TpccFigures.KEY, new TpccFigures.Run(warehouses, terminals, null));
    Map<String, String> params = new LinkedHashMap<>();
    params.put("warehouses", Integer.toString(warehouses));
    params.put("start_warehouse", Integer.toString(parts.stream().mapToInt(p -> Integer.parseInt(
        p.parameter("start_warehouse"))).min().orElseThrow()));
    params.put("terminals", Integer.toString(terminals));
    params.put("connections", Integer.toString(parts.stream().mapToInt(p -> Integer.parseInt(
        p.parameter("connections"))).sum()));
    params.put("clients", Integer.toString(parts.size()));
    return RunMerge.write(parts, resultsRoot, summary, merged, OWN, params, warn, stop);
  }

  /** Clients that drove the same warehouse would count its transactions twice. */
  private static void checkRanges(List<RunMerge.Part> parts) {
    BitSet seen = new BitSet();
    for (RunMerge.Part p : parts) {
      int from = Integer.parseInt(p.parameter("start_warehouse"));
      int count = Integer.parseInt(p.parameter("warehouses"));
      if (seen.get(from, from + count).cardinality() > 0) {
        throw new UserError("Cannot merge " + p.dir() + ": its warehouses " + from + "-" + (from + count - 1)
            + " overlap another client's; each client needs its own --start-warehouse range");
      }
      seen.set(from, from + count);
    }
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
    Map<String, TpccFigures.TerminalWaits> waits = new LinkedHashMap<>();
    for (RunSummary s : parts) {
      TpccFigures.Work p = TpccFigures.of(s.phase(work));
      tpmC += p.tpmC() == null ? 0 : p.tpmC();
      if (p.terminalWaits() != null) {
        p.terminalWaits().forEach((name, w) -> waits.merge(name, w, TpccFigures.TerminalWaits::plus));
      }
      if (p.afterWindow() != null) {
        p.afterWindow().forEach((name, n) -> afterWindow.merge(name, n, Long::sum));
      }
    }
    TpccFigures.Work first = TpccFigures.of(parts.get(0).phase(work));
    // The parts' own limits say whether their Deliveries were deferred (judged from queueing, against 80 s).
    TpccFigures.ResponseTimeLimit delivery = first.responseTimeLimits() == null ? null
        : first.responseTimeLimits().get(TransactionSpec.DELIVERY.benchbaseName());
    boolean deferred = delivery != null && delivery.limitS() == TransactionSpec.DEFERRED_DELIVERY_LIMIT_SECONDS;
    return TpccFigures.with(m.phase(), TpccFigures.work(tpmC, first.efficiencyPct() == null ? null
        : TpccMetrics.efficiency(tpmC, warehouses), TpccMetrics.responseTimeLimits(m.totals(), deferred), afterWindow,
        waits));
  }
}
