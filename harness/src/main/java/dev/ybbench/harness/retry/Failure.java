package dev.ybbench.harness.retry;

import dev.ybbench.harness.metrics.OperationMetrics;

/**
 * What one failed attempt means.
 *
 * @param errorClass  what it is counted under in the results: "sqlstate-40001", "connection",
 *                    "timeout", "no-node", …
 * @param retryable   the same request may succeed if sent again
 * @param unreachable the attempt did not reach the server: refused, lost, or no node to send to
 * @param conflict    the attempt lost a race with another transaction (a serialization failure, a
 *                    deadlock, YugabyteDB's conflicts and read restarts): what the database does under
 *                    contention, not a fault. An operation that ends on one is an <em>abort</em>,
 *                    counted apart from errors (as BenchBase counts aborted transactions)
 */
public record Failure(String errorClass, boolean retryable, boolean unreachable, boolean conflict) {
  /** The name an operation that ended on this failure is counted under: its class, as an abort or an error. */
  public String outcomeName() {
    return conflict ? OperationMetrics.ABORT_PREFIX + errorClass : errorClass;
  }
}
