package dev.ybbench.harness.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * One operation type's counters: latency of successes (µs) in HdrHistogram recorders, which
 * worker threads write without locks while the reporter takes interval histograms; errors by
 * class; aborts (conflicts that outlasted their retries) by class; retries. Failed attempts never
 * enter the success histogram. The recorders are pooled by cores, not threads ({@link
 * RecorderPool}): memory does not grow with the threads.
 */
public final class OperationMetrics {
  /**
   * Marks an abort's class where only a name travels (a YCSB Status): "abort/sqlstate-40001" is
   * counted by {@link #failed} as an abort of class "sqlstate-40001".
   */
  public static final String ABORT_PREFIX = "abort/";

  private final String name;
  private final RecorderPool latency = new RecorderPool();
  /** Latency from the actual start, kept beside the intended-start one when operations run to a schedule. */
  private final RecorderPool actualLatency = new RecorderPool();
  private final LongAdder successes = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private final LongAdder unknownOutcomes = new LongAdder();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> aborts = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> retriesByClass = new ConcurrentHashMap<>();

  OperationMetrics(String name) {
    this.name = name;
  }

  public String name() {
    return name;
  }

  /** A success that started when it was issued (no schedule): one latency. */
  public void success(long micros) {
    latency.record(RecorderPool.home(), micros);
    successes.increment();
  }

  /**
   * A success of an operation run to a schedule (a target rate): its latency from the intended
   * start, which counts the time it waited behind a stalled server (coordinated omission), and
   * from its actual start, kept as a second series.
   */
  public void success(long intendedMicros, long actualMicros) {
    int home = RecorderPool.home();
    latency.record(home, intendedMicros);
    actualLatency.record(home, actualMicros);
    successes.increment();
  }

  public void error(String errorClass, long count) {
    errors.computeIfAbsent(errorClass, k -> new LongAdder()).add(count);
  }

  /**
   * An operation that ended on a conflict after its retries (a lost race with another
   * transaction, not a fault): neither a success nor an error.
   */
  public void abort(String errorClass, long count) {
    aborts.computeIfAbsent(errorClass, k -> new LongAdder()).add(count);
  }

  /**
   * An operation that ended in a failure named {@code outcome}: an abort when the name carries
   * {@link #ABORT_PREFIX}, else an error of that class.
   */
  public void failed(String outcome, long count) {
    if (outcome.startsWith(ABORT_PREFIX)) {
      abort(outcome.substring(ABORT_PREFIX.length()), count);
    } else {
      error(outcome, count);
    }
  }

  public void retry(String errorClass) {
    retries.increment();
    retriesByClass.computeIfAbsent(errorClass, k -> new LongAdder()).increment();
  }

  /** An operation whose end the client never learned (a COMMIT whose reply was lost): neither success nor error. */
  public void unknownOutcome() {
    unknownOutcomes.increment();
  }

  public long unknownOutcomes() {
    return unknownOutcomes.sum();
  }

  /**
   * Everything recorded since the previous call, over all threads, into {@code into} (latency
   * from the intended start, if any). The reporter's thread only.
   */
  void intervalHistogram(Histogram into) {
    latency.interval(into);
  }

  /**
   * The actual-start series since the previous call into {@code into}; false (and {@code into}
   * untouched) when no operation ran to a schedule.
   */
  boolean actualIntervalHistogram(Histogram into) {
    if (!actualLatency.used()) {
      return false;
    }
    actualLatency.interval(into);
    return true;
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

  public long abortCount() {
    return aborts.values().stream().mapToLong(LongAdder::sum).sum();
  }

  /** Aborts by class, sorted by class name. */
  public Map<String, Long> aborts() {
    Map<String, Long> m = new TreeMap<>();
    aborts.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }

  /** Errors by class, sorted by class name. */
  public Map<String, Long> errors() {
    Map<String, Long> m = new TreeMap<>();
    errors.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }

  /** The retries by the class of the error retried. */
  public Map<String, Long> retriesByClass() {
    Map<String, Long> m = new TreeMap<>();
    retriesByClass.forEach((k, v) -> m.put(k, v.sum()));
    return m;
  }
}
