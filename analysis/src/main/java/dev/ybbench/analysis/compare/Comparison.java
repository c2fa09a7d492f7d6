package dev.ybbench.analysis.compare;

import dev.ybbench.analysis.compare.ComparedMetrics.Metric;
import dev.ybbench.analysis.stats.RunsToDecide;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Matches the two sides' runs by benchmark and workload, refuses runs whose parameters differ,
 * pairs runs that were interleaved ({@link RunMatching}), and turns every metric of every matching
 * operation ({@link ComparedMetrics}) into a row: both sides' values, the change, its interval and
 * a verdict. The headline rows (throughput; tpmC for TPC-C; a latency percentile with --gate) gate
 * the exit code; the others get a false-discovery-rate correction across rows.
 */
public final class Comparison {
  /**
   * Error ratios closer than this many percentage points are no change: a tenth of the default
   * --max-error-pct, below which a run's errors do not change what it measured.
   */
  public static final double ERROR_MARGIN_PP = 0.1;

  /**
   * One metric of one operation (or of the whole phase, operation "ALL").
   *
   * @param headline       whether this row gates the exit code
   * @param q              the Benjamini–Hochberg q-value of a row that does not gate (NaN for headlines)
   * @param roundsToDecide for an inconclusive headline, the rounds in all that would likely decide it
   * @param setAside       the run or round set aside as disturbed ({@link Statistics#outlier}), named; or null
   * @param origin         for a latency row, from when both sides measured it ({@link PhaseResult#ACTUAL_START},
   *                       {@link PhaseResult#INTENDED_START}, or "actual vs intended start"); else null
   * @param note           why a row is {@link Verdict#NOT_COMPARABLE}, or what a headline's reader must know
   *                       (only one side ran under a target); else null
   */
  public record Row(String bench, String workload, String operation, String metric, boolean higherIsBetter,
      boolean headline, Statistics.Change change, double q, Verdict verdict, Integer roundsToDecide,
      String setAside, String origin, String note) {
    public String key() {
      return bench + "/" + workload;
    }

    public boolean latency() {
      return origin != null;
    }

    Row judged(double q, Verdict verdict, Integer roundsToDecide) {
      return new Row(bench, workload, operation, metric, higherIsBetter, headline, change, q, verdict, roundsToDecide,
          setAside, origin, note);
    }
  }

  /**
   * @param thresholdPct       changes smaller than this are no change
   * @param gate               a latency percentile that gates too ("p99"), or null
   * @param headlineConfidence the headline intervals' confidence (wider than 95 % at repeated looks)
   * @param allowEnvDiff       compare runs from different machines or JDKs
   * @param sameSpread         the baseline is the candidate's history: runs of its configuration on its
   *                           machine, whose spread the candidate's runs share ({@link Statistics.Design#POOLED})
   * @param earlierLevel       of those, the runs (directories) at a level the history has lately left: they
   *                           add to the spread, not to the level judged against
   */
  public record Options(double thresholdPct, String gate, double headlineConfidence, boolean allowEnvDiff,
      boolean sameSpread, Set<Path> earlierLevel) {
    public Options(double thresholdPct, String gate, double headlineConfidence, boolean allowEnvDiff) {
      this(thresholdPct, gate, headlineConfidence, allowEnvDiff, false, Set.of());
    }

    public Options {
      if (!earlierLevel.isEmpty() && !sameSpread) {
        throw new IllegalArgumentException("an earlier level is a history's");
      }
    }
  }

  /**
   * The rows, warnings about the runs behind them (a noisy side), and per workload the runs its
   * rows compared, which the where traces a change through.
   */
  public record Result(List<Row> rows, List<String> warnings, Map<String, Matched> workloads) {}

  /**
   * One workload's runs as compared: each side's (in time order when they alternated, and then
   * paired by round) and its rows before the false-discovery correction.
   */
  public record Matched(List<RunGroup.Run> baseline, List<RunGroup.Run> candidate, boolean paired, List<Row> rows) {}

  private Comparison() {}

