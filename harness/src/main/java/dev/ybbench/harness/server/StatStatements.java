package dev.ybbench.harness.server;

import dev.ybbench.harness.results.RunDirectory;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * pg_stat_statements as this server has it, from the columns its view has (read once): the
 * statement's execution time is {@code total_exec_time} from PostgreSQL 13 on (planning apart)
 * and {@code total_time} on 11 and 12 — and in YugabyteDB's own extension on its PostgreSQL 11.2
 * base ({@code pg_stat_statements--1.6--1.6-yb-1.0.sql}), which adds {@code yb_latency_histogram}
 * (its 1.10-yb versions on the 15 base have both that and {@code total_exec_time}). The query
 * asks for what the view has and nothing else; rows of one text (several users) are added up here,
 * histograms bucket by bucket, which SQL's sum cannot do.
 */
final class StatStatements {
  static final String VIEW = "pg_stat_statements";
  /** What a statement's record cannot do without. */
  private static final List<String> REQUIRED = List.of("query", "calls", "rows", "dbid");
  /** The execution time's column, the first the view has. */
  private static final List<String> TIME = List.of("total_exec_time", "total_time");
  private static final List<String> BLOCKS = List.of("shared_blks_hit", "shared_blks_read");
  static final String HISTOGRAM = "yb_latency_histogram";

  private final String time;
  private final boolean blocks;
  private final boolean histogram;

  private StatStatements(String time, boolean blocks, boolean histogram) {
    this.time = time;
    this.blocks = blocks;
    this.histogram = histogram;
  }

  /** The view's columns, as the server names them. */
  static Set<String> columns(Statement st) throws SQLException {
    Set<String> out = new LinkedHashSet<>();
    try (ResultSet rs = st.executeQuery("SELECT * FROM " + VIEW + " LIMIT 0")) {
      ResultSetMetaData md = rs.getMetaData();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        out.add(md.getColumnName(i).toLowerCase(Locale.ROOT));
      }
    }
    return out;
  }

  /**
   * The reader for a view with {@code columns}.
   *
   * @throws IllegalArgumentException naming the columns a statement's record needs and the view lacks
   */
  static StatStatements of(Collection<String> columns) {
    List<String> missing = new ArrayList<>(REQUIRED.stream().filter(c -> !columns.contains(c)).toList());
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(VIEW + " has no column " + String.join(", ", missing));
    }
    String time = TIME.stream().filter(columns::contains).findFirst().orElse(null);
    return new StatStatements(time, columns.containsAll(BLOCKS), columns.contains(HISTOGRAM));
  }

  /** The statements query, for this server's columns. */
  String query() {
    List<String> select = new ArrayList<>(List.of("query", "calls", "rows"));
    if (time != null) {
      select.add(time);
    }
    if (blocks) {
      select.addAll(BLOCKS);
    }
    if (histogram) {
      select.add(HISTOGRAM);
    }
    return "SELECT " + String.join(", ", select) + " FROM " + VIEW
        + " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())";
  }

  /** What is read, for server.json's source: e.g. "pg_stat_statements (total_time, yb_latency_histogram)". */
  String describe() {
    List<String> what = new ArrayList<>();
    what.add(time == null ? "no time column" : time);
    if (blocks) {
      what.add("shared blocks");
    }
    if (histogram) {
      what.add(HISTOGRAM);
    }
    return VIEW + " (" + String.join(", ", what) + ")";
  }

  /** The benchmark database's statements by text, each text's rows added up. */
  Map<String, ServerView.StatementCount> read(Statement st) throws SQLException {
    Map<String, ServerView.StatementCount> out = new TreeMap<>();
    try (ResultSet rs = st.executeQuery(query())) {
      while (rs.next()) {
        int i = 4;
        Double ms = null;
        if (time != null) {
          ms = rs.getDouble(i++);
        }
        Long hit = null;
        Long read = null;
        if (blocks) {
          hit = rs.getLong(i++);
          read = rs.getLong(i++);
        }
        LatencyBuckets buckets = null;
        if (histogram) {
          String text = rs.getString(i);
          buckets = text == null ? LatencyBuckets.EMPTY : histogram(text);
        }
        out.merge(rs.getString(1), new ServerView.StatementCount(rs.getLong(2), rs.getLong(3), ms, hit, read, buckets),
            ServerView.StatementCount::plus);
      }
    }
    return out;
  }

  private static LatencyBuckets histogram(String text) throws SQLException {
    try {
      return LatencyBuckets.of(RunDirectory.JSON.readTree(text));
    } catch (IllegalArgumentException | com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new SQLException(HISTOGRAM + " is not in the form YugabyteDB writes it: " + e.getMessage(), e);
    }
  }
}
