package dev.ybbench.harness.run;

import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Whether a phase's figures can stand for what was asked. A run whose server died early, whose
 * table was missing or half loaded, measures something, but not the database's performance:
 * people ship or block releases on these numbers, so such a run says {@code failed}.
 */
public final class PhaseCheck {
  /** YCSB's name for a read, update or delete that found no row. */
  static final String NOT_FOUND = "NOT_FOUND";

  /**
   * @param maxErrorPct  failed operations allowed, as a percentage of the phase's operations
   * @param maxOutagePct time the server may be unreachable, as a percentage of the phase's window
   * @param maxAbortPct  operations that ended on a conflict after their retries, as a percentage of
   *                     the phase's operations: contention is what a database does under load, so
   *                     the default is high; a run where most transactions abort measures little
   */
  public record Limits(double maxErrorPct, double maxOutagePct, double maxAbortPct) {
    public static final Limits DEFAULT = new Limits(1, 10, 50);
  }

  private PhaseCheck() {}

  /** Null when the phase stands, else why not, in one line. Phases without operations (a COPY load) stand. */
  public static String problem(String phase, PhaseResult p, Limits limits) {
    if (p.operations() == null || p.operations().isEmpty()) {
      for (Map.Entry<String, String> check : p.checks() == null ? Map.<String, String>of().entrySet()
          : p.checks().entrySet()) {
        if (!check.getValue().equals(PhaseResult.PASS)) {
          return "the " + check.getKey() + " check failed after the " + phase + " phase: " + check.getValue();
        }
      }
      return p.rows() != null ? null : "no operation completed in the " + phase + " phase";
    }
    for (Map.Entry<String, OperationResult> e : p.operations().entrySet()) {
      long notFound = e.getValue().errorsByClass().getOrDefault(NOT_FOUND, 0L);
      if (notFound * 2 > e.getValue().attempts()) {
        return String.format(Locale.ROOT, "most %s operations of the %s phase found no row (%d of %d): the table "
            + "holds fewer records than the workload's recordcount; load it (--phase load or both) or lower "
            + "--records", e.getKey(), phase, notFound, e.getValue().attempts());
      }
    }
    long attempts = p.successes() + p.errors() + p.aborts();
    if (p.successes() == 0) {
      return attempts == 0 ? "no operation completed in the " + phase + " phase"
          : "no successful operation in the " + phase + " phase (" + (p.errors() > 0 ? p.errors() + " failed: "
              + classes(p, OperationResult::errorsByClass) : "") + (p.errors() > 0 && p.aborts() > 0 ? "; " : "")
              + (p.aborts() > 0 ? p.aborts() + " aborted: " + classes(p, OperationResult::abortsByClass) : "") + ")";
    }
    double errorPct = 100.0 * p.errors() / attempts;
    if (errorPct > limits.maxErrorPct()) {
      return String.format(Locale.ROOT, "%.1f %% of the %s phase's operations failed (%d of %d: %s), above "
          + "--max-error-pct %s", errorPct, phase, p.errors(), attempts, classes(p, OperationResult::errorsByClass),
          number(limits.maxErrorPct()));
    }
    double abortPct = 100.0 * p.aborts() / attempts;
    if (abortPct > limits.maxAbortPct()) {
      return String.format(Locale.ROOT, "%.1f %% of the %s phase's operations aborted on conflicts after their "
          + "retries (%d of %d: %s), above --max-abort-pct %s", abortPct, phase, p.aborts(), attempts,
          classes(p, OperationResult::abortsByClass), number(limits.maxAbortPct()));
    }
    double outagePct = p.durationS() > 0 ? 100.0 * p.outageSeconds() / p.durationS() : 0;
    if (outagePct > limits.maxOutagePct()) {
      return String.format(Locale.ROOT, "the server was unreachable for %.1f s of the %s phase's %.1f s (%.0f %%), "
          + "above --max-outage-pct %s", p.outageSeconds(), phase, p.durationS(), outagePct,
          number(limits.maxOutagePct()));
    }
    return null;
  }

  /** "connection 812, sqlstate-42P01 3": error (or abort) classes over all operations, most frequent first. */
  static String classes(PhaseResult p, Function<OperationResult, Map<String, Long>> byClassOf) {
    Map<String, Long> byClass = new TreeMap<>();
    p.operations().values().stream().map(byClassOf).filter(Objects::nonNull)
        .forEach(m -> m.forEach((k, v) -> byClass.merge(k, v, Long::sum)));
    return byClass.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(3)
        .map(e -> e.getKey() + " " + e.getValue())
        .collect(Collectors.joining(", "));
  }

  static String number(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
