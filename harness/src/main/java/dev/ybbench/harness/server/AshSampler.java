package dev.ybbench.harness.server;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * YugabyteDB's wait profile: every node's Active Session History ({@code yb_active_session_history},
 * sampled by the node itself, every second by default) over the phase's window, read from each
 * node after the window closes — ASH is kept per node, so one connection sees one node's. A node
 * that cannot be read makes the profile unavailable, never a partial sum. Each sample counts its
 * {@code sample_weight} under its statement ({@code query_id} is pg_stat_statements' queryid) and
 * its event as {@code wait_event_class:wait_event}; the query ids YugabyteDB gives its own work
 * ({@code src/yb/ash/wait_state.h}: 1 log appender, 2 flush, 3 compaction, 4 Raft update
 * consensus, 6 log sync, 7 YSQL background worker, 8 remote bootstrap, 9 snapshot) are the
 * background's; 5 (a query's id not yet computed) and 0 are the benchmark's, unattributed.
 *
 * <p>The columns read are in the view since it came ({@code V45__19128__yb_ash.sql}: 2.21.1 and
 * 2024.2 behind {@code ysql_yb_ash_enable_infra} and {@code ysql_yb_enable_ash}; on by default
 * from 2.25 and 2025.1). The window is the first node's clock at its start, and as long as the
 * phase's measured window on this machine's.
 */
final class AshSampler implements WaitSampler {
  static final String QUERY = "SELECT query_id, wait_event_class, wait_event, sum(sample_weight) "
      + "FROM yb_active_session_history WHERE sample_time > ? AND sample_time <= ? GROUP BY 1, 2, 3";
  static final Set<Long> BACKGROUND = Set.of(1L, 2L, 3L, 4L, 6L, 7L, 8L, 9L);

  /** One group of a node's samples: a statement's samples of one event, weighted. */
  record Row(long queryId, String waitClass, String event, double weight) {}

  /** Each YSQL node, by host, as one connection reaches only it. */
  private final Map<String, YsqlEndpoint> nodes = new LinkedHashMap<>();
  private final Function<Long, String> statementOf;
  private OffsetDateTime start;
  private long startNanos;
  private String failed;

  AshSampler(YsqlEndpoint ysql, Function<Long, String> statementOf) {
    nodes.putAll(YugabyteView.nodes(ysql));
    this.statementOf = statementOf;
  }

  String source() {
    return "yb_active_session_history of " + nodes.size() + (nodes.size() == 1 ? " node" : " nodes")
        + " (sampled by each node, by query_id)";
  }

  @Override
  public void begin() {
    YsqlEndpoint first = nodes.values().iterator().next();
    try (Connection c = first.connect(true); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT clock_timestamp()")) {
      rs.next();
      start = rs.getObject(1, OffsetDateTime.class);
      startNanos = System.nanoTime();
    } catch (SQLException e) {
      failed = "the server's clock could not be read to open the window (" + ErrorText.firstLine(e) + ")";
    }
  }

  /** The server's time {@code nanos} (System.nanoTime()) stands for. */
  private OffsetDateTime at(long nanos) {
    return start.plusNanos(nanos - startNanos);
  }

  private List<Row> read(YsqlEndpoint node, OffsetDateTime from, OffsetDateTime to) throws SQLException {
    List<Row> rows = new ArrayList<>();
    try (Connection c = node.connect(true); PreparedStatement ps = c.prepareStatement(QUERY)) {
      ps.setObject(1, from);
      ps.setObject(2, to);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(new Row(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getDouble(4)));
        }
      }
    }
    return rows;
  }

  @Override
  public Map<String, Double> between(String node, long fromNanos, long toNanos) {
    String host = node.contains(":") ? node.substring(0, node.lastIndexOf(':')) : node;
    YsqlEndpoint endpoint = nodes.get(host);
    Map<String, Double> out = new TreeMap<>();
    if (start == null || endpoint == null) {
      return out;
    }
    try {
      for (Row r : read(endpoint, at(fromNanos), at(toNanos))) {
        out.merge(event(r), r.weight(), Double::sum);
      }
    } catch (SQLException e) {
      // A row of the timeseries without its waits; the phase's profile is read at its end.
    }
    return out;
  }

  @Override
  public WaitProfile end() {
    if (failed != null) {
      return WaitProfile.unavailable(source(), failed);
    }
    OffsetDateTime to = at(System.nanoTime());
    List<Row> rows = new ArrayList<>();
    for (Map.Entry<String, YsqlEndpoint> n : nodes.entrySet()) {
      try {
        rows.addAll(read(n.getValue(), start, to));
      } catch (SQLException e) {
        return WaitProfile.unavailable(source(), "node " + n.getKey() + "'s yb_active_session_history could not be "
            + "read (" + ErrorText.firstLine(e) + "); it needs YugabyteDB 2024.2 or later with ASH on "
            + "(ysql_yb_enable_ash; on by default from 2025.1)");
      }
    }
    return profile(source(), rows, statementOf);
  }

  static String event(Row r) {
    return r.waitClass() + ":" + r.event();
  }

  /**
   * The profile of every node's rows: each under its statement where {@code statementOf} names
   * its query id (one of the benchmark's database), the background's apart, unnamed ids 0 and 5
   * unattributed; other query ids (other databases' statements, the harness's own) left out.
   */
  static WaitProfile profile(String source, List<Row> rows, Function<Long, String> statementOf) {
    Map<String, Map<String, Double>> byStatement = new HashMap<>();
    Map<String, Double> background = new TreeMap<>();
    for (Row r : rows) {
      if (BACKGROUND.contains(r.queryId())) {
        background.merge(event(r), r.weight(), Double::sum);
        continue;
      }
      String statement = statementOf.apply(r.queryId());
      boolean unnamed = r.queryId() == 0 || r.queryId() == 5;
      if (statement != null && ServerReport.isBenchmarkStatement(statement) || unnamed) {
        byStatement.computeIfAbsent(unnamed ? null : statement, k -> new TreeMap<>()).merge(event(r), r.weight(),
            Double::sum);
      }
    }
    return WaitProfile.of(source, null, byStatement, background);
  }
}
