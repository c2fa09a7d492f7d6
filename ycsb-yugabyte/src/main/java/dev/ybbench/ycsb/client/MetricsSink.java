package dev.ybbench.ycsb.client;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationEvents;

/**
 * Where a phase's threads record: the warm-up's metrics first, then, from the moment the warm-up
 * ends, the measured window's. Bindings report retries and outages through it too, so both land
 * in the window they happened in.
 */
public final class MetricsSink implements OperationEvents {
  private volatile Metrics current;
  /** A load's checkpoint, told which keys are settled; null in a run phase. */
  private volatile LoadCheckpoint checkpoint;

  public MetricsSink(Metrics first) {
    this.current = first;
  }

  public Metrics current() {
    return current;
  }

  /** A load phase's checkpoint learns from here which keys are written or lost. */
  public void track(LoadCheckpoint c) {
    checkpoint = c;
  }

  /** Everything recorded from now on goes to {@code next}. */
  public void switchTo(Metrics next) {
    current = next;
  }

  @Override
  public void retried(String operation, String errorClass) {
    current.retried(operation, errorClass);
  }

  @Override
  public void lost(String operation, String errorClass, int count) {
    current.lost(operation, errorClass, count);
  }

  @Override
  public void written(String operation, long micros) {
    current.written(operation, micros);
  }

  @Override
  public void batch(String operation, long micros) {
    current.batch(operation, micros);
  }

  @Override
  public void settled(String key, boolean written) {
    LoadCheckpoint c = checkpoint;
    if (c != null) {
      c.settled(key, written);
    }
  }

  @Override
  public void unreachable(String operation, String errorClass) {
    current.unreachable(operation, errorClass);
  }

  @Override
  public void reachable() {
    current.reachable();
  }
}
