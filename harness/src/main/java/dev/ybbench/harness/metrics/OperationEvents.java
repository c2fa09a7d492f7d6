package dev.ybbench.harness.metrics;

/**
 * What a binding tells the harness beyond the Status it returns: retries it made inside one
 * operation; operations it took on without a result yet (buffered for a batch, or in flight
 * asynchronously), when they are written or lost, and each batch statement; and when it found the
 * server unreachable and reachable again. Bindings used
 * outside the harness get {@link #NONE}.
 */
public interface OperationEvents {
  /** A binding that reports such events; the harness hands it its sink before init(). */
  interface Source {
    void setEvents(OperationEvents events);
  }

  OperationEvents NONE = new OperationEvents() {
    @Override
    public void retried(String operation, String errorClass) {}

    @Override
    public void lost(String operation, String errorClass, int count) {}
  };

  /**
   * An attempt found the server unreachable (connection refused or lost): an outage begins, if
   * none is open. Called on every such failure; the binding backs off between them.
   */
  default void unreachable(String operation, String errorClass) {}

  /**
   * An attempt succeeded, on any thread: an open outage ends. Called on every success, so it must
   * cost next to nothing while the server is up.
   */
  default void reachable() {}

  /** One failed attempt that will be tried again; it is not throughput and not an error. */
  void retried(String operation, String errorClass);

  /**
   * {@code count} operations the binding took on (buffered for a batch, or sent asynchronously)
   * that did not reach the server: errors, or aborts when {@code errorClass} carries {@link
   * OperationMetrics#ABORT_PREFIX}.
   */
  void lost(String operation, String errorClass, int count);

  /**
   * An operation the binding took on reached the server {@code micros} after the workload handed
   * it over (its wait in a batch, or its asynchronous round trip, included): a success now.
   */
  default void written(String operation, long micros) {}

  /** One statement wrote a batch of buffered operations in {@code micros}, its retries included. */
  default void batch(String operation, long micros) {}

  /**
   * The insert of {@code key} that the binding took on (buffered or in flight) is settled: it
   * reached the server ({@code written}) or was lost. Reported beside {@link #written} and
   * {@link #lost}, which count; this names the key, so a load's checkpoint knows which are in.
   */
  default void settled(String key, boolean written) {}
}
