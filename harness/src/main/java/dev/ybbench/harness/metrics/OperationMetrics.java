package dev.ybbench.harness.metrics;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One operation type's counters: latency of successes (µs) in HdrHistogram recorders, which
 * worker threads write without locks while the reporter takes interval histograms; errors by
 * class; retries. Failed attempts never enter the success histogram.
 *
 * <p>Each thread writes its own {@link SingleWriterRecorder}: with one shared Recorder, the
 * threads' writes contended on its phaser counters (5% of the client's CPU in a point-read
 * profile on 2 cores). The reporter adds the threads' intervals together, which is exact.
 */
public final class OperationMetrics {
  /** Latencies above an hour are clamped; three significant digits, as YCSB's hdrhistogram uses. */
  static final long MAX_MICROS = 3_600_000_000L;

  private final String name;
  private final List<SingleWriterRecorder> recorders = new CopyOnWriteArrayList<>();
  private final ThreadLocal<SingleWriterRecorder> latency = ThreadLocal.withInitial(() -> {
    SingleWriterRecorder r = new SingleWriterRecorder(MAX_MICROS, 3);
    recorders.add(r);
    return r;
  });
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
    latency.get().recordValue(Math.min(Math.max(micros, 0), MAX_MICROS));
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

  /** Everything recorded since the previous call, over all threads. */
  Histogram intervalHistogram() {
    Histogram sum = new Histogram(MAX_MICROS, 3);
    long start = Long.MAX_VALUE;
    long end = 0;
    for (SingleWriterRecorder r : recorders) {
      Histogram h = r.getIntervalHistogram();
      sum.add(h);
      start = Math.min(start, h.getStartTimeStamp());
      end = Math.max(end, h.getEndTimeStamp());
    }
    long now = System.currentTimeMillis();
    sum.setStartTimeStamp(start == Long.MAX_VALUE ? now : start);
    sum.setEndTimeStamp(end == 0 ? now : end);
    return sum;
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
