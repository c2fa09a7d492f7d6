package dev.ybbench.pgbench.engine;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ybbench.harness.metrics.OperationMetrics;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.pgbench.core.PgbenchScripts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/**
 * A pgbench run as a phase of the results contract. Each script is an operation, named as the
 * script ({@code tpcb-like}, a file's name), its transactions its successes; the latency is every
 * transaction's from pgbench's own log, from the intended start under {@code -R} as pgbench
 * measures it (the actual start's beside it). Transactions that failed on every try (PostgreSQL 15's
 * {@code --max-tries}: serialization failures and deadlocks) are aborts, as ybbench's own
 * engines count them; any other failure (ysql_bench goes on after one) is an error. The phase's
 * time is pgbench's own, from its report ({@code tps = …}, which leaves out connecting): so the
 * throughput is pgbench's tps. Skipped ({@code -L} under {@code -R}) and late transactions, and
 * pgbench's own counts, are kept under {@value #KEY}.
 */
public final class PgbenchResults {
  private PgbenchResults() {}

  /** The phase's extension: pgbench's own figures. */
  public static final String KEY = "pgbench";

  /** pgbench's figures beside the contract's: its report's counts, the scripts, and lines of its log left out. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Figures(long processed, double tps, long skipped, long late, long retried, List<Map<String, Object>> scripts,
      long logLinesCut) {}

  /**
   * The phase, its latency written to {@code latencyDir} (one interval a second per script) and
   * its seconds to {@code ts}.
   *
   * @param setupStatements statements pgbench completes on the tables besides its transactions (its
   *                        count of pgbench_branches when a built-in runs)
   * @param timed           a run of -T seconds (not of -t transactions)
   * @param ysql            ysql_bench's log: a "failed" transaction is any error, not a lost race
   * @param fallbackSeconds the phase's time when pgbench printed no report (it was ended)
   */
  public static PhaseResult phase(PgbenchLog log, PgbenchReport report, List<PgbenchScripts.Script> scripts,
      String phase, long originMs, boolean rate, boolean timed, boolean ysql, long setupStatements,
      double fallbackSeconds, Path latencyDir, Timeseries ts) throws IOException {
    PgbenchReport.Totals totals = report.totals();
    double seconds = totals != null && totals.tps() > 0 ? totals.processed() / totals.tps()
        : log.lastMillis() > originMs ? (log.lastMillis() - originMs) / 1000.0 : fallbackSeconds;
    seconds = Math.max(seconds, 0.001);
    Map<String, OperationResult> ops = new LinkedHashMap<>();
    List<Map<String, Object>> perScript = new ArrayList<>();
    boolean audited = true;
    long onTables = setupStatements;
    for (int i = 0; i < scripts.size(); i++) {
      PgbenchScripts.Script s = scripts.get(i);
      PgbenchLog.Script t = log.scripts().get(i);
      String op = s.name();
      Histogram total = write(latencyDir, phase, op, t.intended, originMs);
      Histogram actual = rate ? write(latencyDir.resolve(PhaseRecorder.ACTUAL_DIR), phase, op, t.actual, originMs)
          : null;
      Map<String, Long> aborts = new TreeMap<>();
      Map<String, Long> errors = new TreeMap<>();
      t.failures.forEach((kind, n) -> {
        String outcome = outcome(kind, ysql);
        if (outcome.startsWith(OperationMetrics.ABORT_PREFIX)) {
          aborts.merge(outcome.substring(OperationMetrics.ABORT_PREFIX.length()), n, Long::sum);
        } else {
          errors.merge(outcome, n, Long::sum);
        }
      });
      long errorCount = errors.values().stream().mapToLong(Long::longValue).sum();
      OperationResult r = new OperationResult(t.successes, errorCount, errors, t.retries,
          PhaseResult.round(t.successes / seconds), total.getTotalCount() == 0 ? null : LatencyPercentiles.of(total),
          actual == null || actual.getTotalCount() == 0 ? null : LatencyPercentiles.of(actual), null, null);
      ops.put(op, aborts.isEmpty() ? r : r.withAborts(aborts));
      Map<String, Object> figures = new LinkedHashMap<>();
      figures.put("name", op);
      figures.put("weight", s.weight());
      if (s.file() != null) {
        figures.put("file", s.file().toString());
      }
      figures.put("statements_on_tables", s.onTables() < 0 ? null : s.onTables());
      figures.put("skipped", t.skipped);
      figures.put("retried", t.retried);
      perScript.add(figures);
      long completed = completedOnTables(s, t, report.commands(i), timed);
      audited &= completed >= 0;
      onTables += Math.max(completed, 0);
    }
    timeseries(log, phase, ts);
    PhaseResult p = PhaseResult.ofOperations(ops, seconds, List.of()).toBuilder()
        .latencyFrom(rate ? PhaseResult.INTENDED_START : PhaseResult.ACTUAL_START)
        .auditedStatements(audited ? onTables : null)
        .extension(KEY, new Figures(totals == null ? log.successes() : totals.processed(),
            totals == null ? PhaseResult.round(log.successes() / seconds) : totals.tps(),
            log.scripts().stream().mapToLong(s -> s.skipped).sum(), totals == null ? -1 : totals.late(),
            log.scripts().stream().mapToLong(s -> s.retried).sum(), perScript, log.cut()))
        .build();
    return p;
  }

