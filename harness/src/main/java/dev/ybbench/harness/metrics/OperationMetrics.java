package dev.ybbench.harness.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * One operation type's counters: latency of successes (µs) in an HdrHistogram Recorder, which
 * worker threads write without locks while the reporter takes interval histograms; errors by
 * class; retries. Failed attempts never enter the success histogram.
 */
public final class OperationMetrics {
  /** Latencies above an hour are clamped; three significant digits, as YCSB's hdrhistogram uses. */
  static final long MAX_MICROS = 3_600_000_000L;

  private final String name;
  private final Recorder latency = new Recorder(MAX_MICROS, 3);
  private final LongAdder successes = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();

  OperationMetrics(String name) {
    this.name = name;
  }

  public String name() {
    return name;
  }

  public void success(long micros) {
    latency.recordValue(Math.min(Math.max(micros, 0), MAX_MICROS));
    successes.increment();
  }

  public void error(String errorClass, long count) {
    errors.computeIfAbsent(errorClass, k -> new LongAdder()).add(count);
  }

  /** Takes back successes that turned out not to be (batched writes whose flush failed). */
  void unsucceed(long count) {
    successes.add(-count);
  }

  public void retry() {
    retries.increment();
  }

  Recorder recorder() {
    return latency;
  }

  public long successes() {
    return successes.sum();
  }

  public long retries() {
    return retries.sum();
  }

  public long errorCount() {
    return errors.values().stream().mapToLong(LongAdder::sum).sum();
  }

  /** Errors by class, sorted by class name. */
  public Map<String, Long> errors() {
    Map<String, Long> m = new TreeMap<>();
    errors.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }
}
