package dev.ybbench.harness.server;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * PostgreSQL's view of the benchmark's database: pg_stat_database's transaction and tuple
 * counters, and pg_stat_statements' calls and rows per statement when the extension can be had
 * (the embedded server preloads it; it is created in the database on first use).
 *
 * <p>Backends report their counters to pg_stat_database when they end (or at most every second),
 * so a snapshot after a phase first waits, a few seconds at most, for the phase's sessions to go.
 */
public final class PostgresView implements ServerView {
  private static final String COUNTERS = "SELECT xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, "
      + "tup_updated, tup_deleted FROM pg_stat_database WHERE datname = current_database()";
  private static final String STATEMENTS = "SELECT query, sum(calls), sum(rows), sum(total_exec_time), "
      + "sum(shared_blks_hit), sum(shared_blks_read) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
      + "GROUP BY query";
  /** Sessions of the phase still open; a run's table claim (an advisory lock it holds all run long) is not one. */
  private static final String OTHER_SESSIONS = "SELECT count(*) FROM pg_stat_activity "
      + "WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' "
      + "AND pid NOT IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory')";

  private final YsqlEndpoint endpoint;
  private final Long serverPid;
  private final Consumer<String> log;
  private Boolean statements;

  /**
   * @param serverPid the postmaster's pid when the server runs on this machine (its CPU is read
   *                  from /proc), else null
   */
  public PostgresView(YsqlEndpoint endpoint, Long serverPid, Consumer<String> log) {
    this.endpoint = endpoint;
    this.serverPid = serverPid;
    this.log = log;
  }

  @Override
  public List<Plans.StatementPlan> plans(Map<String, ServerView.StatementCount> phaseStatements) {
    return Plans.explain(endpoint, phaseStatements.keySet(), log);
  }

  @Override
  public String source() {
    return "pg_stat_database" + (Boolean.TRUE.equals(statements) ? " + pg_stat_statements" : "")
        + (serverPid != null ? " + /proc" : "");
  }

  @Override
  public Snapshot snapshot(boolean phaseEnded) {
    try (Connection c = endpoint.connect(true); Statement st = c.createStatement()) {
      if (phaseEnded) {
        awaitOtherSessions(st);
      }
      Map<String, Long> counters = new LinkedHashMap<>();
      try (ResultSet rs = st.executeQuery(COUNTERS)) {
        if (rs.next()) {
          for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
            counters.put(rs.getMetaData().getColumnName(i), rs.getLong(i));
          }
        }
      }
      Map<String, ServerView.StatementCount> statements = statements(st);
      Long cpu = serverPid == null ? null : ProcessCpu.nanos(serverPid);
      return new Snapshot(counters, statements, cpu,
          statements.isEmpty() ? Map.of() : Map.of(endpoint.hosts().toString(), node(statements, cpu)));
    } catch (SQLException e) {
      log.accept("note: the server's counters could not be read (" + ErrorText.firstLine(e) + ")");
      return null;
    }
  }

  /**
   * IF NOT EXISTS does not hold between two sessions: the clients of a fleet starting on a fresh
   * database race, and the loser gets a unique violation on pg_extension; the extension is there then.
   */
  private static void createExtension(Statement st) throws SQLException {
    try {
      st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    } catch (SQLException e) {
      if (!"23505".equals(e.getSQLState())) {
        throw e;
      }
      st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    }
  }

  private Map<String, ServerView.StatementCount> statements(Statement st) {
    if (statements == null) {
      try {
        createExtension(st);
        st.executeQuery("SELECT 1 FROM pg_stat_statements LIMIT 1").close();
        statements = true;
      } catch (SQLException e) {
        statements = false;
        log.accept("note: pg_stat_statements is not available (" + ErrorText.firstLine(e)
            + "), so statements are not audited");
      }
    }
    Map<String, ServerView.StatementCount> out = new TreeMap<>();
    if (!statements) {
      return out;
    }
    try (ResultSet rs = st.executeQuery(STATEMENTS)) {
      while (rs.next()) {
        out.put(rs.getString(1), new ServerView.StatementCount(rs.getLong(2), rs.getLong(3), rs.getDouble(4),
            rs.getLong(5), rs.getLong(6)));
      }
    } catch (SQLException e) {
      log.accept("note: pg_stat_statements could not be read (" + ErrorText.firstLine(e) + ")");
    }
    return out;
  }

  /**
   * The node's reads (SELECTs) and writes (INSERT, UPDATE, DELETE and COPY statements, however
   * many rows each wrote) with their execution time, leaving out the harness's own queries of the server.
   */
  static ServerView.NodeCounters node(Map<String, ServerView.StatementCount> statements, Long cpuNanos) {
    long reads = 0;
    long writes = 0;
    double readMs = 0;
    double writeMs = 0;
    for (Map.Entry<String, ServerView.StatementCount> e : statements.entrySet()) {
      String q = e.getKey().stripLeading().toUpperCase(Locale.ROOT);
      ServerView.StatementCount c = e.getValue();
      double ms = c.timeMs() == null ? 0 : c.timeMs();
      if (!ServerReport.isBenchmarkStatement(e.getKey())) {
        continue;
      }
      if (q.startsWith("SELECT")) {
        reads += c.calls();
        readMs += ms;
      } else if (q.startsWith("INSERT") || q.startsWith("UPDATE") || q.startsWith("DELETE") || q.startsWith("COPY")) {
        writes += c.calls();
        writeMs += ms;
      }
    }
    return new ServerView.NodeCounters(reads, writes, readMs * 1000, writeMs * 1000, null, null, cpuNanos);
  }

  /** Waits (5 s at most) until the phase's sessions have ended and so reported their counters. */
  private static void awaitOtherSessions(Statement st) throws SQLException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (System.nanoTime() < deadline) {
      try (ResultSet rs = st.executeQuery(OTHER_SESSIONS)) {
        rs.next();
        if (rs.getLong(1) == 0) {
          return;
        }
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
