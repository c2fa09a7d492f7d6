package dev.ybbench.tpcc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.merge.PhaseMerge;
import dev.ybbench.harness.merge.ResumedLoad;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.tpcc.config.TransactionSpec;
import dev.ybbench.tpcc.core.TpccFigures;
import dev.ybbench.tpcc.core.TpccMetrics;
import dev.ybbench.tpcc.txn.ExecutePhase;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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

  private static final String LOAD = "load";
  private static final String POPULATION = "population";

  /**
   * Merges the runs: their works, or where they only loaded (fleet.sh's load step), their loads.
   * A client's load that was killed and resumed counts through its resume ({@link ResumedLoad}).
   * Runs that leave warehouses of the database out (a client killed, failed, or not given) are
   * refused, naming each gap; with {@code includeIncomplete} the works of the complete ones are
   * merged into a run marked {@code partial}, its reason naming them. A {@code stop} (Ctrl-C)
   * ends it with nothing written.
   */
  static Path merge(List<Path> runs, Path resultsRoot, boolean includeIncomplete, Consumer<String> warn,
      BooleanSupplier stop) throws IOException {
    ResumedLoad.Given given = ResumedLoad.given(runs, includeIncomplete, new Tpcc().script());
    runs = given.runs();
    List<ResumedLoad> resumed = given.resumed();
    Map<Path, RunMerge.Killed> unfinished = given.unfinished();
    List<RunMerge.Part> all = RunMerge.read(runs, Tpcc.NAME, OWN, includeIncomplete, TpccFigures::upgradeFormat2);
    List<RunMerge.Part> parts = all.stream().filter(RunMerge.Part::complete).toList();
    if (parts.isEmpty()) {
      throw new UserError("Cannot merge: no run given is complete; nothing to merge");
    }
    List<RunSummary> summaries = parts.stream().map(RunMerge.Part::summary).toList();
    RunSummary first = summaries.get(0);
    List<String> works = executePhases(first);
    checkRanges(parts);
    String gaps = gaps(all, unfinished);
    if (works.isEmpty() && first.phases().containsKey(LOAD)) {
      if (gaps != null) {
        throw new UserError("Cannot merge these loads: " + gaps + "; a load without a client's warehouses is not the "
            + "database's: finish a killed loader with --load --resume RUN_DIR");
      }
      return mergeLoads(parts, resumed, resultsRoot, warn, stop);
    }
    if (works.isEmpty()) {
      throw new UserError(runs.get(0) + " holds no TPC-C execute phase to merge");
    }
    if (gaps != null && !includeIncomplete) {
      throw new UserError("Cannot merge: " + gaps + "; give every client's run, or add --include-incomplete for a "
          + "merged run marked partial");
    }
    if (gaps != null) {
      warn.accept("a partial merge: " + gaps);
    }
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
    return RunMerge.write(parts, resultsRoot, summary, merged, OWN, params, warn, stop,
        gaps == null ? RunInfo.COMPLETE : RunInfo.PARTIAL, gaps);
  }

  /**
   * What the runs leave out of the database, or null when they hold it whole: the clients killed
   * ({@code killed}: how long each ran), those that failed or were interrupted, and the warehouses
   * that no run given has.
   */
  private static String gaps(List<RunMerge.Part> all, Map<Path, RunMerge.Killed> killed) throws IOException {
    List<String> gaps = new ArrayList<>();
    BitSet accounted = new BitSet();
    for (Map.Entry<Path, RunMerge.Killed> k : killed.entrySet()) {
      JsonNode p = RunDirectory.JSON.readTree(k.getKey().resolve("run.json").toFile()).path("parameters");
      int from = p.path("start_warehouse").asInt();
      accounted.set(from, from + p.path("warehouses").asInt());
      gaps.add(k.getValue().said());
    }
    for (RunMerge.Part p : all) {
      int from = Integer.parseInt(p.parameter("start_warehouse"));
      int count = Integer.parseInt(p.parameter("warehouses"));
      accounted.set(from, from + count);
      if (!p.complete()) {
        gaps.add("warehouses " + from + " … " + (from + count - 1) + " " + p.summary().state()
            + (p.summary().reason() == null ? "" : " (" + p.summary().reason() + ")"));
      }
    }
    // Runs recorded before total_warehouses was: their ranges say what the database held.
    String given = all.get(0).parameter("total_warehouses");
    int total = given == null ? accounted.length() - 1 : Integer.parseInt(given);
    for (int gap = accounted.nextClearBit(1); gap <= total; gap = accounted.nextClearBit(gap)) {
      int end = accounted.nextSetBit(gap);
      end = end < 0 || end > total ? total + 1 : end;
      gaps.add("warehouses " + gap + " … " + (end - 1) + " are in no run given");
      gap = end;
    }
    return gaps.isEmpty() ? null : "the database of " + total + " warehouses is not whole: " + String.join(", ", gaps);
  }

  /**
   * The clients' loads as one load of the whole database: their rows, those of the killed runs
   * their resumes finished included, over the time from the first client's start (a killed one's)
   * to the last one's end; its population check passes when every client's passed and their
   * ranges are the whole database ({@link #gaps}).
   */
  private static Path mergeLoads(List<RunMerge.Part> parts, List<ResumedLoad> resumed, Path resultsRoot,
      Consumer<String> warn, BooleanSupplier stop) throws IOException {
    int total = parts.stream().mapToInt(p -> Integer.parseInt(p.parameter("warehouses"))).sum();
    long rows = resumed.stream().mapToLong(ResumedLoad::rows).sum();
    List<String> problems = new ArrayList<>();
    Instant started = Instant.MAX;
    Instant ended = Instant.MIN;
    for (RunMerge.Part p : parts) {
      PhaseResult load = p.summary().phase(LOAD);
      if (load == null || load.rows() == null) {
        throw new UserError("Cannot merge " + p.dir() + " with the others: it holds no TPC-C load");
      }
      int from = Integer.parseInt(p.parameter("start_warehouse"));
      rows += load.rows();
      String check = load.checks() == null ? null : load.checks().get(POPULATION);
      if (!PhaseResult.PASS.equals(check)) {
        problems.add("warehouses " + from + " … " + (from + Integer.parseInt(p.parameter("warehouses")) - 1) + ": "
            + (check == null ? "not checked" : check));
      }
      started = min(started, Instant.parse(p.info().path("started").asText()));
      ended = max(ended, Instant.parse(p.info().path("ended").asText()));
    }
    for (ResumedLoad r : resumed) {
      for (Path k : r.killed()) {
        started = min(started, Instant.parse(RunDirectory.JSON.readTree(k.resolve("run.json").toFile())
            .path("started").asText()));
      }
    }
    double seconds = Math.max(0.001, Duration.between(started, ended).toMillis() / 1000.0);
    RunSummary first = parts.get(0).summary();
    RunSummary summary = RunSummary.start(Tpcc.NAME, first.workload() + "-merged", first.server().info())
        .withPhase(LOAD, PhaseResult.ofRows(rows, seconds, POPULATION, problems.isEmpty() ? PhaseResult.PASS
            : String.join("; ", problems)))
        .withExtension(TpccFigures.KEY, new TpccFigures.Run(total, 0, null));
    Map<String, String> params = new LinkedHashMap<>();
    params.put("warehouses", Integer.toString(total));
    params.put("start_warehouse", "1");
    params.put("clients", Integer.toString(parts.size()));
    Path merged = RunMerge.write(parts, resultsRoot, summary, Map.of(), OWN, params, warn, stop);
    if (!resumed.isEmpty()) {
      ResumedLoad.record(merged, resumed);
    }
    return merged;
  }

  /**
   * The fleet's checks of a merged run: a merged load's rows, its resumed clients, and its
   * population check, a line each; false when the check failed.
   */
  static boolean audit(Path merged, Consumer<String> out) throws IOException {
    RunSummary summary = RunSummary.read(merged);
    PhaseResult load = summary.phase(LOAD);
    if (load == null || !summary.phases().keySet().equals(Set.of(LOAD))) {
      return true; // works: their counts are the clients' own, merged exactly
    }
    ResumedLoad.said(RunDirectory.JSON.readTree(merged.resolve("run.json").toFile()), out);
    String check = load.checks().get(POPULATION);
    out.accept(String.format(Locale.ROOT, "[load] %d rows over %.1f s (%d rows/s), population check: %s",
        load.rows(), load.durationS(), load.rowsPerS(), check));
    return PhaseResult.PASS.equals(check);
  }

  private static Instant min(Instant a, Instant b) {
    return a.isBefore(b) ? a : b;
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
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
