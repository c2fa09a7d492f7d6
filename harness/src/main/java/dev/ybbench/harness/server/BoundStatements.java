package dev.ybbench.harness.server;

import dev.ybbench.harness.sql.Placeholders;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One parameter set per statement that the workload really bound in the run, for the plan that
 * ran ({@link StatementPlans}: EXPLAIN ANALYZE after the phase). A binding keeps each statement
 * once, as it executes it: the driver renders it with its parameters (pgjdbc's, and so the
 * YugabyteDB driver's, {@code PreparedStatement.toString()} writes each bound parameter as a
 * literal in its place). Kept per process, as the statements' issuers are: a run clears them as it
 * starts; a fleet's clients are processes of their own.
 */
public final class BoundStatements {
  private static final Map<String, String> BY_TEXT = new ConcurrentHashMap<>();

  private BoundStatements() {}

  /**
   * Keeps {@code ps}, its parameters bound, as {@code sql}'s — the first time only: a lookup
   * per execution after that. A driver that does not render a statement with its parameters (its
   * text the same as {@code sql}, or another statement's) gives none.
   */
  public static void keep(String sql, PreparedStatement ps) {
    if (BY_TEXT.containsKey(sql)) {
      return;
    }
    String bound = ps.toString();
    if (bound != null && !bound.equals(sql) && firstWord(bound).equals(firstWord(sql))) {
      BY_TEXT.putIfAbsent(sql, bound);
    }
  }

  /**
   * Keeps {@code sql} (its parameters JDBC's {@code ?}) with {@code params} written as literals in
   * their places — the first time only: for a driver that does not render a statement itself
   * (Vert.x's). Numbers stand as they are; anything else is quoted as a SQL string.
   */
  public static void keep(String sql, Supplier<List<?>> params) {
    if (BY_TEXT.containsKey(sql)) {
      return;
    }
    BY_TEXT.putIfAbsent(sql, render(sql, params.get()));
  }

  /** {@code sql} with its {@code ?} outside quotes replaced by {@code params} as literals. */
  static String render(String sql, List<?> params) {
    return Placeholders.replace(sql, n -> {
      if (n >= params.size()) {
        return "?";
      }
      Object v = params.get(n);
      return v instanceof Number ? v.toString() : "'" + String.valueOf(v).replace("'", "''") + "'";
    });
  }

  private static String firstWord(String sql) {
    String s = sql.stripLeading();
    int end = 0;
    while (end < s.length() && Character.isLetter(s.charAt(end))) {
      end++;
    }
    return s.substring(0, end).toUpperCase(Locale.ROOT);
  }

  /** The statement the server normalized as {@code normalized}, as the run bound it; null when none was kept. */
  static String of(String normalized) {
    String key = ServerReport.canonical(normalized);
    for (Map.Entry<String, String> e : BY_TEXT.entrySet()) {
      if (ServerReport.canonical(e.getKey()).equals(key)) {
        return e.getValue();
      }
    }
    return null;
  }

  /** A run starts: the statements another run bound in this process are not its own. */
  public static void clear() {
    BY_TEXT.clear();
  }
}
