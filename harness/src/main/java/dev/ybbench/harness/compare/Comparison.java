package dev.ybbench.harness.compare;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunSummary;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Matches the two sides' runs by benchmark and workload, refuses runs whose parameters differ,
 * and turns every metric of every matching operation into a row: both means, the change, its
 * interval and a verdict.
 */
public final class Comparison {
  /**
   * Parameters that may differ between sides: where and how to connect, which is not what ran,
   * and the throughput cap, so that a throttled run can stand in for a slower release.
   */
  private static final Pattern MAY_DIFFER = Pattern.compile(
      ".*(hosts|^url$|dialect|load_balance|partition_metadata|user|password|target).*");

  /** One metric of one operation (or of the whole phase, operation "ALL"). */
  public record Row(String bench, String workload, String operation, String metric, boolean higherIsBetter,
      Statistics.Change change, Verdict verdict, int baselineRuns, int candidateRuns) {}

  /** A metric read from a typed result; null when the result does not have it. */
  private record Metric<T>(String name, boolean higherIsBetter, Function<T, Number> value) {}

  private static final List<Metric<OperationResult>> OPERATION_METRICS = List.of(
      new Metric<>("throughput (ops/s)", true, OperationResult::throughputOps),
      new Metric<>("p50 (µs)", false, op -> op.latencyUs().p50()),
      new Metric<>("p95 (µs)", false, op -> op.latencyUs().p95()),
      new Metric<>("p99 (µs)", false, op -> op.latencyUs().p99()),
      new Metric<>("p99.9 (µs)", false, op -> op.latencyUs().p99_9()),
      new Metric<>("errors", false, OperationResult::errors));

  private Comparison() {}

  /** The phase compared: YCSB's run phase (else its load), TPC-C's measurement. */
  static String phase(RunSummary summary) {
    for (String p : List.of("execute", "run", "load")) {
      if (summary.phase(p) != null) {
        return p;
      }
    }
    return null;
  }

  public static List<Row> compare(Side baseline, Side candidate, double thresholdPct) {
    Map<String, List<Side.Run>> b = byWorkload(baseline);
    Map<String, List<Side.Run>> c = byWorkload(candidate);
    List<String> common = new ArrayList<>(new TreeSet<>(b.keySet()));
    common.retainAll(c.keySet());
    if (common.isEmpty()) {
      throw new UserError("Nothing to compare: the baseline ran " + b.keySet() + ", the candidate " + c.keySet());
    }
    List<Row> rows = new ArrayList<>();
    for (String key : common) {
      checkParameters(b.get(key), c.get(key));
      rows.addAll(rows(key, b.get(key), c.get(key), thresholdPct));
    }
    return rows;
  }

  private static Map<String, List<Side.Run>> byWorkload(Side side) {
    Map<String, List<Side.Run>> m = new TreeMap<>();
    for (Side.Run r : side.runs()) {
      if (phase(r.summary()) != null) {
        m.computeIfAbsent(r.bench() + "/" + r.workload(), k -> new ArrayList<>()).add(r);
      }
    }
    return m;
  }

  /** Every run of a workload, on both sides, must have run with the same parameters. */
  static void checkParameters(List<Side.Run> baseline, List<Side.Run> candidate) {
    Side.Run ref = baseline.get(0);
    List<Side.Run> all = new ArrayList<>(baseline);
    all.addAll(candidate);
    for (Side.Run r : all) {
      TreeSet<String> names = new TreeSet<>();
      ref.info().path("parameters").fieldNames().forEachRemaining(names::add);
      r.info().path("parameters").fieldNames().forEachRemaining(names::add);
      for (String n : names) {
        if (MAY_DIFFER.matcher(n).matches()) {
          continue;
        }
        String a = ref.info().path("parameters").path(n).asText(null);
        String v = r.info().path("parameters").path(n).asText(null);
        if (!Objects.equals(a, v)) {
          throw new UserError("Refusing to compare " + r.workload() + ": parameter " + n + " is " + a + " in "
              + ref.dir().getFileName() + " but " + v + " in " + r.dir().getFileName());
        }
      }
    }
  }

  private static List<Row> rows(String key, List<Side.Run> b, List<Side.Run> c, double threshold) {
    String bench = key.substring(0, key.indexOf('/'));
    String workload = key.substring(key.indexOf('/') + 1);
    List<Row> rows = new ArrayList<>();
    // Phase-level metrics first, then per operation type.
    List<Metric<PhaseResult>> phaseMetrics = new ArrayList<>();
    phaseMetrics.add(new Metric<>("throughput (ops/s)", true, PhaseResult::throughputOps));
    if (bench.equals("tpcc")) {
      phaseMetrics.add(new Metric<>("tpmC", true, PhaseResult::tpmC));
      phaseMetrics.add(new Metric<>("efficiency (%)", true, PhaseResult::efficiencyPct));
    }
    phaseMetrics.add(new Metric<>("errors", false, PhaseResult::errors));
    for (Metric<PhaseResult> m : phaseMetrics) {
      add(rows, bench, workload, "ALL", m, values(b, m, Side.Run::phase), values(c, m, Side.Run::phase), threshold,
          b.size(), c.size());
    }
    TreeSet<String> ops = new TreeSet<>();
    for (Side.Run r : b) {
      ops.addAll(r.phase().operations().keySet());
    }
    for (String op : ops) {
      Function<Side.Run, OperationResult> operation = r -> r.phase().operations().get(op);
      for (Metric<OperationResult> m : OPERATION_METRICS) {
        add(rows, bench, workload, op, m, values(b, m, operation), values(c, m, operation), threshold, b.size(),
            c.size());
      }
    }
    return rows;
  }

  private static void add(List<Row> rows, String bench, String workload, String op, Metric<?> m, List<Double> b,
      List<Double> c, double threshold, int nb, int nc) {
    if (b.isEmpty() || c.isEmpty()) {
      return;
    }
    Statistics.Change change = Statistics.change(b, c);
    rows.add(new Row(bench, workload, op, m.name(), m.higherIsBetter(), change,
        Verdict.of(change, m.higherIsBetter(), threshold), nb, nc));
  }

  private static <T> List<Double> values(List<Side.Run> runs, Metric<T> m, Function<Side.Run, T> part) {
    List<Double> out = new ArrayList<>();
    for (Side.Run r : runs) {
      T node = part.apply(r);
      Number v = node == null ? null : m.value().apply(node);
      if (v != null) {
        out.add(v.doubleValue());
      }
    }
    return out;
  }

  /** The workloads compared, with their rows, in order. */
  public static Map<String, List<Row>> byWorkload(List<Row> rows) {
    Map<String, List<Row>> m = new LinkedHashMap<>();
    for (Row r : rows) {
      m.computeIfAbsent(r.bench() + "/" + r.workload(), k -> new ArrayList<>()).add(r);
    }
    return m;
  }

  static Iterator<Row> regressions(List<Row> rows) {
    return rows.stream().filter(r -> r.verdict() == Verdict.REGRESSION).iterator();
  }
}
