package dev.ybbench.harness.ysql;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.UserError;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A run's claim on its benchmark table, so that no run drops a table another run is using: a
 * session-level advisory lock on a connection of its own, held until {@link #close()}.
 * {@link Mode#EXCLUSIVE} to drop and create the table, {@link Mode#SHARED} to use it; any number
 * of runs share a table, none drops it under them. A run that creates the table takes it
 * exclusive and then {@link #downgrade()}s on the same session, so there is no moment in which
 * another run could take it over.
 *
 * <p>The lock key is {@link #key(String, String)}: the first 8 bytes of the SHA-256 of
 * {@code "ybbench:<database>.<table>"}, computed here so that it is the same on every server
 * release (PostgreSQL's {@code hashtext} is internal and may change). PostgreSQL scopes advisory
 * locks to the database already; the database in the key makes that explicit for YugabyteDB.
 *
 * <p>YugabyteDB releases before advisory locks answer SQLSTATE 0A000 (feature_not_supported);
 * the claim then says once that concurrent runs are not protected, and protects nothing. Releases
 * started with {@code yb_silence_advisory_locks_not_supported_error} answer as if locked without
 * locking; that cannot be told from here.
 */
public final class TableClaim implements AutoCloseable {
  /** How a run holds its table. */
  public enum Mode {
    /** Using the table: other runs may use it too, none may drop it. */
    SHARED,
    /** Dropping and creating the table: no other run may hold it at all. */
    EXCLUSIVE
  }

  private static final String FEATURE_NOT_SUPPORTED = "0A000";

  private final Connection session;
  private final long key;
  private final String subject;
  private Mode mode;

  private TableClaim(Connection session, long key, String subject, Mode mode) {
    this.session = session;
    this.key = key;
    this.subject = subject;
    this.mode = mode;
  }

  /**
   * Claims {@code table} in the endpoint's database, or refuses at once with a one-line
   * {@link UserError} when another run holds it in a conflicting mode.
   *
   * @throws SQLException when the endpoint cannot be connected to (SQLSTATE 3D000: no such database)
   */
  public static TableClaim take(YsqlEndpoint endpoint, String table, Mode mode, Consumer<String> log)
      throws SQLException {
    return take(endpoint.connect(), endpoint.database(), table, mode, log);
  }

  /** {@link #take(YsqlEndpoint, String, Mode, Consumer)} on a session already open; the claim owns it. */
  static TableClaim take(Connection session, String database, String table, Mode mode, Consumer<String> log)
      throws SQLException {
    String subject = "table " + table + " in database " + database;
    long key = key(database, table);
    try {
      if (!lock(session, mode == Mode.EXCLUSIVE ? "pg_try_advisory_lock" : "pg_try_advisory_lock_shared", key)) {
        throw new UserError(subject + " is in use by another run; wait for it to finish or use another --database");
      }
      return new TableClaim(session, key, subject, mode);
    } catch (SQLException e) {
      if (!FEATURE_NOT_SUPPORTED.equals(e.getSQLState())) {
        closeQuietly(session);
        throw e;
      }
      log.accept("warning: the server has no advisory locks (" + ErrorText.firstLine(e)
          + "), so concurrent runs on " + subject + " are not protected from each other");
      closeQuietly(session);
      return new TableClaim(null, key, subject, mode);
    } catch (RuntimeException e) {
      closeQuietly(session);
      throw e;
    }
  }

  /**
   * The lock key of a table in a database: the first 8 bytes, big-endian, of the SHA-256 of
   * {@code "ybbench:" + database + "." + table}, the table name lower-cased as PostgreSQL folds
   * an unquoted name.
   */
  public static long key(String database, String table) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(("ybbench:" + database + "." + table.toLowerCase(Locale.ROOT)).getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  /**
   * Whether another run holds {@code table} exclusively now (creating it): a shared claim tried
   * and let go at once on {@code session}. False on a server without advisory locks.
   */
  public static boolean heldExclusively(Connection session, String database, String table) throws SQLException {
    long key = key(database, table);
    try {
      if (!lock(session, "pg_try_advisory_lock_shared", key)) {
        return true;
      }
      lock(session, "pg_advisory_unlock_shared", key);
      return false;
    } catch (SQLException e) {
      if (FEATURE_NOT_SUPPORTED.equals(e.getSQLState())) {
        return false;
      }
      throw e;
    }
  }

  public Mode mode() {
    return mode;
  }

  /** False when the server has no advisory locks and the claim holds nothing. */
  public boolean protects() {
    return session != null;
  }

  /**
   * From exclusive to shared, for a run that has created the table and now uses it: the shared
   * lock is taken before the exclusive one is let go, on the same session, which never conflicts
   * with itself.
   */
  public synchronized void downgrade() throws SQLException {
    if (mode == Mode.SHARED) {
      return;
    }
    if (session != null) {
      if (!lock(session, "pg_try_advisory_lock_shared", key) || !lock(session, "pg_advisory_unlock", key)) {
        throw new IllegalStateException("the session holding " + subject + " lost its exclusive lock");
      }
    }
    mode = Mode.SHARED;
  }

  /** Lets go of the table; closing the session releases every lock it holds. Idempotent. */
  @Override
  public synchronized void close() {
    closeQuietly(session);
  }

  @Override
  public String toString() {
    return mode.name().toLowerCase(Locale.ROOT) + " claim on " + subject + (protects() ? "" : " (unprotected)");
  }

  private static boolean lock(Connection session, String function, long key) throws SQLException {
    try (PreparedStatement ps = session.prepareStatement("SELECT " + function + "(?)")) {
      ps.setLong(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  private static void closeQuietly(Connection c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (SQLException ignored) {
      // the server releases a dead session's locks itself
    }
  }
}
