package dev.ybbench.harness.metrics;

/**
 * What a binding tells the harness beyond the Status it returns: retries it made inside one
 * operation, and rows it had acknowledged (as batched) but then failed to write. Bindings used
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

  /** One failed attempt that will be tried again; it is not throughput and not an error. */
  void retried(String operation, String errorClass);

  /** {@code count} operations reported as successful (batched) that did not reach the server. */
  void lost(String operation, String errorClass, int count);
}
