package dev.ybbench.harness.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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
 * Servers give it three ways, and each is used where the server has it ({@link Method}): {@code
 * EXPLAIN (GENERIC_PLAN)} (PostgreSQL 16 on); PREPARE under {@code plan_cache_mode =
 * force_generic_plan} and EXPLAIN EXECUTE with null parameters, which a generic plan does not
 * look at (PostgreSQL 12 on, so YSQL on 15); and where neither is there (PostgreSQL 11, YSQL's
 * base before 2.25) each parameter replaced by a subquery of its type's null, which the planner
 * cannot see into either: it plans the statement as for an unknown value (an initplan's
 * parameter, estimated as a generic plan's is) and the initplans it adds are left out of the
 * plan. Each plan gets a shape — node types, join types, index and table names, nesting; costs
 * and row estimates left out — and a fingerprint of it, and the statistics of its tables when it
 * was made (live rows, last ANALYZE), which say why a plan moved between runs.
 */
public final class StatementPlans {
  public static final String FILE = "plans.json";

  private StatementPlans() {}

  /**
   * One statement's plan; {@code error} (and no plan) when the server would not explain it.
   *
   * @param shape       e.g. "Limit > Index Scan using usertable_pkey on usertable"
   * @param fingerprint the first 12 hex digits of the shape's SHA-256
   * @param tables      the statistics of the plan's tables as the planner had them
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record StatementPlan(String statement, String shape, String fingerprint, JsonNode plan, String error,
      List<TableStatistics> tables, Executed executed) {
    public StatementPlan(String statement, String shape, String fingerprint, JsonNode plan, String error,
        List<TableStatistics> tables) {
      this(statement, shape, fingerprint, plan, error, tables, null);
    }

    StatementPlan withExecuted(Executed e) {
      return new StatementPlan(statement, shape, fingerprint, plan, error, tables, e);
    }
  }

  /**
   * The plan that ran: the statement with a parameter set the run bound ({@link BoundStatements}),
   * run under EXPLAIN ANALYZE after the phase, a write rolled back; {@code error} (and no plan)
   * when it could not be.
   *
   * @param statement   the statement as bound
   * @param rowsScanned the rows its scans read: YugabyteDB's {@code Storage Rows Scanned}, or on
   *                    PostgreSQL each scan's rows returned and removed by its filters, times its loops
   * @param explain     EXPLAIN's whole answer: the plan with actual rows, loops and buffers (or
   *                    storage requests), execution time and, on YugabyteDB, the storage counters
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Executed(String statement, String shape, String fingerprint, Double rowsScanned, JsonNode explain,
      String error) {}

  /**
   * A table's statistics when a plan was made (pg_stat_user_tables): its live rows as counted,
   * and when it was last analyzed by hand and by autovacuum (null: never).
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record TableStatistics(String table, long liveRows, String lastAnalyze, String lastAutoanalyze) {}

  /** plans.json: per phase, the plans of its statements, and how they were made. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record File(int format, String how, Map<String, List<StatementPlan>> phases) {}

  /** A phase's plans, how they were made, or why there are none (null when there are). */
  public record Explained(List<StatementPlan> plans, String how, String unavailable) {
    static Explained none(String why) {
      return new Explained(List.of(), null, why);
    }
  }

  /** How a server gives a statement's generic plan: the first it has, in this order. */
  enum Method {
    GENERIC_PLAN("EXPLAIN (GENERIC_PLAN, FORMAT JSON) of each statement, without ANALYZE"),
    FORCE_GENERIC_PLAN("PREPARE under plan_cache_mode = force_generic_plan, then EXPLAIN (FORMAT JSON) EXECUTE "
        + "with null parameters, without ANALYZE"),
    UNKNOWN_VALUES("EXPLAIN (FORMAT JSON) of each statement with its parameters as subqueries of their types' null "
        + "(the server has no generic-plan setting), without ANALYZE; the subqueries' initplans left out");

    final String how;

    Method(String how) {
      this.how = how;
    }
  }

  /** The statements a plan can be asked for: queries and writes, not COPY or transaction control. */
  private static final Pattern EXPLAINABLE = Pattern.compile("^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH|VALUES)\\b",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern PARAMETER = Pattern.compile("\\$(\\d+)");
  /** At most this many statements explained per phase (TPC-C issues about 30). */
  static final int MAX_STATEMENTS = 100;
  private static final String PREPARED = "ybbench_plan";

  /** The plans of the benchmark's explainable statements among {@code statements}, in text order. */
  public static Explained explain(YsqlEndpoint endpoint, Collection<String> statements, Consumer<String> log) {
    List<String> wanted = new TreeSet<>(statements).stream()
        .filter(q -> ServerReport.isBenchmarkStatement(q) && EXPLAINABLE.matcher(q).find())
        .limit(MAX_STATEMENTS).toList();
    if (wanted.isEmpty()) {
      return Explained.none(null);
    }
    List<StatementPlan> out = new ArrayList<>();
    Method method;
    String analyze;
    try (Connection c = endpoint.connectSimpleProtocol(); Statement st = c.createStatement()) {
      method = method(st);
      for (String q : wanted) {
        out.add(explain(st, q, method));
      }
      out = withStatistics(st, out);
      analyze = analyze(st);
      List<StatementPlan> executed = new ArrayList<>();
      for (StatementPlan p : out) {
        String bound = BoundStatements.of(p.statement());
        executed.add(bound == null ? p : p.withExecuted(executed(c, st, bound, analyze)));
      }
      out = executed;
    } catch (SQLException e) {
      String why = "the statements' plans could not be read (" + ErrorText.firstLine(e) + ")";
      log.accept("note: " + why);
      return Explained.none(why);
    }
    return new Explained(out, method.how + "; executed: " + analyze + " of each statement with a parameter set the "
        + "run bound, in a transaction rolled back", null);
  }

  /** EXPLAIN's options for the plan that ran: YugabyteDB's storage requests where the server has them. */
  static String analyze(Statement st) {
    try {
      st.executeQuery("EXPLAIN (ANALYZE, DIST, FORMAT JSON) SELECT 1").close();
      return "EXPLAIN (ANALYZE, DIST, FORMAT JSON)";
    } catch (SQLException e) {
      return "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)"; // 42601: "unrecognized EXPLAIN option "dist"" on PostgreSQL
    }
  }

  /** A statement executed under EXPLAIN ANALYZE in a transaction rolled back, so a write leaves nothing. */
  private static Executed executed(Connection c, Statement st, String bound, String analyze) {
    try {
      c.setAutoCommit(false);
      try {
        st.execute("SET LOCAL statement_timeout = '" + EXECUTED_TIMEOUT_S + "s'");
        JsonNode answer = json(st, analyze + " " + bound).path(0);
        String shape = shape(answer.path("Plan"));
        return new Executed(bound, shape, fingerprint(shape), rowsScanned(answer), answer, null);
      } finally {
        c.rollback();
        c.setAutoCommit(true);
      }
    } catch (SQLException | RuntimeException e) {
      return new Executed(bound, null, null, null, null, ErrorText.firstLine(e));
    }
  }

  /** How long one statement may run under EXPLAIN ANALYZE: a scan of a large table must not hold up the run. */
  static final int EXECUTED_TIMEOUT_S = 10;

  /**
   * The rows an executed plan's scans read: YugabyteDB's own count where it gives one ({@code
   * Storage Rows Scanned}); else each scan's rows returned and removed by its filter and index
   * recheck, times its loops (PostgreSQL's actual rows are per loop).
   */
  static Double rowsScanned(JsonNode answer) {
    if (answer.has("Storage Rows Scanned")) {
      return answer.get("Storage Rows Scanned").asDouble();
    }
    double[] rows = {0};
    boolean[] any = {false};
    answer.path("Plan").findParents("Node Type").forEach(n -> {
      if (n.has("Relation Name") && n.has("Actual Rows")) {
        any[0] = true;
        rows[0] += (n.path("Actual Rows").asDouble() + n.path("Rows Removed by Filter").asDouble()
            + n.path("Rows Removed by Index Recheck").asDouble()) * n.path("Actual Loops").asDouble(1);
      }
    });
    return any[0] ? rows[0] : null;
  }

  /** The first way of {@link Method} this server has, tried rather than told by a version number. */
  static Method method(Statement st) throws SQLException {
    try {
      st.executeQuery("EXPLAIN (GENERIC_PLAN, FORMAT JSON) SELECT 1").close();
      return Method.GENERIC_PLAN;
    } catch (SQLException e) {
      // 42601: "unrecognized EXPLAIN option" before PostgreSQL 16.
    }
    try (ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_settings WHERE name = 'plan_cache_mode'")) {
      rs.next();
      return rs.getLong(1) > 0 ? Method.FORCE_GENERIC_PLAN : Method.UNKNOWN_VALUES;
    }
  }

  private static StatementPlan explain(Statement st, String query, Method method) {
    try {
      JsonNode plan = switch (method) {
        case GENERIC_PLAN -> json(st, "EXPLAIN (GENERIC_PLAN, FORMAT JSON) " + query);
        case FORCE_GENERIC_PLAN -> forcedGeneric(st, query);
        case UNKNOWN_VALUES -> withoutInitPlans(json(st, "EXPLAIN (FORMAT JSON) " + unknownValues(query,
            parameterTypes(st, query))));
      };
      JsonNode root = plan.path(0).path("Plan");
      String shape = shape(root);
      return new StatementPlan(query, shape, fingerprint(shape), root, null, null);
    } catch (SQLException | RuntimeException e) {
      return new StatementPlan(query, null, null, null, ErrorText.firstLine(e), null);
    }
  }

  private static JsonNode forcedGeneric(Statement st, String query) throws SQLException {
    int params = 0;
    Matcher m = PARAMETER.matcher(query);
    while (m.find()) {
      params = Math.max(params, Integer.parseInt(m.group(1)));
    }
    st.execute("SET plan_cache_mode = force_generic_plan");
    try {
      st.execute("PREPARE " + PREPARED + " AS " + query);
      try {
        return json(st, "EXPLAIN (FORMAT JSON) EXECUTE " + PREPARED
            + (params == 0 ? "" : "(" + String.join(", ", Collections.nCopies(params, "NULL")) + ")"));
      } finally {
        st.execute("DEALLOCATE " + PREPARED);
      }
    } finally {
      st.execute("RESET plan_cache_mode");
    }
  }

  /** The types the server infers for the statement's parameters, $1 first. */
  private static List<String> parameterTypes(Statement st, String query) throws SQLException {
    st.execute("PREPARE " + PREPARED + " AS " + query);
    try (ResultSet rs = st.executeQuery("SELECT t::text FROM pg_prepared_statements, unnest(parameter_types) "
        + "WITH ORDINALITY AS p(t, i) WHERE name = '" + PREPARED + "' ORDER BY i")) {
      List<String> types = new ArrayList<>();
      while (rs.next()) {
        types.add(rs.getString(1));
      }
      return types;
    } finally {
      st.execute("DEALLOCATE " + PREPARED);
    }
  }

  /** The statement with each {@code $n} a subquery of its type's null, which the planner plans as an unknown value. */
  static String unknownValues(String query, List<String> types) {
    return PARAMETER.matcher(query).replaceAll(m -> {
      int n = Integer.parseInt(m.group(1));
      return Matcher.quoteReplacement("(SELECT NULL::" + (n <= types.size() ? types.get(n - 1) : "text") + ")");
    });
  }

  /**
   * The plan without the initplans {@link #unknownValues} added: children that are a bare Result
   * computing an initplan (no table, nothing under it).
   */
  static JsonNode withoutInitPlans(JsonNode plan) {
    JsonNode copy = plan.deepCopy();
    copy.findParents("Plans").forEach(parent -> {
      if (parent.get("Plans") instanceof ArrayNode children) {
        for (int i = children.size() - 1; i >= 0; i--) {
          JsonNode ch = children.get(i);
          if ("InitPlan".equals(ch.path("Parent Relationship").asText()) && "Result".equals(ch.path("Node Type")
              .asText()) && !ch.has("Plans") && !ch.has("Relation Name")) {
            children.remove(i);
          }
        }
        if (children.isEmpty()) {
          ((ObjectNode) parent).remove("Plans");
        }
      }
    });
    return copy;
  }

  /**
   * The plans, each with the statistics of the tables it reads as they were when it was made:
   * a plan that flipped between runs because autovacuum analyzed a table shows it here.
   */
  private static List<StatementPlan> withStatistics(Statement st, List<StatementPlan> plans) throws SQLException {
    Map<String, TableStatistics> stats = new LinkedHashMap<>();
    try (ResultSet rs = st.executeQuery("SELECT relname, n_live_tup, last_analyze::text, last_autoanalyze::text "
        + "FROM pg_stat_user_tables WHERE schemaname = current_schema()")) {
      while (rs.next()) {
        stats.put(rs.getString(1), new TableStatistics(rs.getString(1), rs.getLong(2), rs.getString(3),
            rs.getString(4)));
      }
    }
    List<StatementPlan> out = new ArrayList<>();
    for (StatementPlan p : plans) {
      if (p.plan() == null) {
        out.add(p);
        continue;
      }
      Set<String> tables = new TreeSet<>();
      p.plan().findValuesAsText("Relation Name").forEach(tables::add);
      List<TableStatistics> of = tables.stream().map(stats::get).filter(Objects::nonNull).toList();
      out.add(new StatementPlan(p.statement(), p.shape(), p.fingerprint(), p.plan(), p.error(),
          of.isEmpty() ? null : of, p.executed()));
    }
    return out;
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
