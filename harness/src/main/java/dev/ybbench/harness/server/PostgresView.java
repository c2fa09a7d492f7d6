package dev.ybbench.harness.server;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * PostgreSQL's view of the benchmark's database: pg_stat_database's transaction and tuple
 * counters, and pg_stat_statements' calls, rows and time per statement when the extension can be
 * had (the embedded server preloads it; it is created in the database on first use), read from
 * the columns the server's view has ({@link StatStatements}). What cannot be read is said once on
 * the console and named in every snapshot ({@link Snapshot#unavailable}).
 *
 * <p>pg_stat_statements counts as each statement ends. pg_stat_database does not: a backend
 * reports its counters when it ends (or at most every second), and PostgreSQL 14 and earlier
 * (and so YSQL's 11.2 base) send them to a statistics collector that a reader may find up to
 * 500 ms behind. So a snapshot at a phase's end first waits, a few seconds at most, for the
 * phase's sessions to go, and on such a server reads the counters until two readings 600 ms
 * apart agree.
 */
public final class PostgresView implements ServerView {
  private static final String COUNTERS = "SELECT xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, "
      + "tup_updated, tup_deleted FROM pg_stat_database WHERE datname = current_database()";
  /**
   * Sessions of the phase still open; a run's table claim (an advisory lock it holds all run long)
   * is not one, nor the wait sampler's session, which closes after this view's last reading.
   */
  private static final String OTHER_SESSIONS = "SELECT count(*) FROM pg_stat_activity "
      + "WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' "
      + "AND application_name <> '" + ActivitySampler.APPLICATION + "' "
      + "AND pid NOT IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory')";
  /** The statistics collector's directory: a setting of PostgreSQL 14 and earlier only. */
  private static final String COLLECTOR = "SELECT count(*) FROM pg_settings WHERE name = 'stats_temp_directory'";
  /** Longer than a collector's 500 ms (PGSTAT_STAT_INTERVAL), the age of a statistics file a reader accepts. */
  static final long SETTLE_MILLIS = 600;
  /** The counters only the benchmark's sessions move: not this view's own commits. */
  private static final String OWN_COUNTER = "xact_commit";

  private final YsqlEndpoint endpoint;
  /** The postmaster's pid, given for an embedded server, else looked for once on this machine (or null). */
  private Long serverPid;
  private boolean lookedForServer;
  private final Consumer<String> log;
  private final Set<String> noted = new HashSet<>();
  /** The statements' reader, once the view's columns are known; null before, or when they cannot be had. */
  private StatStatements statements;
  /** Why pg_stat_statements cannot be read, once known; null while it can. */
  private String statementsUnavailable;
  private Boolean collector;
  /** The last reading's statement ids (PostgreSQL 14 on) and texts, to name the statements of wait samples. */
  private Map<Long, String> ids = Map.of();
  private Map<String, String> byCanonicalText = Map.of();

  /**
   * @param serverPid the postmaster's pid when the harness started the server (its CPU is read
   *                  from /proc), else null: the first snapshot looks for a PostgreSQL on this
   *                  machine ({@link LocalPostmaster})
   */
  public PostgresView(YsqlEndpoint endpoint, Long serverPid, Consumer<String> log) {
    this.endpoint = endpoint;
    this.serverPid = serverPid;
    this.log = log;
  }

  @Override
  public StatementPlans.Explained plans(Map<String, ServerView.StatementCount> phaseStatements) {
    if (statementsUnavailable != null) {
      return StatementPlans.Explained.none("no statements to explain: " + statementsUnavailable);
    }
    return StatementPlans.explain(endpoint, phaseStatements.keySet(), log);
  }

  @Override
  public WaitSampler waits(long intervalMillis) {
    return new ActivitySampler(endpoint, intervalMillis, this::statementOf);
  }

  /**
   * The statement a wait sample's key names: its query id's text, or the text that, its
   * parameters and numbers made alike ({@link ServerReport#canonical}), pg_stat_statements keeps
   * (before PostgreSQL 14 a session shows the text it sent, e.g. {@code ?} made {@code $1} by the
   * driver, or literal numbers); null when none.
   */
  synchronized String statementOf(Object key) {
    return key instanceof Long id ? ids.get(id)
        : key instanceof String text ? byCanonicalText.get(ServerReport.canonical(text)) : null;
  }

  @Override
  public synchronized String source() {
    return "pg_stat_database" + (statements != null ? " + " + statements.describe() : "")
        + (serverPid != null ? " + /proc" : "");
  }

  @Override
  public synchronized Snapshot snapshot(Moment moment, Runnable counting) {
    Map<String, String> unavailable = new LinkedHashMap<>();
    try (Connection c = endpoint.connect(true); Statement st = c.createStatement()) {
      boolean quiet = moment == Moment.PHASE_END ? awaitOtherSessions(st) : moment == Moment.PHASE_START
          && otherSessions(st) == 0;
      Map<String, Long> counters = quiet && collector(st) ? settled(st) : counters(st);
      Map<String, ServerView.StatementCount> statements = statements(st, unavailable, counting);
      if (serverPid == null && !lookedForServer) {
        lookedForServer = true;
        serverPid = LocalPostmaster.of(endpoint.hosts(), st);
      }
      Long cpu = serverPid == null ? null : ProcessCpu.nanos(serverPid);
      return new Snapshot(counters, statements, cpu,
          statements.isEmpty() ? Map.of() : Map.of(endpoint.hosts().toString(), node(statements, cpu)), unavailable);
    } catch (SQLException e) {
      note(COUNTERS, "note: the server's counters could not be read (" + ErrorText.firstLine(e) + ")");
      return null;
    }
  }

  private static Map<String, Long> counters(Statement st) throws SQLException {
    Map<String, Long> counters = new LinkedHashMap<>();
    try (ResultSet rs = st.executeQuery(COUNTERS)) {
      if (rs.next()) {
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          counters.put(rs.getMetaData().getColumnName(i), rs.getLong(i));
        }
      }
    }
    return counters;
  }

  /**
   * The counters once the collector has counted what the ended sessions sent it: two readings
   * {@link #SETTLE_MILLIS} apart that agree (each reading a transaction of its own, so a fresh
   * copy of the collector's file), within 5 s. This view's own commits are left out of the
   * agreement: they are reported as it reads.
   */
  private static Map<String, Long> settled(Statement st) throws SQLException {
    Map<String, Long> last = counters(st);
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (System.nanoTime() < deadline && sleep(SETTLE_MILLIS)) {
      Map<String, Long> next = counters(st);
      if (agree(last, next)) {
        return next;
      }
      last = next;
    }
    return last;
  }

  static boolean agree(Map<String, Long> a, Map<String, Long> b) {
    Map<String, Long> x = new LinkedHashMap<>(a);
    Map<String, Long> y = new LinkedHashMap<>(b);
    x.remove(OWN_COUNTER);
    y.remove(OWN_COUNTER);
    return x.equals(y);
  }

  /** Whether the server counts through a statistics collector (PostgreSQL 14 and earlier), asked once. */
  private boolean collector(Statement st) throws SQLException {
    if (collector == null) {
      try (ResultSet rs = st.executeQuery(COLLECTOR)) {
        rs.next();
        collector = rs.getLong(1) > 0;
      }
    }
    return collector;
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

  /**
   * The database's statements now; empty, with why in {@code unavailable}, when they cannot be read.
   * {@code counting} runs just before the query that counts them.
   */
  private Map<String, ServerView.StatementCount> statements(Statement st, Map<String, String> unavailable,
      Runnable counting) {
    if (statements == null && statementsUnavailable == null) {
      try {
        createExtension(st);
        statements = StatStatements.of(StatStatements.columns(st));
      } catch (SQLException | IllegalArgumentException e) {
        statementsUnavailable = "pg_stat_statements cannot be read (" + firstLine(e) + "); the server needs "
            + "shared_preload_libraries = 'pg_stat_statements' and the database CREATE EXTENSION pg_stat_statements";
        note(STATEMENTS, "note: " + statementsUnavailable + ", so statements are not recorded and not audited");
      }
    }
    if (statements == null) {
      unavailable.put(STATEMENTS, statementsUnavailable);
      return Map.of();
    }
    try {
      Map<Long, String> read = new HashMap<>();
      counting.run();
      Map<String, ServerView.StatementCount> out = statements.read(st, read);
      ids = read;
      Map<String, String> texts = new HashMap<>();
      out.keySet().forEach(q -> texts.putIfAbsent(ServerReport.canonical(q), q));
      byCanonicalText = texts;
      return out;
    } catch (SQLException e) {
      // Once it read, a failure is this reading's: the phase's statements are missing, not the run's.
      String why = "pg_stat_statements could not be read (" + ErrorText.firstLine(e) + ")";
      note(STATEMENTS + why, "note: " + why);
      unavailable.put(STATEMENTS, why);
      return Map.of();
    }
  }

  private static String firstLine(Exception e) {
    return ErrorText.firstLine(e).replaceFirst("^ERROR: ", "");
  }

  /** Logs a note once per {@code part}: a view read every second must not say the same thing each time. */
  private void note(String part, String line) {
    if (noted.add(part)) {
      log.accept(line);
    }
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

  /** Waits (5 s at most) until the phase's sessions have ended and so reported their counters; whether they did. */
  private static boolean awaitOtherSessions(Statement st) throws SQLException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    do {
      if (otherSessions(st) == 0) {
        return true;
      }
    } while (System.nanoTime() < deadline && sleep(50));
    return false;
  }

  private static long otherSessions(Statement st) throws SQLException {
    try (ResultSet rs = st.executeQuery(OTHER_SESSIONS)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** False when interrupted (the interrupt kept): stop waiting. */
  private static boolean sleep(long millis) {
    try {
      Thread.sleep(millis);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