  public static Result compare(RunGroup baseline, RunGroup candidate, Options options) {
    Map<String, List<RunGroup.Run>> b = RunMatching.byWorkload(baseline);
    Map<String, List<RunGroup.Run>> c = RunMatching.byWorkload(candidate);
    List<String> common = new ArrayList<>(new TreeSet<>(b.keySet()));
    common.retainAll(c.keySet());
    if (common.isEmpty()) {
      throw new UserError("Nothing to compare: the baseline ran " + b.keySet() + ", the candidate " + c.keySet());
    }
    List<Row> rows = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    Map<String, Matched> workloads = new LinkedHashMap<>();
    for (String key : common) {
      RunMatching.checkParameters(b.get(key), c.get(key));
      if (!options.allowEnvDiff()) {
        RunMatching.checkEnvironment(b.get(key), c.get(key));
      }
      List<RunGroup.Run> rb = b.get(key).stream().filter(r -> !options.earlierLevel().contains(r.dir())).toList();
      List<RunGroup.Run> earlier = b.get(key).stream().filter(r -> options.earlierLevel().contains(r.dir())).toList();
      List<RunGroup.Run> rc = c.get(key);
      boolean paired = RunMatching.interleaved(rb, rc);
      if (paired) {
        rb = RunMatching.byStart(rb);
        rc = RunMatching.byStart(rc);
      }
      List<Row> workload = rows(key, rb, earlier, rc, paired, options);
      rows.addAll(workload);
      workloads.put(key, new Matched(rb, rc, paired, workload));
      noisy(baseline.name(), key, rb, options.thresholdPct()).ifPresent(warnings::add);
      noisy(candidate.name(), key, rc, options.thresholdPct()).ifPresent(warnings::add);
    }
    return new Result(judge(rows, options), warnings, workloads);
  }

  /** "a's runs of ycsb/workloadc differ by up to 12.3 % (A 8123.0 vs B 7234.0 ops/s) …": a noisy side. */
  private static Optional<String> noisy(String side, String key, List<RunGroup.Run> runs, double threshold) {
    if (runs.size() < 2) {
      return Optional.empty();
    }
    Map<RunGroup.Run, Double> value = new HashMap<>();
    runs.forEach(r -> value.put(r, ComparedMetrics.headline(r).value()));
    RunGroup.Run lo = runs.stream().min(Comparator.comparing(value::get)).orElseThrow();
    RunGroup.Run hi = runs.stream().max(Comparator.comparing(value::get)).orElseThrow();
    double spread = (value.get(hi) / value.get(lo) - 1) * 100;
    if (!(spread > threshold)) {
      return Optional.empty();
    }
    String unit = ComparedMetrics.headlineUnit(runs.get(0));
    return Optional.of(String.format(Locale.ROOT, "%s's runs of %s differ by up to %.1f %% (%s %.1f vs %s %.1f %s), "
            + "more than the %.1f %% threshold: the machine is noisy for that threshold; the verdict allows for it, "
            + "at the cost of more rounds", side, key, spread, hi.dir().getFileName(), value.get(hi),
        lo.dir().getFileName(), value.get(lo), unit, threshold));
  }

  /** From when a run's latency was measured: the intended start under a target, else the actual start. */
  static String latencyOrigin(RunGroup.Run r) {
    return PhaseResult.INTENDED_START.equals(r.phase().latencyFrom()) ? PhaseResult.INTENDED_START
        : PhaseResult.ACTUAL_START;
  }

  /** The one origin of a side's runs, or null when its runs differ. */
  private static String origin(List<RunGroup.Run> runs) {
    List<String> origins = runs.stream().map(Comparison::latencyOrigin).distinct().toList();
    return origins.size() == 1 ? origins.get(0) : null;
  }

