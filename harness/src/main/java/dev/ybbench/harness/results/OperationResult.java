package dev.ybbench.harness.results;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Map;

/**
 * One operation or transaction type of a phase: successes, errors by class, retries, throughput
 * (successes only) and the latency of successes.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record OperationResult(long successes, long errors, Map<String, Long> errorsByClass, long retries,
    double throughputOps, Latency latencyUs) {

  /** Attempts that ended, successes and errors alike (retried attempts are not among them). */
  public long attempts() {
    return successes + errors;
  }
}
