package dev.ybbench.harness.server;

import dev.ybbench.harness.results.RunDirectory;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * pg_stat_statements as this server has it, from the columns its view has (read once): the
 * statement's execution time is {@code total_exec_time} from PostgreSQL 13 on (planning apart)
 * and {@code total_time} on 11 and 12 — and in YugabyteDB's own extension on its PostgreSQL 11.2
 * base ({@code pg_stat_statements--1.6--1.6-yb-1.0.sql}), which adds {@code yb_latency_histogram}
 * (its 1.10-yb versions on the 15 base have both that and {@code total_exec_time}). The query
 * asks for what the view has and nothing else; rows of one text (several users) are added up here,
 * histograms bucket by bucket, which SQL's sum cannot do.
 *
 * <p>Every other numeric column that counts (not an identity, not a min, max, mean or deviation)
 * is a counter of the statement's work, read as the server has it: temp blocks, WAL records and
 * I/O time on PostgreSQL; on YugabyteDB also its storage requests, rows scanned and retries
 * ({@code docdb_*}, {@code *_retries}) where its build has them. A new counter in a new release
 * is read without a change here.
 */
final class StatStatements {
  static final String VIEW = "pg_stat_statements";
  /** What a statement's record cannot do without. */
  private static final List<String> REQUIRED = List.of("query", "calls", "rows", "dbid");
  /** The execution time's column, the first the view has. */
  private static final List<String> TIME = List.of("total_exec_time", "total_time");
  private static final List<String> BLOCKS = List.of("shared_blks_hit", "shared_blks_read");
  static final String HISTOGRAM = "yb_latency_histogram";
  /** The statement's id, which pg_stat_activity (14 on) and YugabyteDB's wait samples carry. */
  static final String QUERY_ID = "queryid";
  /** Numeric columns that name or describe rather than count. */
  private static final Set<String> NOT_COUNTERS = Set.of("userid", "dbid", QUERY_ID, "toplevel", "calls", "rows");
  private static final Pattern NOT_A_SUM = Pattern.compile("^(min|max|mean|stddev)_");
  private static final Set<Integer> NUMERIC = Set.of(Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.NUMERIC,
      Types.DECIMAL, Types.DOUBLE, Types.FLOAT, Types.REAL);

  private final String time;
  private final boolean blocks;
  private final boolean histogram;
  private final boolean queryId;
  private final List<String> work;

  private StatStatements(String time, boolean blocks, boolean histogram, boolean queryId, List<String> work) {
    this.time = time;
    this.blocks = blocks;
    this.histogram = histogram;
    this.queryId = queryId;
    this.work = work;
  }

  /** The view's columns, as the server names them, each with its JDBC type ({@link Types}). */
  static Map<String, Integer> columns(Statement st) throws SQLException {
    Map<String, Integer> out = new LinkedHashMap<>();
    try (ResultSet rs = st.executeQuery("SELECT * FROM " + VIEW + " LIMIT 0")) {
      ResultSetMetaData md = rs.getMetaData();
      for (int i = 1; i <= md.getColumnCount(); i++) {
        out.put(md.getColumnName(i).toLowerCase(Locale.ROOT), md.getColumnType(i));
      }
    }
    return out;
  }

  /**
   * The reader for a view with {@code columns} (name to JDBC type, in the view's order).
   *
   * @throws IllegalArgumentException naming the columns a statement's record needs and the view lacks
   */
  static StatStatements of(Map<String, Integer> columns) {
    List<String> missing = new ArrayList<>(REQUIRED.stream().filter(c -> !columns.containsKey(c)).toList());
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(VIEW + " has no column " + String.join(", ", missing));
    }
    String time = TIME.stream().filter(columns::containsKey).findFirst().orElse(null);
    boolean blocks = columns.keySet().containsAll(BLOCKS);
    List<String> work = columns.entrySet().stream()
        .filter(e -> NUMERIC.contains(e.getValue()) && !NOT_COUNTERS.contains(e.getKey())
            && !e.getKey().equals(time) && !(blocks && BLOCKS.contains(e.getKey()))
            && !NOT_A_SUM.matcher(e.getKey()).find())
        .map(Map.Entry::getKey).toList();
    return new StatStatements(time, blocks, columns.containsKey(HISTOGRAM), columns.containsKey(QUERY_ID), work);
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
    select.addAll(work);
    if (queryId) {
      select.add(QUERY_ID);
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
    if (!work.isEmpty()) {
      what.add(work.size() + " work counters");
    }
    return VIEW + " (" + String.join(", ", what) + ")";
  }

  /**
   * The benchmark database's statements by text, each text's rows added up; each statement's id
   * (where the view has it) to its text into {@code ids}.
   */
  Map<String, ServerView.StatementCount> read(Statement st, Map<Long, String> ids) throws SQLException {
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
          String text = rs.getString(i++);
          buckets = text == null ? LatencyBuckets.EMPTY : histogram(text);
        }
        Map<String, Double> counters = work.isEmpty() ? null : new TreeMap<>();
        for (String w : work) {
          counters.put(w, rs.getDouble(i++)); // a null counter (a build that does not fill it) reads 0
        }
        if (queryId) {
          long id = rs.getLong(i);
          if (!rs.wasNull()) {
            ids.put(id, rs.getString(1));
          }
        }
        out.merge(rs.getString(1), new ServerView.StatementCount(rs.getLong(2), rs.getLong(3), ms, hit, read,
            counters, buckets), ServerView.StatementCount::plus);
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
