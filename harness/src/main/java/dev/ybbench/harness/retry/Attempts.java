package dev.ybbench.harness.retry;

/**
 * The attempts of one operation so far. {@link RetryPolicy#call} keeps one itself; a binding that
 * sends asynchronously keeps one per request and reports each failure to it.
 */
public final class Attempts<E extends Exception> {
  private final RetryPolicy<E> policy;
  final String operation;
  int failed;
  long waitedOnOutageMillis;

  Attempts(RetryPolicy<E> policy, String operation) {
    this.policy = policy;
    this.operation = operation;
  }

  /** The latest attempt failed with {@code error}: reports it and says whether to try again. */
  public Decision failed(E error) {
    return policy.decide(this, error);
  }
}
