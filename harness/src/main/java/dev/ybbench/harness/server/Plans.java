package dev.ybbench.harness.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * plans.json: the plan of every distinct statement a phase ran, as PostgreSQL and YSQL (the
 * same EXPLAIN) would run it, so that compare can tell a changed plan from a slower server.
 *
 * <p>The plan is the <em>generic</em> one, without ANALYZE: the statement as the server
 * normalized it ({@code $1} for each parameter), planned with its parameters as placeholders —
 * the plan a prepared statement settles on once the driver prepares it on the server (pgjdbc
 * after its fifth execution) and the server finds the generic plan no costlier than custom ones.
 * PostgreSQL 16 and later give it with {@code EXPLAIN (GENERIC_PLAN)}; earlier servers through
 * PREPARE with {@code plan_cache_mode = force_generic_plan} and EXECUTE with null parameters,
 * which the generic plan does not look at. Each plan gets a shape — node types, join types,
 * index and table names, nesting; costs and row estimates left out — and a fingerprint of it.
 */
public final class Plans {
  public static final String FILE = "plans.json";

  private Plans() {}

  /**
   * One statement's plan; {@code error} (and no plan) when the server would not explain it.
   *
   * @param shape       e.g. "Limit > Index Scan using usertable_pkey on usertable"
   * @param fingerprint the first 12 hex digits of the shape's SHA-256
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record StatementPlan(String statement, String shape, String fingerprint, JsonNode plan, String error) {}

  /** plans.json: per phase, the plans of its statements. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record File(int format, String how, Map<String, List<StatementPlan>> phases) {}

  /** What {@link File#how} says: how the plans were made. */
  public static final String HOW = "EXPLAIN (FORMAT JSON) of each statement's generic plan, without ANALYZE";

  /** The statements a plan can be asked for: queries and writes, not COPY or transaction control. */
  private static final Pattern EXPLAINABLE = Pattern.compile("^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH|VALUES)\\b",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern PARAMETER = Pattern.compile("\\$(\\d+)");
  /** At most this many statements explained per phase (TPC-C issues about 30). */
  static final int MAX_STATEMENTS = 100;

  /** The plans of the benchmark's explainable statements among {@code statements}, in text order. */
  public static List<StatementPlan> explain(YsqlEndpoint endpoint, Collection<String> statements,
      Consumer<String> log) {
    List<String> wanted = new TreeSet<>(statements).stream()
        .filter(q -> ServerReport.isBenchmarkStatement(q) && EXPLAINABLE.matcher(q).find())
        .limit(MAX_STATEMENTS).toList();
    List<StatementPlan> out = new ArrayList<>();
    if (wanted.isEmpty()) {
      return out;
    }
    try (Connection c = endpoint.connectSimpleProtocol(); Statement st = c.createStatement()) {
      boolean generic = c.getMetaData().getDatabaseMajorVersion() >= 16;
      for (String q : wanted) {
        out.add(explain(st, q, generic));
      }
    } catch (SQLException e) {
      log.accept("note: the statements' plans could not be read (" + ErrorText.firstLine(e) + ")");
    }
    return out;
  }

  private static StatementPlan explain(Statement st, String query, boolean genericOption) {
    try {
      JsonNode plan;
      if (genericOption) {
        plan = json(st, "EXPLAIN (GENERIC_PLAN, FORMAT JSON) " + query);
      } else {
        int params = 0;
        Matcher m = PARAMETER.matcher(query);
        while (m.find()) {
          params = Math.max(params, Integer.parseInt(m.group(1)));
        }
        st.execute("SET plan_cache_mode = force_generic_plan");
        try {
          st.execute("PREPARE ybbench_plan AS " + query);
          try {
            plan = json(st, "EXPLAIN (FORMAT JSON) EXECUTE ybbench_plan"
                + (params == 0 ? "" : "(" + String.join(", ", Collections.nCopies(params, "NULL")) + ")"));
          } finally {
            st.execute("DEALLOCATE ybbench_plan");
          }
        } finally {
          st.execute("RESET plan_cache_mode");
        }
      }
      JsonNode root = plan.path(0).path("Plan");
      String shape = shape(root);
      return new StatementPlan(query, shape, fingerprint(shape), root, null);
    } catch (SQLException | RuntimeException e) {
      return new StatementPlan(query, null, null, null, ErrorText.firstLine(e));
    }
  }

  private static JsonNode json(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return RunDirectory.JSON.readTree(rs.getString(1));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new SQLException("EXPLAIN returned no JSON: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * A plan's shape, what stays when only data and statistics change: each node's type, strategy,
   * join type, index and relation, children after " > " (one) or in brackets (several).
   */
  public static String shape(JsonNode node) {
    StringBuilder s = new StringBuilder(node.path("Node Type").asText("?"));
    for (String field : List.of("Strategy", "Join Type")) {
      if (node.hasNonNull(field)) {
        s.append(" (").append(node.get(field).asText()).append(')');
      }
    }
    if (node.hasNonNull("Index Name")) {
      s.append(" using ").append(node.get("Index Name").asText());
    }
    if (node.hasNonNull("Relation Name")) {
      s.append(" on ").append(node.get("Relation Name").asText());
    }
    JsonNode children = node.path("Plans");
    if (children.size() == 1) {
      s.append(" > ").append(shape(children.get(0)));
    } else if (children.size() > 1) {
      List<String> parts = new ArrayList<>();
      children.forEach(ch -> parts.add(shape(ch)));
      s.append(" [").append(String.join(", ", parts)).append(']');
    }
    return s.toString();
  }

  public static String fingerprint(String shape) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(shape.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The benchmark database's statements this node's pg_stat_statements has seen: where the
   * server keeps them per node (YugabyteDB), the texts to explain.
   */
  static List<String> nodeStatements(YsqlEndpoint endpoint) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = endpoint.connect(true); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT DISTINCT query FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database "
            + "WHERE datname = current_database())")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }
}
