package dev.ybbench.harness.server;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * PostgreSQL's wait profile: {@code pg_stat_activity}'s active client sessions of the benchmark's
 * database, looked at every interval on a connection of its own — each session's wait event
 * ({@code wait_event_type:wait_event}, or {@link WaitProfile#CPU} when it waits on nothing the
 * server instruments) under its statement: {@code query_id} from PostgreSQL 14 (the id
 * pg_stat_statements keeps), the text before. PostgreSQL keeps no history of waits, so only
 * looking often enough sees them: every 100 ms an 8-second phase has 80 looks, each seeing every
 * active session. Idle sessions (and so the harness's own, between its readings) are not counted.
 */
final class ActivitySampler implements WaitSampler {
  private static final String FROM = " FROM pg_stat_activity WHERE datname = current_database() "
      + "AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state = 'active'";
  /**
   * The sampler's session's name: the view's wait for the phase's sessions to end at its close
   * does not wait for it (nor for another client's sampler).
   */
  static final String APPLICATION = "ybbench wait sampler";
  private static final String EVENT = "coalesce(wait_event_type || ':' || wait_event, '" + WaitProfile.CPU + "')";

  private final YsqlEndpoint endpoint;
  private final long intervalNanos;
  /** A sampled key (a query id, or a text) to its statement's text as pg_stat_statements has it; null: none. */
  private final Function<Object, String> statementOf;
  private final Map<Object, Map<String, Double>> byKey = new HashMap<>();
  private final List<Tick> ticks = new ArrayList<>();
  private Ticker ticker;
  private Connection connection;
  private PreparedStatement look;
  private boolean byQueryId;
  private long samplings;
  private String failed;

  /** One look: when, and the events it saw. */
  private record Tick(long nanos, Map<String, Double> events) {}

  ActivitySampler(YsqlEndpoint endpoint, long intervalMillis, Function<Object, String> statementOf) {
    this.endpoint = endpoint;
    this.intervalNanos = intervalMillis * 1_000_000L;
    this.statementOf = statementOf;
  }

  String source() {
    return "pg_stat_activity every " + intervalNanos / 1_000_000 + " ms (the database's active client sessions, by "
        + (byQueryId ? "query_id" : "statement text") + ")";
  }

  @Override
  public void begin() {
    try {
      connection = endpoint.connect(true);
      try (Statement st = connection.createStatement()) {
        st.execute("SET application_name = '" + APPLICATION + "'");
        try (ResultSet rs = st.executeQuery("SELECT * FROM pg_stat_activity LIMIT 0")) {
          byQueryId = hasColumn(rs, "query_id");
        }
      }
      look = connection.prepareStatement("SELECT " + EVENT + ", " + (byQueryId ? "query_id, " : "NULL, ") + "query"
          + FROM);
    } catch (SQLException e) {
      fail(e);
      return;
    }
    ticker = new Ticker("wait-sampler", this::look, 0, intervalNanos);
  }

  private static boolean hasColumn(ResultSet rs, String name) throws SQLException {
    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
      if (rs.getMetaData().getColumnName(i).equals(name)) {
        return true;
      }
    }
    return false;
  }

  private void look() {
    Map<String, Double> events = new TreeMap<>();
    Map<Object, Map<String, Double>> seen = new LinkedHashMap<>();
    try (ResultSet rs = look.executeQuery()) {
      while (rs.next()) {
        String event = rs.getString(1);
        long id = rs.getLong(2);
        Object key = byQueryId && !rs.wasNull() && id != 0 ? (Object) id : rs.getString(3);
        events.merge(event, 1.0, Double::sum);
        seen.computeIfAbsent(key, k -> new TreeMap<>()).merge(event, 1.0, Double::sum);
      }
    } catch (SQLException e) {
      synchronized (this) {
        fail(e);
      }
      throw new IllegalStateException(e); // ends the schedule
    }
    long now = System.nanoTime();
    synchronized (this) {
      samplings++;
      ticks.add(new Tick(now, events));
      seen.forEach((k, ev) -> ev.forEach((event, n) -> byKey.computeIfAbsent(k, x -> new TreeMap<>())
          .merge(event, n, Double::sum)));
    }
  }

  private void fail(SQLException e) {
    if (failed == null) {
      failed = "pg_stat_activity could not be sampled (" + ErrorText.firstLine(e) + ")";
    }
  }

  @Override
  public synchronized Map<String, Double> between(String node, long fromNanos, long toNanos) {
    Map<String, Double> out = new TreeMap<>();
    for (Tick t : ticks) {
      if (t.nanos() > fromNanos && t.nanos() <= toNanos) {
        t.events().forEach((e, n) -> out.merge(e, n, Double::sum));
      }
    }
    return out;
  }

  @Override
  public WaitProfile end() {
    if (ticker != null) {
      ticker.stop();
    }
    try {
      if (connection != null) {
        connection.close();
      }
    } catch (SQLException e) {
      // The samples are taken; a connection that does not close cleanly costs nothing here.
    }
    synchronized (this) {
      if (failed != null) {
        return WaitProfile.unavailable(source(), failed);
      }
      Map<String, Map<String, Double>> byStatement = new HashMap<>();
      byKey.forEach((key, events) -> {
        String statement = statementOf.apply(key);
        // The harness's own readings are left out; the benchmark's statements the server's statistics do not
        // name (evicted, or a text they normalized otherwise) are kept, unattributed.
        String text = statement != null ? statement : key instanceof String k ? k : null;
        if (text == null || ServerReport.isBenchmarkStatement(text)) {
          Map<String, Double> into = byStatement.computeIfAbsent(statement, k -> new TreeMap<>());
          events.forEach((e, n) -> into.merge(e, n, Double::sum));
        }
      });
      return WaitProfile.of(source(), samplings, byStatement, null);
    }
  }
}
