package dev.ybbench.harness.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A YugabyteDB node's statements as its API server serves them as JSON on {@code /statements},
 * each node its own (yugabyte-db's writers, the fields read here in their names):
 *
 * <ul>
 *   <li>YSQL, port 13000 ({@code src/yb/yql/pggate/webserver/pgsql_webserver_wrapper.cc} with
 *       {@code pg_stat_statements.c}'s {@code getYsqlStatementStats}): {@code {"statements": [{…,
 *       "query_id", "query", "calls", "total_time" (the 11.2 base) or "total_exec_time" (15), "rows", …,
 *       "yb_latency_histogram"}]}}, later builds with {@code "userid"} and {@code "dbid"}; a
 *       string in place of the array when the module is disabled.
 *   <li>YCQL, port 12000 ({@code src/yb/yql/cql/cqlserver/cql_service.cc},
 *       {@code cql_statement.cc}): {@code {"prepared_statements": […], "unprepared_statements":
 *       […]}}, each {@code {"keyspace"?, "query_id", "query", "is_prepared"?, "calls",
 *       "total_time", …, "yb_latency_histogram"?}}: no rows, and the histogram only in the
 *       newest releases.
 * </ul>
 *
 * Times are in milliseconds in both, as in pg_stat_statements.
 */
final class StatementsJson {
  /**
   * What one node serves: its statements by text, whether they count the rows they touched, and
   * each statement's id ({@code query_id}, where the node gives it) to its text.
   */
  record NodeStatements(Map<String, ServerView.StatementCount> statements, boolean countsRows, Map<Long, String> ids) {}

  private StatementsJson() {}

  /**
   * @param dbid the benchmark database's oid: YSQL statements of other databases are left out
   *             where the node says whose each is (null: keep every one)
   * @throws IllegalArgumentException saying why when the body holds no statements
   */
  static NodeStatements parse(JsonNode body, Long dbid) {
    JsonNode ysql = body.path("statements");
    if (ysql.isTextual()) {
      throw new IllegalArgumentException(ysql.asText()); // "PG Stat Statements module is disabled."
    }
    Map<String, ServerView.StatementCount> out = new TreeMap<>();
    Map<Long, String> ids = new HashMap<>();
    if (ysql.isArray()) {
      for (JsonNode s : ysql) {
        if (dbid == null || !s.has("dbid") || s.get("dbid").asLong() == dbid) {
          add(out, s, s.path("rows").asLong());
          if (s.has("query_id") && s.hasNonNull("query")) {
            ids.put(s.get("query_id").asLong(), s.get("query").asText());
          }
        }
      }
      return new NodeStatements(out, true, ids);
    }
    JsonNode prepared = body.path("prepared_statements");
    JsonNode unprepared = body.path("unprepared_statements");
    if (!prepared.isArray() && !unprepared.isArray()) {
      throw new IllegalArgumentException("neither YSQL's \"statements\" nor YCQL's \"prepared_statements\"");
    }
    for (JsonNode list : new JsonNode[] {prepared, unprepared}) {
      for (JsonNode s : list) {
        add(out, s, 0);
      }
    }
    return new NodeStatements(out, false, ids);
  }

  private static void add(Map<String, ServerView.StatementCount> out, JsonNode s, long rows) {
    if (!s.hasNonNull("query") || !s.has("calls")) {
      return;
    }
    JsonNode time = s.has("total_exec_time") ? s.get("total_exec_time") : s.get("total_time");
    JsonNode histogram = s.get(StatStatements.HISTOGRAM);
    out.merge(s.get("query").asText(), new ServerView.StatementCount(s.get("calls").asLong(), rows,
        time == null ? null : time.asDouble(), null, null, null, histogram == null ? null : LatencyBuckets.of(histogram)),
        ServerView.StatementCount::plus);
  }
}
