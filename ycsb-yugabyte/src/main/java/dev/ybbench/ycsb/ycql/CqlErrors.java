package dev.ybbench.ycsb.ycql;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.BootstrappingException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import dev.ybbench.harness.YugabyteErrors;
import java.util.Locale;

/**
 * What a CQL error is called in the results, and whether to send the request again. YCSB's
 * writes are idempotent upserts, so any error that leaves the outcome merely unknown (a
 * timeout, a lost connection, a node going down) is safe to retry; errors in the request
 * itself are not.
 */
final class CqlErrors {
  private CqlErrors() {}

  static String errorClass(Throwable e) {
    if (e instanceof DriverTimeoutException || e instanceof ReadTimeoutException
        || e instanceof WriteTimeoutException) {
      return "timeout";
    }
    if (e instanceof UnavailableException) {
      return "unavailable";
    }
    if (e instanceof OverloadedException || e instanceof BootstrappingException) {
      return "overloaded";
    }
    if (e instanceof AllNodesFailedException) {
      return "no-node";
    }
    if (e instanceof ClosedConnectionException || e instanceof HeartbeatException
        || e instanceof BusyConnectionException) {
      return "connection";
    }
    if (e instanceof ServerError) {
      return "server-error";
    }
    if (e instanceof InvalidQueryException) {
      // YugabyteDB reports some internal timeouts as invalid queries ("RPC to … timed out after").
      return isTimeoutText(e.getMessage()) ? "timeout" : "invalid-query";
    }
    return "error";
  }

  static boolean isRetryable(Throwable e) {
    return switch (errorClass(e)) {
      case "timeout", "unavailable", "overloaded", "no-node", "connection" -> true;
      default -> YugabyteErrors.isRetryable(e);
    };
  }

  private static boolean isTimeoutText(String message) {
    return message != null && message.toLowerCase(Locale.ROOT).contains("timed out");
  }
}
