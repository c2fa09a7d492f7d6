package dev.ybbench.ycsb.ycql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import dev.ybbench.harness.retry.Failure;
import org.junit.jupiter.api.Test;

class CqlErrorsTest {
  @Test
  void noNodeOrALostConnectionIsAnUnreachableServerAndRetried() {
    assertEquals(new Failure("no-node", true, true, false), CqlErrors.classify(new NoNodeAvailableException()));
    assertEquals(new Failure("connection", true, true, false),
        CqlErrors.classify(new ClosedConnectionException("Lost connection to remote peer")));
  }

  @Test
  void timeoutsAndABusyConnectionAreRetriedButTheServerWasThere() {
    assertEquals(new Failure("timeout", true, false, false),
        CqlErrors.classify(new DriverTimeoutException("Query timed out after PT10S")));
    assertEquals(new Failure("connection", true, false, false), CqlErrors.classify(new BusyConnectionException(2048)));
    assertEquals(new Failure("timeout", true, false, false),
        CqlErrors.classify(new InvalidQueryException(null, "RPC to 127.0.0.2:9100 timed out after 9.998s")));
  }

  @Test
  void yugabyteTryAgainIsRetriedAsAConflictAndOtherInvalidQueriesAreNot() {
    assertEquals(new Failure("invalid-query", true, false, true), CqlErrors.classify(
        new InvalidQueryException(null, "Execution Error. Try again: Conflicts with higher priority transaction")));
    assertEquals(new Failure("invalid-query", false, false, false),
        CqlErrors.classify(new InvalidQueryException(null, "Undefined Column. Column doesn't exist")));
  }
}
