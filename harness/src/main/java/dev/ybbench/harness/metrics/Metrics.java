package dev.ybbench.harness.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;

/** All operation types of one phase, created on first use. */
public final class Metrics implements OperationEvents {
  private final Map<String, OperationMetrics> operations = new ConcurrentSkipListMap<>();
  /** Batch statements per operation: their own latency, not operations of the workload (not in the totals). */
  private final Map<String, OperationMetrics> batches = new ConcurrentSkipListMap<>();
  private final Outages outages = new Outages();
  /**
   * Operations begun here less those that ended here. An operation begun in a warm-up may end in
   * the window: a phase's own figure can be off by the threads, the sum over a run's phases is exact.
   */
  private final LongAdder inFlight = new LongAdder();

  public OperationMetrics operation(String name) {
    return operations.computeIfAbsent(name, OperationMetrics::new);
  }

  /** The operation types seen so far, in name order. */
  public List<OperationMetrics> operations() {
    return new ArrayList<>(operations.values());
  }

  /** The batch statements per operation type, in name order (empty unless a binding batches). */
  public List<OperationMetrics> batches() {
    return new ArrayList<>(batches.values());
  }

  @Override
  public void retried(String operation, String errorClass) {
    operation(operation).retry(errorClass);
  }

  @Override
  public void lost(String operation, String errorClass, int count) {
    operation(operation).failed(errorClass, count);
  }

  @Override
  public void written(String operation, long micros) {
    operation(operation).success(micros);
  }

  @Override
  public void batch(String operation, long micros) {
    batches.computeIfAbsent(operation, OperationMetrics::new).success(micros);
  }

  @Override
  public void unreachable(String operation, String errorClass) {
    outages.unreachable(System.nanoTime());
  }

  @Override
  public void reachable() {
    outages.reachable();
  }

  /** A client thread starts an operation (for the in-flight figure of a live view). */
  public void begin() {
    inFlight.increment();
  }

  /** A client thread's operation ended, however it ended. */
  public void end() {
    inFlight.decrement();
  }

  /** Operations begun less ended in this phase (see {@link #inFlight}'s note). */
  public long inFlight() {
    return inFlight.sum();
  }

  /** When this phase's threads found the server unreachable. */
  public Outages outages() {
    return outages;
  }

  public long successes() {
    return operations.values().stream().mapToLong(OperationMetrics::successes).sum();
  }

  public long errors() {
    return operations.values().stream().mapToLong(OperationMetrics::errorCount).sum();
  }

  public long aborts() {
    return operations.values().stream().mapToLong(OperationMetrics::abortCount).sum();
  }

  public long retries() {
    return operations.values().stream().mapToLong(OperationMetrics::retries).sum();
  }
}