  /**
   * Like with like: latency measured from the intended start (under a target, a stalled operation
   * counts the time it waited) and from the actual start are different quantities, so rows whose
   * sides measured from different origins are shown but not tested. The reason, or null when the
   * two sides measured alike.
   */
  static String unlike(List<RunGroup.Run> b, List<RunGroup.Run> c) {
    String ob = origin(b);
    String oc = origin(c);
    if (ob != null && ob.equals(oc)) {
      return null;
    }
    return "not comparable: the baseline's latency is measured from the " + (ob == null ? "actual start in some runs "
        + "and the intended start in others" : ob) + ", the candidate's from the " + (oc == null ? "actual start in "
        + "some runs and the intended start in others" : oc) + " (the intended start, under a target, counts the "
        + "time an operation waited behind a late one): not the same quantity, so not tested";
  }

  /**
   * For a throughput headline where only one side was paced: its throughput is the target's, not
   * what it could do. Null when both or neither were.
   */
  static String pacedNote(List<RunGroup.Run> b, List<RunGroup.Run> c) {
    boolean pb = b.stream().anyMatch(r -> PhaseResult.INTENDED_START.equals(latencyOrigin(r)));
    boolean pc = c.stream().anyMatch(r -> PhaseResult.INTENDED_START.equals(latencyOrigin(r)));
    if (pb == pc) {
      return null;
    }
    return "only the " + (pb ? "baseline" : "candidate") + " ran under a target: its throughput is what the target "
        + "allowed, not what it could do";
  }

  /** @param earlier the baseline's runs at an earlier level ({@link Options#earlierLevel}) */
  private static List<Row> rows(String key, List<RunGroup.Run> b, List<RunGroup.Run> earlier, List<RunGroup.Run> c,
      boolean paired, Options options) {
    String bench = key.substring(0, key.indexOf('/'));
    String workload = key.substring(key.indexOf('/') + 1);
    Map<RunGroup.Run, RunNoise> noise = new HashMap<>();
    Function<RunGroup.Run, RunNoise> noiseOf = r -> noise.computeIfAbsent(r,
        RunGroup.Run::noise);
    String unlike = unlike(b, c);
    String origin = unlike != null ? PhaseResult.ACTUAL_START.equals(origin(b)) ? "actual vs intended start"
        : "intended vs actual start" : origin(b);
    String paced = pacedNote(b, c);
    List<Row> rows = new ArrayList<>();
    String gating = ComparedMetrics.headlineName(b.get(0));
    for (Metric<PhaseResult> m : ComparedMetrics.phaseMetrics(b)) {
      boolean headline = m.name().equals(gating);
      add(rows, bench, workload, "ALL", m, headline, b, earlier, c, RunGroup.Run::phase, noiseOf, paired, options, null,
          headline && m.higherIsBetter() ? paced : null);
    }
    TreeSet<String> ops = new TreeSet<>();
    for (RunGroup.Run r : b) {
      ops.addAll(r.phase().operations().keySet());
    }
    for (String op : ops) {
      for (Metric<OperationResult> m : ComparedMetrics.OPERATION_METRICS) {
        boolean gates = options.gate() != null && m.name().equals(options.gate() + " (µs)");
        add(rows, bench, workload, op, m, gates, b, earlier, c, r -> r.phase().operations().get(op), noiseOf, paired,
            options, m.latency() ? origin : null, m.latency() ? unlike : null);
      }
    }
    return rows;
  }

