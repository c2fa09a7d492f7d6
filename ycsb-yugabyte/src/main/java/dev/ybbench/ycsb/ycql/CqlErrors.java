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
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import dev.ybbench.harness.YugabyteErrors;
import dev.ybbench.harness.retry.Failure;
import java.util.Locale;

/**
 * What a CQL error is called in the results, and whether to send the request again. YCSB's
 * writes are idempotent upserts, so any error that leaves the outcome merely unknown (a
 * timeout, a lost connection, a node going down) is safe to retry; errors in the request
 * itself are not.
 */
final class CqlErrors {
  private CqlErrors() {}

  /** What a failed attempt means to the retry policy. */
  static Failure classify(RuntimeException e) {
    String errorClass = errorClass(e);
    return new Failure(errorClass, isRetryable(errorClass, e), isUnreachable(e), isConflict(e));
  }

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

  private static boolean isRetryable(String errorClass, Throwable e) {
    return switch (errorClass) {
      case "timeout", "unavailable", "overloaded", "no-node", "connection" -> true;
      default -> YugabyteErrors.isRetryable(e);
    };
  }

  /**
   * A lost race: YugabyteDB's transaction conflicts (given as text only), or a lightweight
   * transaction's Paxos round that timed out contending for the same partition.
   */
  private static boolean isConflict(Throwable e) {
    return YugabyteErrors.isRetryable(e)
        || e instanceof WriteTimeoutException w && w.getWriteType() == DefaultWriteType.CAS;
  }

  /**
   * No node to send to, or the connection to it closed or stopped answering heartbeats. A busy
   * connection is not: that is this client's own in-flight limit, not the server.
   */
  private static boolean isUnreachable(Throwable e) {
    return e instanceof AllNodesFailedException || e instanceof ClosedConnectionException
        || e instanceof HeartbeatException;
  }

  private static boolean isTimeoutText(String message) {
    return message != null && message.toLowerCase(Locale.ROOT).contains("timed out");
  }
}
