package dev.ybbench.harness.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.HdrHistogram.Histogram;

/**
 * Latency percentiles of an operation's successes in microseconds, always taken from an
 * HdrHistogram, never from averages. Only {@code count} is present when nothing succeeded.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LatencyPercentiles(long count, Long min, Long p50, Long p90, Long p95, Long p99, Long p99_9, Long max,
    Double mean) {

  public static LatencyPercentiles of(Histogram h) {
    if (h == null || h.getTotalCount() == 0) {
      return new LatencyPercentiles(0, null, null, null, null, null, null, null, null);
    }
    return new LatencyPercentiles(h.getTotalCount(), h.getMinValue(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
        h.getValueAtPercentile(95), h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue(),
        PhaseResult.round(h.getMean()));
  }
}