  private static <T> void add(List<Row> rows, String bench, String workload, String op, Metric<T> m,
      boolean headline, List<RunGroup.Run> b, List<RunGroup.Run> earlier, List<RunGroup.Run> c,
      Function<RunGroup.Run, T> part,
      Function<RunGroup.Run, RunNoise> noise, boolean paired, Options options, String origin, String note) {
    Map<RunGroup.Run, Statistics.Sample> sb = samples(b, m, op, part, noise);
    Map<RunGroup.Run, Statistics.Sample> sc = samples(c, m, op, part, noise);
    if (sb.isEmpty() || sc.isEmpty()) {
      return;
    }
    boolean pairs = paired && sb.size() == b.size() && sc.size() == c.size();
    Statistics.Design design = pairs ? Statistics.Design.PAIRED
        : options.sameSpread() ? Statistics.Design.POOLED : Statistics.Design.UNPAIRED;
    List<Statistics.Sample> se = design == Statistics.Design.POOLED
        ? List.copyOf(samples(earlier, m, op, part, noise).values()) : List.of();
    Statistics.Change change = Statistics.change(List.copyOf(sb.values()), List.copyOf(sc.values()), design,
        m.scale(), headline ? options.headlineConfidence() : 0.95, se);
    String aside = null;
    if (change.setAside()) {
      List<RunGroup.Run> runsB = List.copyOf(sb.keySet());
      List<RunGroup.Run> runsC = List.copyOf(sc.keySet());
      List<String> named = new ArrayList<>();
      if (change.asideBaseline() >= 0) {
        named.add(name(runsB.get(change.asideBaseline())));
      }
      if (change.asideCandidate() >= 0) {
        named.add(name(runsC.get(change.asideCandidate())));
      }
      // Paired, both indexes name the round.
      aside = (pairs ? "round " + (change.asideBaseline() + 1) + " (" : "") + String.join(", ", named)
          + (pairs ? ")" : "");
    }
    rows.add(new Row(bench, workload, op, m.name(), m.higherIsBetter(), headline, change, Double.NaN, null, null,
        aside, origin, note));
  }

  private static String name(RunGroup.Run r) {
    return r.dir().getFileName().toString();
  }

  /** Each run's sample of the metric, in the runs' order; runs without the metric are left out. */
  private static <T> Map<RunGroup.Run, Statistics.Sample> samples(List<RunGroup.Run> runs, Metric<T> m, String op,
      Function<RunGroup.Run, T> part, Function<RunGroup.Run, RunNoise> noise) {
    Map<RunGroup.Run, Statistics.Sample> out = new LinkedHashMap<>();
    for (RunGroup.Run r : runs) {
      T result = part.apply(r);
      Statistics.Sample s = result == null ? null : m.sample().of(result, op, noise.apply(r));
      if (s != null) {
        out.put(r, s);
      }
    }
    return out;
  }

  /**
   * Verdicts: headlines on their own intervals; the other rows after Benjamini–Hochberg across
   * them; rows of unlike quantities ({@link #unlike}) are not tested, nor counted among the tests.
   */
  private static List<Row> judge(List<Row> rows, Options options) {
    double[] p = rows.stream().mapToDouble(r -> r.headline() || notComparable(r) ? Double.NaN : r.change().p())
        .toArray();
    double[] q = Statistics.benjaminiHochberg(p);
    List<Row> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      if (notComparable(r)) {
        out.add(r.judged(Double.NaN, Verdict.NOT_COMPARABLE, null));
        continue;
      }
      double threshold = r.change().scale() == Statistics.Scale.DIFFERENCE ? ERROR_MARGIN_PP : options.thresholdPct();
      Verdict v = r.headline() ? Verdict.headline(r.change(), r.higherIsBetter(), threshold)
          : Verdict.other(r.change(), r.higherIsBetter(), threshold, q[i]);
      // How many runs would decide: rounds in all, or for a single run against its history, runs of
      // the candidate (Report and Compare read it by the same test).
      Integer more = !(r.headline() && v == Verdict.INCONCLUSIVE) ? null
          : RunsToDecide.oneAgainstSeveral(r.change())
              ? RunsToDecide.candidateRuns(r.change(), options.thresholdPct(), MAX_ROUNDS)
          : r.change().hasInterval() || RunsToDecide.runsUnknown(r.change())
              ? RunsToDecide.rounds(r.change(), options.thresholdPct(), MAX_ROUNDS) : null;
      out.add(r.judged(q[i], v, more));
    }
    return out;
  }

  private static boolean notComparable(Row r) {
    return r.latency() && r.note() != null;
  }

  /** Beyond this many rounds, "how many more" is no longer a useful answer. */
  public static final int MAX_ROUNDS = 1000;

  /** The workloads compared, with their rows, in order. */
  public static Map<String, List<Row>> byWorkload(List<Row> rows) {
    Map<String, List<Row>> m = new LinkedHashMap<>();
    for (Row r : rows) {
      m.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
    }
    return m;
  }
}
