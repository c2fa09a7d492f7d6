package dev.ybbench.harness.ysql;

import dev.ybbench.harness.retry.RetryPolicy;
import dev.ybbench.harness.sql.SqlErrors;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * One client thread's connection, as the YCSB binding and the TPC-C workers both use it: an
 * attempt runs on it, opening it first if an earlier attempt lost it. An attempt that fails rolls
 * back what it began; one that lost the connection closes it (and {@code onClose} forgets what was
 * prepared on it), so the next attempt, after the retry policy's pause, connects afresh. Not
 * retried within the attempt: whether a lost transaction committed is unknown.
 */
public final class Session {
  /** Opens a connection (the caller's settings: autocommit, isolation). */
  public interface Opener {
    Connection open() throws SQLException;
  }

  private final Opener opener;
  private final Runnable onOpen;
  private final Runnable onClose;
  private Connection connection;

  /**
   * @param onOpen  after a connection is opened (e.g. to prepare statements on it)
   * @param onClose before it is closed (e.g. to forget statements prepared on it)
   */
  public Session(Opener opener, Runnable onOpen, Runnable onClose) {
    this.opener = opener;
    this.onOpen = onOpen;
    this.onClose = onClose;
  }

  /** The connection, opening it if there is none. */
  public Connection connection() throws SQLException {
    if (connection == null) {
      connection = opener.open();
      onOpen.run();
    }
    return connection;
  }

  /** The connection if open, else null (no attempt to open it). */
  public Connection current() {
    return connection;
  }

  /** One attempt of {@code body} on the connection. */
  public <T> T attempt(RetryPolicy.Attempt<T, SQLException> body) throws SQLException {
    try {
      connection();
      return body.run();
    } catch (SQLException e) {
      rollbackQuietly();
      if (SqlErrors.isConnectionLost(e)) {
        close();
      }
      throw e;
    }
  }

  /** Rolls back an open transaction, if the connection still stands and is in one. */
  public void rollbackQuietly() {
    try {
      if (connection != null && !connection.isClosed() && !connection.getAutoCommit()) {
        connection.rollback();
      }
    } catch (SQLException ignored) {
      // the connection is being dropped anyway
    }
  }

  /** Closes the connection, if open; the next attempt opens another. */
  public void close() {
    if (connection == null) {
      return;
    }
    onClose.run();
    try {
      connection.close();
    } catch (SQLException ignored) {
      // closing a broken connection
    }
    connection = null;
  }
}
