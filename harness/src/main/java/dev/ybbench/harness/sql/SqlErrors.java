package dev.ybbench.harness.sql;

import dev.ybbench.harness.YugabyteErrors;
import dev.ybbench.harness.retry.Failure;
import java.sql.SQLException;
import java.util.List;

/**
 * Which SQL errors are worth another attempt, and what to call an error in the results.
 *
 * <p>YugabyteDB reports transaction conflicts and read restarts as SQLSTATE 40001
 * (serialization_failure) and deadlocks as 40P01, like PostgreSQL; older releases and some
 * paths carry only the storage layer's text (see {@link YugabyteErrors}). Both are checked.
 */
public final class SqlErrors {
  private static final List<String> RETRYABLE_STATES = List.of("40001", "40P01");

  private SqlErrors() {}

  /** What a failed attempt means to the retry policy. */
  public static Failure classify(SQLException e) {
    boolean retryable = isRetryable(e);
    // Every retryable SQL error is a lost race: 40001, 40P01 or YugabyteDB's conflict texts.
    return new Failure(errorClass(e), retryable, isConnectionLost(e), retryable);
  }

  /** True for a conflict or restart that a new attempt of the same operation can get past. */
  public static boolean isRetryable(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException s && s.getSQLState() != null && RETRYABLE_STATES.contains(s.getSQLState())) {
        return true;
      }
    }
    return YugabyteErrors.isRetryable(e);
  }

  /**
   * True when the connection is gone or cannot be opened (SQLSTATE class 08, connection refused
   * included; the server shutting down, crashed, or still starting up) and must be opened again.
   */
  public static boolean isConnectionLost(SQLException e) {
    String state = e.getSQLState();
    return state != null && (state.startsWith("08") || state.equals("57P01") || state.equals("57P02")
        || state.equals("57P03"));
  }

  /** The class an error is counted under in summary.json: "sqlstate-40001", "connection", … */
  public static String errorClass(SQLException e) {
    if (isConnectionLost(e)) {
      return "connection";
    }
    String state = e.getSQLState();
    return state == null ? "sql-error" : "sqlstate-" + state;
  }
}
