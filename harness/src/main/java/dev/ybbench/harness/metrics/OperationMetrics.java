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
  private final ThreadLocal<SingleWriterRecorder> latency = ThreadLocal.withInitial(() -> newRecorder(recorders));
  /** Latency from the actual start, kept beside the intended-start one when operations run to a schedule. */
  private final List<SingleWriterRecorder> actualRecorders = new CopyOnWriteArrayList<>();
  private final ThreadLocal<SingleWriterRecorder> actualLatency =
      ThreadLocal.withInitial(() -> newRecorder(actualRecorders));
  private final LongAdder successes = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private final LongAdder unknownOutcomes = new LongAdder();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();

  OperationMetrics(String name) {
    this.name = name;
  }

  public String name() {
    return name;
  }

  private static SingleWriterRecorder newRecorder(List<SingleWriterRecorder> into) {
    SingleWriterRecorder r = new SingleWriterRecorder(MAX_MICROS, 3);
    into.add(r);
    return r;
  }

  /** A success that started when it was issued (no schedule): one latency. */
  public void success(long micros) {
    latency.get().recordValue(clamp(micros));
    successes.increment();
  }

  /**
   * A success of an operation run to a schedule (a target rate): its latency from the intended
   * start, which counts the time it waited behind a stalled server (coordinated omission), and
   * from its actual start, kept as a second series.
   */
  public void success(long intendedMicros, long actualMicros) {
    latency.get().recordValue(clamp(intendedMicros));
    actualLatency.get().recordValue(clamp(actualMicros));
    successes.increment();
  }

  private static long clamp(long micros) {
    return Math.min(Math.max(micros, 0), MAX_MICROS);
  }

  public void error(String errorClass, long count) {
    errors.computeIfAbsent(errorClass, k -> new LongAdder()).add(count);
  }

  public void retry() {
    retries.increment();
  }

  /** An operation whose end the client never learned (a COMMIT whose reply was lost): neither success nor error. */
  public void unknownOutcome() {
    unknownOutcomes.increment();
  }

  public long unknownOutcomes() {
    return unknownOutcomes.sum();
  }

  /** Everything recorded since the previous call, over all threads (latency from the intended start, if any). */
  Histogram intervalHistogram() {
    return interval(recorders);
  }

  /** The actual-start series since the previous call, or null when no operation ran to a schedule. */
  Histogram actualIntervalHistogram() {
    return actualRecorders.isEmpty() ? null : interval(actualRecorders);
  }

  private static Histogram interval(List<SingleWriterRecorder> from) {
    Histogram sum = new Histogram(MAX_MICROS, 3);
    long start = Long.MAX_VALUE;
    long end = 0;
    for (SingleWriterRecorder r : from) {
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
