package dev.ybbench.harness.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ybbench.harness.results.NodeRates;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * server.json: the server's view of each phase — its counters before and after and their
 * difference, the statements it executed, what each node served, server and client CPU — and the audit of the
 * harness's counts against the server's. Documented in results/README.md.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServerReport(int format, String source, Map<String, Phase> phases) {
  public static final String FILE = "server.json";
  /**
   * The counter, in a phase's {@code before} and {@code after}, of the statements the server had
   * completed on the audited table since its statistics began: absolute, so that the phases of
   * several clients merge over their union (the last client's after minus the first's before).
   */
  public static final String AUDITED = "completed_statements_on_table";

  /**
   * One phase as the server saw it; {@code statements} holds the phase's calls and rows per
   * statement, {@code unavailable} the parts that could not be read, each with why.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Phase(Map<String, Long> before, Map<String, Long> after, Map<String, Long> delta,
      Map<String, ServerView.StatementCount> statements, WaitProfile waits, List<NodeRates> nodes,
      PhaseResult.ServerSide summary, Map<String, String> unavailable) {
    public Phase withSummary(PhaseResult.ServerSide side) {
      return new Phase(before, after, delta, statements, waits, nodes, side, unavailable);
    }

    /** This phase with {@code part} of the server's view named as not recorded, here and in its summary. */
    public Phase withUnavailable(String part, String why) {
      Map<String, String> u = new LinkedHashMap<>(unavailable == null ? Map.of() : unavailable);
      u.put(part, why);
      PhaseResult.ServerSide s = summary;
      return new Phase(before, after, delta, statements, waits, nodes, new PhaseResult.ServerSide(s.harnessOperations(),
          s.serverStatements(), s.deltaPct(), s.serverCpuS(), s.nodes(), s.statements(), u), u);
    }
  }

  public ServerReport withPhase(String name, Phase phase) {
    Map<String, Phase> p = new LinkedHashMap<>(phases);
    p.put(name, phase);
    return new ServerReport(format, source, p);
  }

  /**
   * The phase between two snapshots. With {@code table}, the statements on it are audited: the
   * server's completed statements (rows for INSERT and COPY, which write several per call;
   * calls for the others) against the harness's completed operations (its successes, and its
   * reads, updates and deletes that found no row, which the server did execute). {@code issuedBy}
   * (the benchmark's statement texts to the operations issuing each; empty where it does not say)
   * names whose each kept statement is.
   */
  /**
   * A phase that has begun and not yet ended: the server's counters at its start, kept in
   * server.json at once, so that a client killed during the phase leaves where its window began
   * (a merge of its resumed load audits from there).
   */
  public static Phase begun(ServerView.Snapshot before, AuditedTables table) {
    Map<String, Long> counters = new LinkedHashMap<>(before.counters());
    if (table != null && !before.statements().isEmpty()) {
      counters.put(AUDITED, completedStatements(before.statements(), table));
    }
    return new Phase(counters, null, null, null, null, null, null, null);
  }

  public static Phase phase(ServerView.Snapshot before, ServerView.Snapshot after, PhaseResult result,
      AuditedTables table,
      Map<String, ? extends Collection<String>> issuedBy) {
    Map<String, Long> delta = new LinkedHashMap<>();
    after.counters().forEach((k, v) -> delta.put(k, v - before.counters().getOrDefault(k, 0L)));
    Map<String, ServerView.StatementCount> statements = new LinkedHashMap<>();
    after.statements().forEach((query, s) -> {
      ServerView.StatementCount b = before.statements().getOrDefault(query, ServerView.StatementCount.none(s));
      if (s.calls() > b.calls()) {
        statements.put(query, s.minus(b));
      }
    });
    Long harness = null;
    Long server = null;
    Double deltaPct = null;
    Map<String, Long> beforeCounters = new LinkedHashMap<>(before.counters());
    Map<String, Long> afterCounters = new LinkedHashMap<>(after.counters());
    Map<String, String> unavailable = new LinkedHashMap<>(before.unavailable());
    unavailable.putAll(after.unavailable());
    if (table != null && !before.statements().isEmpty() && !after.statements().isEmpty()
        && !unavailable.containsKey(ServerView.AUDIT)) {
      harness = completedOperations(result, writesCountedInRows(statements, table));
      server = completedStatements(statements, table);
      deltaPct = deltaPct(harness, server);
      beforeCounters.put(AUDITED, completedStatements(before.statements(), table));
      afterCounters.put(AUDITED, completedStatements(after.statements(), table));
    } else if (table != null && !unavailable.containsKey(ServerView.AUDIT)) {
      String why = unavailable.get(ServerView.STATEMENTS);
      unavailable.put(ServerView.AUDIT, "no count of the server's statements on " + table + " to audit against ("
          + (why != null ? "statements unavailable" : "the server's view has no statements") + ")");
    }
    Double serverCpuS = after.cpuNanos() == null || before.cpuNanos() == null ? null
        : Math.round((after.cpuNanos() - before.cpuNanos()) / 1e6) / 1000.0;
    List<NodeRates> nodes = ServerView.nodeRates(before, after, (after.takenNanos() - before.takenNanos()) / 1e9);
    WaitProfile waits = after.waits();
    if (waits != null && waits.unavailable() != null) {
      unavailable.put(ServerView.WAITS, waits.unavailable());
    }
    Map<String, String> missing = unavailable.isEmpty() ? null : unavailable;
    return new Phase(beforeCounters, afterCounters, delta, statements, waits, nodes.isEmpty() ? null : nodes,
        new PhaseResult.ServerSide(harness, server, deltaPct, serverCpuS,
            nodes.isEmpty() ? null : nodes, top(statements, issuedBy, waits), missing), missing);
  }

  /** The statements summary.json keeps per phase, the most time first: enough for TPC-C's 35 and more. */
  static final int TOP_STATEMENTS = 50;

  /**
   * The benchmark's statements with the most server time in the phase (the harness's own reading
   * of the server left out), each with the operations issuing it where {@code issuedBy} says;
   * null when the server does not time its statements.
   */
  static List<PhaseResult.Statement> top(Map<String, ServerView.StatementCount> statements,
      Map<String, ? extends Collection<String>> issuedBy, WaitProfile waits) {
    // Matched on their texts made alike: the server shows $1 where the client sent ? or 1.
    Map<String, TreeSet<String>> byText = new LinkedHashMap<>();
    issuedBy.forEach((sql, ops) -> byText.computeIfAbsent(canonical(sql), k -> new TreeSet<>()).addAll(ops));
    List<PhaseResult.Statement> out = statements.entrySet().stream()
        .filter(e -> e.getValue().timeMs() != null && e.getValue().calls() > 0 && isBenchmarkStatement(e.getKey()))
        .sorted(Comparator.comparingDouble((Map.Entry<String, ServerView.StatementCount> e) -> e.getValue().timeMs())
            .reversed().thenComparing(Map.Entry::getKey))
        .limit(TOP_STATEMENTS)
        .map(e -> {
          ServerView.StatementCount c = e.getValue();
          TreeSet<String> ops = byText.get(canonical(e.getKey()));
          return new PhaseResult.Statement(e.getKey(), c.calls(), c.rows(), c.timeMs(),
              Math.round(1000.0 * c.timeMs() / c.calls() * 100) / 100.0, c.blksHit(), c.blksRead(),
              percentileUs(c.latencyHistogram(), 50), percentileUs(c.latencyHistogram(), 99),
              ops == null ? null : List.copyOf(ops), perCall(c.work(), c.calls()),
              waits == null || waits.statements() == null ? null : waits.statements().get(e.getKey()));
        }).toList();
    return out.isEmpty() ? null : out;
  }

  /**
   * Each counter of a statement's work that moved, divided by its calls, to four significant
   * digits (server.json keeps every counter; one left out here was 0); null without counters.
   */
  static Map<String, Double> perCall(Map<String, Double> work, long calls) {
    if (work == null || calls <= 0) {
      return null;
    }
    Map<String, Double> out = new TreeMap<>();
    work.forEach((k, v) -> {
      if (v != 0) {
        out.put(k, new BigDecimal(v / calls).round(new MathContext(4)).doubleValue());
      }
    });
    return out;
  }

  /**
   * A percentile of the server's buckets in µs; null without buckets or executions, or beyond the
   * buckets' range (the open bucket: its bound is not a latency).
   */
  static Double percentileUs(LatencyBuckets buckets, double percentile) {
    double ms = buckets == null ? Double.NaN : buckets.percentileMs(percentile);
    return Double.isFinite(ms) ? Math.round(ms * 1000 * 100) / 100.0 : null;
  }

  /**
   * Begins a statement the harness sends itself on the benchmark's tables, such as a probe of their
   * size before a run: not the benchmark's, so not audited. A fleet's clients probe at their own
   * start, which may fall inside the window another client already opened. The statement must not
   * share its shape with one the benchmark sends, or pg_stat_statements keeps both under one text.
   */
  public static final String NOT_AUDITED = "/* ybbench: not audited */ ";

  private static final String NOT_AUDITED_UPPER = NOT_AUDITED.strip().toUpperCase(Locale.ROOT);
  /** The harness's own reading of the server (its views, table claims, this plan capture, its probes). */
  private static final Pattern OWN = Pattern.compile("ybbench: not audited|pg_stat_|pg_locks|pg_advisory"
      + "|pg_backend_pid|pg_extension|pg_database|pg_settings|pg_prepared_statements|to_regclass|version\\(\\)",
      Pattern.CASE_INSENSITIVE);
  /** What a benchmark runs: queries, writes and transaction control (setup, SET and EXPLAIN are not). */
  private static final Pattern BENCHMARK = Pattern.compile("^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH|COPY|VALUES|BEGIN"
      + "|START|COMMIT|END|ROLLBACK|CALL)\\b", Pattern.CASE_INSENSITIVE);

  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\d+|\\?|\\b\\d+(\\.\\d+)?\\b");

  /**
   * A statement's text as the client sends it ({@code ?} parameters, literal numbers) and as the
   * server's statistics normalize it ({@code $1}, constants too), made the same: every parameter
   * and number a {@code ?}, whitespace collapsed.
   */
  public static String canonical(String sql) {
    return PLACEHOLDER.matcher(sql.replaceAll("\\s+", " ").strip()).replaceAll("?");
  }

  /** Whether a statement the server counted is the benchmark's work rather than the harness's or setup. */
  public static boolean isBenchmarkStatement(String query) {
    return BENCHMARK.matcher(query).find() && !OWN.matcher(query).find();
  }

  /**
   * Statements on the table that are not the benchmark's operations: its schema, and the plans the
   * harness reads after a phase (EXPLAIN, or PREPARE before PostgreSQL 16), which land inside the
   * window of a fleet's client still running.
   */
  private static final Pattern UTILITY = Pattern.compile("^(CREATE|DROP|ALTER|TRUNCATE|COMMENT|EXPLAIN|PREPARE"
      + "|DEALLOCATE|ANALYZE|VACUUM)\\b");

  /** How far the server's count is from the harness's, in % of the harness's (0 when both are 0). */
  public static double deltaPct(long harness, long server) {
    return harness == 0 ? 0.0 : Math.round(10000.0 * (server - harness) / harness) / 100.0;
  }

  /**
   * The harness's side of the audit. An operation written in batch statements counts its rows
   * where the server counts the rows its writes touched (pg_stat_statements' COPY and INSERT), and
   * its batch statements where the server counts requests (Cassandra coordinates a LOGGED batch as
   * one write).
   */
  static long completedOperations(PhaseResult result, boolean writesInRows) {
    if (result.auditedStatements() != null) {
      return result.auditedStatements(); // operations of several statements each: the statements
    }
    long n = 0;
    for (Map.Entry<String, OperationResult> e : result.operations().entrySet()) {
      OperationResult op = e.getValue();
      OperationResult batches = writesInRows || result.batches() == null ? null : result.batches().get(e.getKey());
      n += (batches == null ? op.successes() : batches.successes()) + op.errorsByClass().getOrDefault("NOT_FOUND", 0L);
    }
    return n;
  }

  /** Whether the server counts the rows of the writes on the table (a COPY's or INSERT's), not its requests. */
  static boolean writesCountedInRows(Map<String, ServerView.StatementCount> statements, AuditedTables table) {
    Pattern onTable = table.pattern();
    return statements.keySet().stream().anyMatch(q -> onTable.matcher(q).find() && countsRows(q));
  }

  private static boolean countsRows(String statement) {
    String q = statement.strip().toUpperCase(Locale.ROOT);
    return q.startsWith("INSERT") || q.startsWith("COPY");
  }

  static long completedStatements(Map<String, ServerView.StatementCount> statements, AuditedTables table) {
    Pattern onTable = table.pattern();
    long n = 0;
    for (Map.Entry<String, ServerView.StatementCount> e : statements.entrySet()) {
      String q = e.getKey().strip().toUpperCase(Locale.ROOT);
      if (!onTable.matcher(e.getKey()).find() || UTILITY.matcher(q).find() || q.startsWith(NOT_AUDITED_UPPER)) {
        continue;
      }
      n += countsRows(q) ? e.getValue().rows() : e.getValue().calls();
    }
    return n;
  }
}