  /**
   * The statements on the tables a script's transactions completed, as the server counts them:
   * each success's, and of a transaction that failed or was retried part-way, those before the
   * command that failed — which -r's report of each command says (its failures and retries, pgbench
   * 15's), every try running the commands in order from the first until one fails. −1 when not
   * known: the script branches; or tries failed and the run was timed (-T), where pgbench drops the
   * transaction a session is in when the time is up if a try of it then fails, its completed
   * statements counted nowhere; or -r's counts are missing or disagree with the log.
   */
  static long completedOnTables(PgbenchScripts.Script s, PgbenchLog.Script t, List<PgbenchReport.Command> commands,
      boolean timed) {
    long failed = t.failures.values().stream().mapToLong(Long::longValue).sum();
    if (s.commands() == null) {
      return -1;
    }
    if (failed == 0 && t.retries == 0) {
      return t.successes * s.onTables();
    }
    if (timed || commands == null || commands.size() != s.commands().size()
        || commands.stream().anyMatch(c -> c.failures() < 0)
        || commands.stream().mapToLong(PgbenchReport.Command::failures).sum() != failed
        || commands.stream().mapToLong(c -> Math.max(c.retries(), 0)).sum() != t.retries) {
      return -1;
    }
    long reached = t.successes + failed + t.retries; // every try begins at the first command
    long completed = 0;
    for (int j = 0; j < commands.size(); j++) {
      reached -= commands.get(j).failures() + Math.max(commands.get(j).retries(), 0);
      if (s.commands().get(j)) {
        completed += reached;
      }
    }
    return completed;
  }

  /**
   * How a failed transaction of the log counts: an abort ({@link OperationMetrics#ABORT_PREFIX}, a
   * race lost to another transaction after its tries) or an error of a class. ysql_bench's
   * "failed" is any error.
   */
  public static String outcome(String kind, boolean ysql) {
    if (kind.equals("in_failed_tx")) {
      return "in-failed-transaction";
    }
    return ysql ? "error" : switch (kind) {
      case "serialization" -> OperationMetrics.ABORT_PREFIX + "sqlstate-40001";
      case "deadlock" -> OperationMetrics.ABORT_PREFIX + "sqlstate-40P01";
      case "failed" -> OperationMetrics.ABORT_PREFIX + RETRIED_CLASS;
      default -> "error";
    };
  }

  /** What pgbench retries: a serialization failure or a deadlock (its log does not say which). */
  public static final String RETRIED_CLASS = "sqlstate-40001-or-40P01";

  /** One script's seconds as an .hlog (an empty interval for a second without transactions); their sum. */
  private static Histogram write(Path dir, String phase, String op, TreeMap<Long, Histogram> bySecond, long originMs)
      throws IOException {
    Histogram total = new Histogram(3);
    List<Histogram> intervals = new ArrayList<>();
    long last = bySecond.isEmpty() ? -1 : bySecond.lastKey();
    for (long s = 0; s <= last; s++) {
      Histogram h = bySecond.getOrDefault(s, new Histogram(3));
      h.setStartTimeStamp(originMs + s * 1000);
      h.setEndTimeStamp(originMs + (s + 1) * 1000);
      intervals.add(h);
      total.add(h);
    }
    HlogFiles.writeIntervals(dir, phase, op, intervals);
    return total;
  }

  /** Each second of the phase: transactions completed, their p50/p95/p99, failures and retries. */
  private static void timeseries(PgbenchLog log, String phase, Timeseries ts) {
    TreeSet<Long> seconds = new TreeSet<>();
    for (PgbenchLog.Script s : log.scripts()) {
      seconds.addAll(s.intended.keySet());
      seconds.addAll(s.failedBySecond.keySet());
    }
    long last = seconds.isEmpty() ? -1 : seconds.last();
    for (long s = 0; s <= last; s++) {
      Histogram h = new Histogram(3);
      long failed = 0;
      long retries = 0;
      for (PgbenchLog.Script t : log.scripts()) {
        Histogram one = t.intended.get(s);
        if (one != null) {
          h.add(one);
        }
        failed += t.failedBySecond.getOrDefault(s, 0L);
        retries += t.retriesBySecond.getOrDefault(s, 0L);
      }
      boolean any = h.getTotalCount() > 0;
      ts.append(new Timeseries.Row(phase, s + 1, h.getTotalCount(), any ? h.getValueAtPercentile(50) : null,
          any ? h.getValueAtPercentile(95) : null, any ? h.getValueAtPercentile(99) : null, failed, retries));
    }
  }
}
