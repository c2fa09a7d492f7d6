package dev.ybbench.analysis.where;

import dev.ybbench.analysis.compare.Comparison;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.compare.Verdict;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.server.StatementPlans;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a change lives: the layers every run records beside its figures — which operation (or
 * transaction type) got slower, the server's time and CPU per operation and per statement
 * (pg_stat_statements: mean time, calls, rows and blocks per call), each node's latency, the
 * client's CPU per operation and busy share, retries and errors by class — compared with the same
 * statistics as the headline (per-run values, paired by round, intervals; Benjamini–Hochberg
 * within each metric asked of many statements or nodes), and each statement's plan shape compared
 * between the sides ({@link StatementPlans}).
 *
 * <p>A layer is named as a cause when it got worse by the threshold with its q-value at most
 * 5 %: the server when its time or CPU per operation, a statement's mean time, or a plan did; the
 * client when its CPU per operation got worse while it was busy (above
 * {@link PhaseResult.ClientSide#BUSY_WARNING_PCT} % of its cores) — a client waiting on a slower
 * server spends its fixed costs over fewer operations without being the bottleneck — or when its
 * busy share rose above {@link WhereCauses#CLIENT_BUSY_CAUSE_PCT} % (a starved client keeps its cost per
 * operation but runs out of CPU); conflicts when retries or errors of a class rose by
 * {@link Comparison#ERROR_MARGIN_PP} points of the operations. A layer shown within ± the
 * threshold by two one-sided tests is "unchanged".
 *
 * <p>What each run records of its layers is read by {@link WhereMeasures}, the plans compared by
 * {@link WherePlans}, and the clause that names the causes written by {@link WhereCauses}.
 */
public final class LayerComparison {
  /** What a layer row shows. */
  public enum Finding {
    WORSE("worse"), BETTER("better"), UNCHANGED("unchanged"), UNCLEAR("unclear"),
    /** One run a side without spread: the point change only. */
    UNTESTED("untested");

    private final String label;

    Finding(String label) {
      this.label = label;
    }

    @Override
    public String toString() {
      return label;
    }
  }

  /**
   * One layer metric of a workload.
   *
   * @param layer  operation, server, statement, node, client or conflicts
   * @param item   what within the layer (a statement's text, a node's address), or ""
   * @param metric e.g. "time per op (µs)"
   * @param share  for a statement's time per op, its part of the change of the server's time per
   *               op (−1 … 1 and beyond), else NaN
   */
  public record Layer(String layer, String item, String metric, Statistics.Change change, double q, Finding finding,
      double share) {}

  /**
   * A statement whose plan shape differs between the sides; {@code timeMoved} when the
   * statement's server time changed detectably with it (a plan that flipped while its statement
   * took as long — statistics that moved between runs — is no cause), {@code share} its
   * statement's part of the change of the server's time per op (NaN when not known).
   */
  public record PlanChange(String statement, String baseline, String candidate, boolean timeMoved, double share) {}

  /**
   * A workload's layers, its plan changes, and the clause naming what changed; {@code named} when
   * the clause names a cause (worth a line even beside a headline of no change).
   */
  public record Workload(List<Layer> layers, List<PlanChange> plans, String plansNote, String clause, boolean named) {}

  private LayerComparison() {}

  static final String SERVER_TIME = "server time per op (µs)";
  static final String STATEMENT_TIME = "time per op (µs)";
  static final String STATEMENT_MEAN = "mean (µs)";
  static final String SERVER_P99 = "server p99 (µs)";
  static final String CLIENT_CPU = "client CPU per op (µs)";
  static final String CLIENT_BUSY = "client busy (% of its cores)";
  static final String RETRIES = "retries (% of ops)";
  /** The median, not the mean: a few operations held up behind locks move a mean by tens of per cent. */
  static final String P50_LATENCY = "p50 latency (µs)";

  /** The comparison's row it comes from. */
  static final String P50 = "p50 (µs)";

  /** Where each workload's change lives, traced through the runs its rows compared. */
  public static Map<String, Workload> of(Comparison.Result result, double thresholdPct) {
    Map<String, Workload> out = new LinkedHashMap<>();
    result.workloads().forEach((key, m) -> out.put(key, of(m.baseline(), m.candidate(), m.paired(), thresholdPct,
        m.rows())));
    return out;
  }

  /**
   * @param rows the workload's rows of the comparison's table: each operation's p50 comes from
   *             there, with each run's own noise (per-second blocks) behind its interval
   */
  public static Workload of(List<RunGroup.Run> b, List<RunGroup.Run> c, boolean paired, double thresholdPct,
      List<Comparison.Row> rows) {
    List<WhereMeasures.Measure> measures = WhereMeasures.measures(b, c);
    List<Layer> raw = new ArrayList<>();
    // Which operations (transaction types) got slower: what a server-side change reached.
    long operations = rows.stream().map(Comparison.Row::operation).filter(op -> !op.equals("ALL")).distinct().count();
    for (Comparison.Row r : rows) {
      if (operations > 1 && r.metric().equals(P50) && r.note() == null) {
        raw.add(new Layer("operation", r.operation(), P50_LATENCY, r.change(), Double.NaN, null, Double.NaN));
      }
    }
    raw.addAll(measured(measures, b, c, paired));
    WherePlans.Shapes shapes = WherePlans.compared(b, c);
    Map<String, String> shapesB = shapes.baseline();
    Map<String, String> shapesC = shapes.candidate();
    Map<String, String> changedShapes = WherePlans.changed(shapesB, shapesC);
    Set<String> replanned = changedShapes.keySet();
    double[] q = qValues(raw, replanned);
    double totalDelta = delta(raw, "server", SERVER_TIME);
    List<Layer> layers = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      Layer l = raw.get(i);
      double share = l.layer().equals("statement") && l.metric().equals(STATEMENT_TIME) && totalDelta != 0
          ? (l.change().candidate() - l.change().baseline()) / totalDelta : Double.NaN;
      layers.add(new Layer(l.layer(), l.item(), l.metric(), l.change(), q[i], finding(l.change(), q[i],
          thresholdPct), share));
    }
    layers.addAll(beneath(layers, b, c, paired, thresholdPct));
    // Statements ranked by their share of the server's change, each statement's rows together.
    Map<String, Double> shareOf = new LinkedHashMap<>();
    layers.stream().filter(l -> l.metric().equals(STATEMENT_TIME) && !Double.isNaN(l.share()))
        .forEach(l -> shareOf.put(l.item(), Math.abs(l.share())));
    layers.sort(Comparator.comparingInt((Layer l) -> ORDER.indexOf(l.layer()))
        .thenComparing(l -> -shareOf.getOrDefault(l.item(), 0.0)).thenComparing(Layer::item));
    List<PlanChange> plans = WherePlans.planChanges(changedShapes, shapesC, layers, thresholdPct);
    String plansNote = WherePlans.plansNote(b, c, shapesB, shapesC);
    Map<String, List<String>> issuedBy = new LinkedHashMap<>();
    for (RunGroup.Run r : all(b, c)) {
      WhereMeasures.statements(r).stream().filter(st -> st.operations() != null)
          .forEach(st -> issuedBy.putIfAbsent(st.query(), st.operations()));
    }
    List<String> causes = WhereCauses.causes(layers, plans, c, issuedBy);
    return new Workload(layers, plans, plansNote, WhereCauses.clause(causes, layers, c, WhereCauses.unrecorded(b, c)),
        !causes.isEmpty());
  }

  /** Each measure compared between the sides' runs that recorded it; a measure one side lacks is left out. */
  private static List<Layer> measured(List<WhereMeasures.Measure> measures, List<RunGroup.Run> b,
      List<RunGroup.Run> c, boolean paired) {
    List<Layer> out = new ArrayList<>();
    for (WhereMeasures.Measure m : measures) {
      List<Statistics.Sample> sb = new ArrayList<>();
      List<Statistics.Sample> sc = new ArrayList<>();
      for (RunGroup.Run r : b) {
        Double v = m.value().apply(r);
        if (v != null) {
          sb.add(Statistics.Sample.of(v));
        }
      }
      for (RunGroup.Run r : c) {
        Double v = m.value().apply(r);
        if (v != null) {
          sc.add(Statistics.Sample.of(v));
        }
      }
      if (sb.isEmpty() || sc.isEmpty()) {
        continue;
      }
      boolean pairs = paired && sb.size() == b.size() && sc.size() == c.size();
      Statistics.Change ch = Statistics.change(sb, sc, pairs, m.scale(), 0.95);
      out.add(new Layer(m.layer(), m.item(), m.metric(), ch, Double.NaN, null, Double.NaN));
    }
    return out;
  }

  /**
   * A wait event's share of a statement's samples must move by this many points to be named: a
   * share is a proportion of tens or hundreds of samples, and a few points of it are a few samples.
   */
  static final double WAIT_MARGIN_PP = 10;

  /**
   * What lies beneath each statement whose time per execution moved (its mean or the server's
   * p99 worse or better, or by the threshold where one run a side leaves it untested): its wait
   * events' shares and its work per call, each kind a family of its own for the q-values. A wait
   * row's {@code share} is its event's part of the change of the statement's mean: the event's
   * share of the samples times the mean, candidate minus baseline, over the mean's change.
   */
  private static List<Layer> beneath(List<Layer> layers, List<RunGroup.Run> b, List<RunGroup.Run> c,
      boolean paired, double thresholdPct) {
    List<Layer> out = new ArrayList<>();
    for (Layer timed : layers) {
      boolean perExecution = timed.layer().equals("statement") && (timed.metric().equals(STATEMENT_MEAN)
          || timed.metric().equals(SERVER_P99) && !hasMean(layers, timed.item()));
      if (!perExecution || !(timed.finding() == Finding.WORSE || timed.finding() == Finding.BETTER
          || timed.finding() == Finding.UNTESTED && Math.abs(timed.change().change()) >= thresholdPct)) {
        continue;
      }
      List<Layer> rows = measured(WhereMeasures.beneath(timed.item(), b, c), b, c, paired);
      List<Layer> waits = rows.stream().filter(l -> waitEvent(l) != null).toList();
      List<Layer> work = rows.stream().filter(l -> !waits.contains(l)).toList();
      double tb = timed.change().baseline();
      double tc = timed.change().candidate();
      for (List<Layer> family : List.of(waits, work)) {
        double[] q = Statistics.benjaminiHochberg(family.stream().mapToDouble(l -> l.change().p()).toArray());
        for (int i = 0; i < family.size(); i++) {
          Layer l = family.get(i);
          boolean wait = family == waits;
          double share = wait && tc != tb
              ? (l.change().candidate() * tc - l.change().baseline() * tb) / 100 / (tc - tb) : Double.NaN;
          out.add(new Layer(l.layer(), l.item(), l.metric(), l.change(), q[i],
              wait ? judged(l.change(), q[i], WAIT_MARGIN_PP) : finding(l.change(), q[i], thresholdPct), share));
        }
      }
    }
    return out;
  }

  private static boolean hasMean(List<Layer> layers, String statement) {
    return layers.stream().anyMatch(l -> l.layer().equals("statement") && l.item().equals(statement)
        && l.metric().equals(STATEMENT_MEAN));
  }

  static List<RunGroup.Run> all(List<RunGroup.Run> b, List<RunGroup.Run> c) {
    List<RunGroup.Run> all = new ArrayList<>(b);
    all.addAll(c);
    return all;
  }

  private static final List<String> ORDER = List.of("operation", "server", "statement", "node", "client",
      "conflicts");

  /**
   * Benjamini–Hochberg q-values within each family of rows that ask the same question of many
   * items — one metric across the statements (or nodes) — so that thirty statements' means do not
   * make one of them slower by chance; a metric asked once (the server's time per operation, the
   * client's CPU) is its own family and keeps its p-value. The statements whose plan changed are a
   * family of their own: the plan is known apart from the timings, so singling them out costs no
   * error rate, and a slower statement among thirty is not lost in the other twenty-nine.
   */
  private static double[] qValues(List<Layer> rows, Set<String> replanned) {
    double[] q = new double[rows.size()];
    Map<String, List<Integer>> families = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      Layer l = rows.get(i);
      String family = l.layer() + "/" + l.metric() + (l.layer().equals("statement") && replanned.contains(l.item())
          ? "/plan changed" : "");
      families.computeIfAbsent(family, k -> new ArrayList<>()).add(i);
    }
    for (List<Integer> family : families.values()) {
      double[] fq = Statistics.benjaminiHochberg(family.stream().mapToDouble(i -> rows.get(i).change().p())
          .toArray());
      for (int k = 0; k < family.size(); k++) {
        q[family.get(k)] = fq[k];
      }
    }
    return q;
  }

  /** The change of a metric's mean in its own units (candidate − baseline), 0 when not there. */
  private static double delta(List<Layer> layers, String layer, String metric) {
    return layers.stream().filter(l -> l.layer().equals(layer) && l.metric().equals(metric))
        .mapToDouble(l -> l.change().candidate() - l.change().baseline()).findFirst().orElse(0);
  }

  private static Finding finding(Statistics.Change c, double q, double thresholdPct) {
    return judged(c, q, c.scale() == Statistics.Scale.RATIO ? thresholdPct : Comparison.ERROR_MARGIN_PP);
  }

  /** The finding of a change judged against {@code threshold}, in its own scale's units (% or points). */
  private static Finding judged(Statistics.Change c, double q, double threshold) {
    if (!c.hasInterval()) {
      return Finding.UNTESTED;
    }
    if (q <= Verdict.FALSE_DISCOVERY_RATE && c.change() >= threshold) {
      return Finding.WORSE;
    }
    if (q <= Verdict.FALSE_DISCOVERY_RATE && c.change() <= -threshold) {
      return Finding.BETTER;
    }
    double[] tost = c.intervalAt(2 * c.confidence() - 1);
    return tost[0] > -threshold && tost[1] < threshold ? Finding.UNCHANGED : Finding.UNCLEAR;
  }

  /** The wait event a layer row is the share of ("Lock:transactionid"), or null for any other row. */
  public static String waitEvent(Layer l) {
    String m = l.metric();
    return l.layer().equals("statement") && m.startsWith(WhereMeasures.WAIT_PREFIX)
        && m.endsWith(WhereMeasures.WAIT_SUFFIX)
        ? m.substring(WhereMeasures.WAIT_PREFIX.length(), m.length() - WhereMeasures.WAIT_SUFFIX.length()) : null;
  }

  /**
   * Each statement's wait rows (its events' shares of its samples on each side, in %), for the
   * reports' stacked bars: the statements whose time moved, in the layers' order.
   */
  public static Map<String, List<Layer>> waitProfiles(Workload w) {
    Map<String, List<Layer>> out = new LinkedHashMap<>();
    w.layers().stream().filter(l -> waitEvent(l) != null)
        .forEach(l -> out.computeIfAbsent(l.item(), k -> new ArrayList<>()).add(l));
    return out;
  }

  /** Long statements and plan shapes cut to a readable length. */
  public static String abbreviate(String s) {
    String one = s.replaceAll("\\s+", " ").strip();
    return one.length() <= 70 ? one : one.substring(0, 67) + "…";
  }
}
