package dev.ybbench.harness.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Map;

/**
 * One operation or transaction type of a phase: successes, errors by class, retries, throughput
 * (successes only) and the latency of successes — from the intended start when the operations
 * ran to a target rate (the phase's {@code latency_from} says which), with the latency from the
 * actual start beside it then ({@code latency_actual_us}; absent otherwise). {@code
 * unknown_outcomes} (absent when none) counts operations whose end the client never learned: a
 * COMMIT sent whose reply was lost with the connection, which may or may not have committed.
 * {@code retries_by_class} (absent when none) splits the retries by the class of the error that
 * was retried, as errors are split ({@code sqlstate-40001} …). {@code aborts} (split in {@code
 * aborts_by_class}, absent when none) counts operations that lost a race with another transaction
 * on every attempt (SQLSTATE 40001 or 40P01, YugabyteDB's conflicts and read restarts): what the
 * database does under contention, counted apart from errors as BenchBase counts aborted
 * transactions; neither they nor errors are in the throughput.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"successes", "errors", "errors_by_class", "aborts", "aborts_by_class", "retries"})
public record OperationResult(long successes, long errors, Map<String, Long> errorsByClass, long retries,
    double throughputOps, LatencyPercentiles latencyUs, LatencyPercentiles latencyActualUs, Long unknownOutcomes,
    Map<String, Long> retriesByClass, long aborts, Map<String, Long> abortsByClass) {

  /** Without aborts (results written before they were kept apart, imports that do not know them). */
  public OperationResult(long successes, long errors, Map<String, Long> errorsByClass, long retries,
      double throughputOps, LatencyPercentiles latencyUs, LatencyPercentiles latencyActualUs, Long unknownOutcomes,
      Map<String, Long> retriesByClass) {
    this(successes, errors, errorsByClass, retries, throughputOps, latencyUs, latencyActualUs, unknownOutcomes,
        retriesByClass, 0, null);
  }

  /** Without retries by class (results written before they were kept, imports that do not know them). */
  public OperationResult(long successes, long errors, Map<String, Long> errorsByClass, long retries,
      double throughputOps, LatencyPercentiles latencyUs, LatencyPercentiles latencyActualUs, Long unknownOutcomes) {
    this(successes, errors, errorsByClass, retries, throughputOps, latencyUs, latencyActualUs, unknownOutcomes, null);
  }

  /** An operation whose latency is from its actual start only, and whose every outcome is known. */
  public OperationResult(long successes, long errors, Map<String, Long> errorsByClass, long retries,
      double throughputOps, LatencyPercentiles latencyUs) {
    this(successes, errors, errorsByClass, retries, throughputOps, latencyUs, null, null);
  }

  /** Operations that ended, successes, errors and aborts alike (retried attempts are not among them). */
  public long attempts() {
    return successes + errors + aborts;
  }

  /** The same figures with the aborts by class. */
  public OperationResult withAborts(Map<String, Long> byClass) {
    long n = byClass.values().stream().mapToLong(Long::longValue).sum();
    return new OperationResult(successes, errors, errorsByClass, retries, throughputOps, latencyUs, latencyActualUs,
        unknownOutcomes, retriesByClass, n, byClass.isEmpty() ? null : byClass);
  }
}
