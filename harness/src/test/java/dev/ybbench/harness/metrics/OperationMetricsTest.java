package dev.ybbench.harness.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ybbench.harness.retry.Failure;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperationMetricsTest {
  @Test
  void aFailureNamedAsAnAbortIsCountedApartFromErrors() {
    Metrics m = new Metrics();
    OperationMetrics update = m.operation("UPDATE");
    update.failed(new Failure("sqlstate-40001", true, false, true).outcomeName(), 3);
    update.failed(new Failure("connection", false, true, false).outcomeName(), 2);
    m.lost("UPDATE", "abort/sqlstate-40P01", 1); // a binding's batch that ended on a deadlock
    update.success(100);
    assertEquals(Map.of("sqlstate-40001", 3L, "sqlstate-40P01", 1L), update.aborts());
    assertEquals(Map.of("connection", 2L), update.errors());
    assertEquals(4, m.aborts());
    assertEquals(2, m.errors());
    assertEquals(1, m.successes());
  }
}
