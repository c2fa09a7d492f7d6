package dev.ybbench.analysis.compare;

import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the comparison reads of a run: each metric of its phase and of each of its operations, as
 * a sample with the run's own noise, and which metric is the headline that gates the exit code.
 * The phase names its headline and its other figures (results format 3): no benchmark is known
 * here by name.
 */
public final class ComparedMetrics {
  private ComparedMetrics() {}

  /** How to read one metric's sample from a run; null when the run does not have the metric. */
  interface SampleOf<T> {
    Statistics.Sample of(T result, String operation, RunNoise noise);
  }

  public record Metric<T>(String name, boolean higherIsBetter, Statistics.Scale scale, SampleOf<T> sample) {
    boolean latency() {
      return name.endsWith("(µs)");
    }
  }

  private static final Metric<PhaseResult> THROUGHPUT = figure(PhaseResult.Figure.throughput(0));
  private static final Metric<PhaseResult> ERROR_RATIO = new Metric<>("error ratio (%)", false,
      Statistics.Scale.DIFFERENCE, (p, op, n) -> Statistics.Sample.of(pct(p.errors(), p.successes(), p.errors(),
      p.aborts())));
  private static final Metric<PhaseResult> ABORT_RATIO = new Metric<>("abort ratio (%)", false,
      Statistics.Scale.DIFFERENCE, (p, op, n) -> Statistics.Sample.of(pct(p.aborts(), p.successes(), p.errors(),
      p.aborts())));

  /**
   * A figure a phase names, as a metric: its value as the results state it, its noise that of the
   * rate of the operations it counts (none named: the phase's throughput's).
   */
  static Metric<PhaseResult> figure(PhaseResult.Figure f) {
    return new Metric<>(f.label(), f.higherIsBetter(), Statistics.Scale.RATIO, (p, op, n) -> {
      PhaseResult.Figure mine = f.throughput() ? PhaseResult.Figure.throughput(p.throughputOps())
          : p.headline().metric().equals(f.metric()) ? p.headline() : p.figure(f.metric());
      if (mine == null) {
        return null;
      }
      return mine.operations() == null ? n.throughput(mine.value())
          : n.rate(mine.value(), mine.operations().toArray(String[]::new));
    });
  }

  /**
   * The metrics of a phase the runs of a side have: the throughput, the headline and the figures
   * they name beside it, the error and abort ratios.
   */
  static List<Metric<PhaseResult>> phaseMetrics(List<RunGroup.Run> runs) {
    Map<String, Metric<PhaseResult>> m = new LinkedHashMap<>();
    m.put(THROUGHPUT.name(), THROUGHPUT);
    for (RunGroup.Run r : runs) {
      m.putIfAbsent(r.phase().headline().label(), figure(r.phase().headline()));
      if (r.phase().figures() != null) {
        r.phase().figures().forEach(f -> m.putIfAbsent(f.label(), figure(f)));
      }
    }
    m.put(ERROR_RATIO.name(), ERROR_RATIO);
    m.put(ABORT_RATIO.name(), ABORT_RATIO);
    return List.copyOf(m.values());
  }

  static final List<Metric<OperationResult>> OPERATION_METRICS = List.of(
      new Metric<>("throughput (ops/s)", true, Statistics.Scale.RATIO, (o, op, n) -> n.rate(o.throughputOps(), op)),
      percentile("p50", 50, LatencyPercentiles::p50),
      percentile("p95", 95, LatencyPercentiles::p95),
      percentile("p99", 99, LatencyPercentiles::p99),
      percentile("p99.9", 99.9, LatencyPercentiles::p99_9),
      new Metric<>("error ratio (%)", false, Statistics.Scale.DIFFERENCE,
          (o, op, n) -> Statistics.Sample.of(pct(o.errors(), o.successes(), o.errors(), o.aborts()))),
      new Metric<>("abort ratio (%)", false, Statistics.Scale.DIFFERENCE,
          (o, op, n) -> Statistics.Sample.of(pct(o.aborts(), o.successes(), o.errors(), o.aborts()))));

  /** Latency percentiles a --gate may name. */
  public static final List<String> GATES = List.of("p50", "p95", "p99", "p99.9");

  private static Metric<OperationResult> percentile(String name, double percentile, Function<LatencyPercentiles, Long> value) {
    return new Metric<>(name + " (µs)", false, Statistics.Scale.RATIO, (o, op, n) -> {
      Long v = o.latencyUs() == null ? null : value.apply(o.latencyUs());
      return v == null ? null : n.percentile(op, percentile, v);
    });
  }

  /** {@code part} (errors or aborts) as a percentage of the operations that ended. */
  private static double pct(long part, long successes, long errors, long aborts) {
    long ended = successes + errors + aborts;
    return ended == 0 ? 0 : 100.0 * part / ended;
  }

  /** The metric that gates a run's verdict: the headline its phase names (its throughput unless it names another). */
  static Metric<PhaseResult> headlineMetric(RunGroup.Run r) {
    return figure(r.phase().headline());
  }

  /**
   * Every metric of a run's phase the comparison reads, with its noise from the run's seconds: what
   * the history keeps so that the run is compared the same once its directory is gone.
   */
  public static Map<String, double[]> noiseOf(RunGroup.Run r) {
    RunNoise noise = r.noise();
    for (Metric<PhaseResult> m : phaseMetrics(List.of(r))) {
      m.sample().of(r.phase(), "ALL", noise);
    }
    r.phase().operations().forEach((op, result) -> OPERATION_METRICS.forEach(m -> m.sample().of(result, op, noise)));
    return noise.recorded();
  }

  /** Its name, as the rows carry it. */
  public static String headlineName(RunGroup.Run r) {
    return r.phase().headline().label();
  }

  /** A run's headline sample (see {@link #headlineMetric}). */
  public static Statistics.Sample headline(RunGroup.Run r) {
    return headlineMetric(r).sample().of(r.phase(), "ALL", r.noise());
  }

  /** The unit a run's headline is stated in ("ops/s", "tpmC"). */
  public static String headlineUnit(RunGroup.Run r) {
    return r.phase().headline().unit();
  }
}
