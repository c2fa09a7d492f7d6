package dev.ybbench.ycsb.ycql;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import dev.ybbench.harness.UserError;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A run's hold on a YCQL table, so that no other run drops it underneath: CQL has no advisory
 * locks, so each run that uses a table keeps a marker row in {@code <keyspace>.ybbench_runs}
 * alive with a TTL it renews, and a run that would drop and create the table first looks for
 * another run's marker. A killed run's marker expires within {@value #TTL_S} s. Two runs that
 * both start creating the same table in the same instant can still miss each other (the check
 * and the marker are not one step); runs that overlap in time otherwise cannot.
 */
final class CqlTableClaim implements AutoCloseable {
  static final int TTL_S = 30;
  private static final int RENEW_S = 10;
  static final String TABLE = "ybbench_runs";

  private final CqlSession session;
  private final String keyspace;
  private final String table;
  private final String run = UUID.randomUUID().toString();
  private final ScheduledExecutorService renewer;

  private CqlTableClaim(CqlSession session, String keyspace, String table) {
    this.session = session;
    this.keyspace = keyspace;
    this.table = table;
    this.renewer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "ybbench-cql-claim");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Marks {@code table} as used by this run; with {@code recreates}, first refuses if another run
   * uses it. The claim owns {@code session} and closes it.
   */
  static CqlTableClaim take(CqlSession session, String keyspace, String table, boolean recreates) {
    CqlTableClaim claim = new CqlTableClaim(session, keyspace, table);
    try {
      session.execute(YcqlSetup.ddl("CREATE TABLE IF NOT EXISTS " + keyspace + "." + TABLE
          + " (tbl text, run text, PRIMARY KEY (tbl, run))"));
      if (recreates && session.execute(SimpleStatement.newInstance("SELECT run FROM " + keyspace + "." + TABLE
          + " WHERE tbl = ?", table)).one() != null) {
        throw new UserError("table " + table + " in keyspace " + keyspace + " is in use by another run; wait for it "
            + "to finish (or up to " + TTL_S + " s after a killed run) or use another --database");
      }
      claim.mark();
      claim.renewer.scheduleAtFixedRate(claim::renewQuietly, RENEW_S, RENEW_S, TimeUnit.SECONDS);
      return claim;
    } catch (RuntimeException e) {
      claim.close();
      throw e;
    }
  }

  private void mark() {
    session.execute(SimpleStatement.newInstance("INSERT INTO " + keyspace + "." + TABLE + " (tbl, run) VALUES (?, ?) "
        + "USING TTL " + TTL_S, table, run));
  }

  private void renewQuietly() {
    try {
      mark();
    } catch (RuntimeException e) {
      // The server may be away for a moment; the next renewal tries again before the TTL runs out.
    }
  }

  @Override
  public void close() {
    renewer.shutdownNow();
    try {
      session.execute(SimpleStatement.newInstance("DELETE FROM " + keyspace + "." + TABLE
          + " WHERE tbl = ? AND run = ?", table, run));
    } catch (RuntimeException e) {
      // The marker expires on its own.
    } finally {
      session.close();
    }
  }
}
