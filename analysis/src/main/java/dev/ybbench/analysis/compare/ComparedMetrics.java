package dev.ybbench.analysis.compare;

import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.harness.results.Latency;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the comparison reads of a run: each metric of its phase and of each of its operations, as
 * a sample with the run's own noise, and which metric is the headline that gates the exit code.
 */
public final class ComparedMetrics {
  private ComparedMetrics() {}

  /** tpmC counts New-Orders, those rolled back by design included (TPC-C clause 5.4.2). */
  private static final String[] NEW_ORDERS = {"NewOrder", "NewOrderRollback"};

  /** How to read one metric's sample from a run; null when the run does not have the metric. */
  interface SampleOf<T> {
    Statistics.Sample of(T result, String operation, RunNoise noise);
  }

  record Metric<T>(String name, boolean higherIsBetter, Statistics.Scale scale, SampleOf<T> sample) {
    boolean latency() {
      return name.endsWith("(µs)");
    }
  }

  private static final Metric<PhaseResult> THROUGHPUT = new Metric<>("throughput (ops/s)", true,
      Statistics.Scale.RATIO, (p, op, n) -> n.throughput(p.throughputOps()));
  private static final Metric<PhaseResult> TPMC = new Metric<>("tpmC", true, Statistics.Scale.RATIO,
      (p, op, n) -> p.tpmC() == null ? null : n.rate(p.tpmC(), NEW_ORDERS));

  static final List<Metric<PhaseResult>> PHASE_METRICS = List.of(THROUGHPUT, TPMC,
      new Metric<>("efficiency (%)", true, Statistics.Scale.RATIO,
          (p, op, n) -> p.efficiencyPct() == null ? null : n.rate(p.efficiencyPct(), NEW_ORDERS)),
      new Metric<>("error ratio (%)", false, Statistics.Scale.DIFFERENCE,
          (p, op, n) -> Statistics.Sample.of(pct(p.errors(), p.successes(), p.errors(), p.aborts()))),
      new Metric<>("abort ratio (%)", false, Statistics.Scale.DIFFERENCE,
          (p, op, n) -> Statistics.Sample.of(pct(p.aborts(), p.successes(), p.errors(), p.aborts()))));

  static final List<Metric<OperationResult>> OPERATION_METRICS = List.of(
      new Metric<>("throughput (ops/s)", true, Statistics.Scale.RATIO, (o, op, n) -> n.rate(o.throughputOps(), op)),
      percentile("p50", 50, Latency::p50),
      percentile("p95", 95, Latency::p95),
      percentile("p99", 99, Latency::p99),
      percentile("p99.9", 99.9, Latency::p99_9),
      new Metric<>("error ratio (%)", false, Statistics.Scale.DIFFERENCE,
          (o, op, n) -> Statistics.Sample.of(pct(o.errors(), o.successes(), o.errors(), o.aborts()))),
      new Metric<>("abort ratio (%)", false, Statistics.Scale.DIFFERENCE,
          (o, op, n) -> Statistics.Sample.of(pct(o.aborts(), o.successes(), o.errors(), o.aborts()))));

  /** Latency percentiles a --gate may name. */
  static final List<String> GATES = List.of("p50", "p95", "p99", "p99.9");

  private static Metric<OperationResult> percentile(String name, double percentile, Function<Latency, Long> value) {
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

  /**
   * The metric that gates a run's verdict: tpmC for a TPC-C work with New-Orders, else the
   * phase's throughput (a work of Payments alone has no tpmC).
   */
  static Metric<PhaseResult> headlineMetric(Side.Run r) {
    return r.bench().equals("tpcc") && r.phase().operations().containsKey("NewOrder") ? TPMC : THROUGHPUT;
  }

  /**
   * Every metric of a run's phase the comparison reads, with its noise from the run's seconds: what
   * the history keeps so that the run is compared the same once its directory is gone.
   */
  public static Map<String, double[]> noiseOf(Side.Run r) {
    RunNoise noise = r.noise();
    for (Metric<PhaseResult> m : PHASE_METRICS) {
      m.sample().of(r.phase(), "ALL", noise);
    }
    r.phase().operations().forEach((op, result) -> OPERATION_METRICS.forEach(m -> m.sample().of(result, op, noise)));
    return noise.recorded();
  }

  /** Its name, as the rows carry it. */
  public static String headlineName(Side.Run r) {
    return headlineMetric(r).name();
  }

  /** A run's headline sample (see {@link #headlineMetric}). */
  public static Statistics.Sample headline(Side.Run r) {
    return headlineMetric(r).sample().of(r.phase(), "ALL", r.noise());
  }
}
