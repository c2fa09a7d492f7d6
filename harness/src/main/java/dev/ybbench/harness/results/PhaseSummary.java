package dev.ybbench.harness.results;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationMetrics;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A phase's part of summary.json: per operation type successes, errors by class, retries,
 * throughput (successes only, over the phase's wall time) and latency percentiles taken from
 * the HdrHistogram totals, never from averages.
 */
public final class PhaseSummary {
  private PhaseSummary() {}

  public static Map<String, Object> of(Metrics metrics, Map<String, Histogram> latency, double seconds) {
    Map<String, Object> ops = new LinkedHashMap<>();
    long successes = 0;
    long errors = 0;
    long retries = 0;
    for (OperationMetrics op : metrics.operations()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("successes", op.successes());
      o.put("errors", op.errorCount());
      o.put("errors_by_class", op.errors());
      o.put("retries", op.retries());
      o.put("throughput_ops", round(op.successes() / seconds));
      o.put("latency_us", percentiles(latency.get(op.name())));
      ops.put(op.name(), o);
      successes += op.successes();
      errors += op.errorCount();
      retries += op.retries();
    }
    Map<String, Object> phase = new LinkedHashMap<>();
    phase.put("duration_s", round(seconds));
    phase.put("successes", successes);
    phase.put("errors", errors);
    phase.put("retries", retries);
    phase.put("throughput_ops", round(successes / seconds));
    phase.put("operations", ops);
    return phase;
  }

  /** count, min, p50 … p99.9, max and mean of a latency histogram (µs). */
  public static Map<String, Object> percentiles(Histogram h) {
    Map<String, Object> p = new LinkedHashMap<>();
    if (h == null || h.getTotalCount() == 0) {
      p.put("count", 0);
      return p;
    }
    p.put("count", h.getTotalCount());
    p.put("min", h.getMinValue());
    p.put("p50", h.getValueAtPercentile(50));
    p.put("p90", h.getValueAtPercentile(90));
    p.put("p95", h.getValueAtPercentile(95));
    p.put("p99", h.getValueAtPercentile(99));
    p.put("p99_9", h.getValueAtPercentile(99.9));
    p.put("max", h.getMaxValue());
    p.put("mean", round(h.getMean()));
    return p;
  }

  static double round(double v) {
    return Math.round(v * 10.0) / 10.0;
  }
}
