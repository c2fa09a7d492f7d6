package dev.ybbench.pgbench;

import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunFailure;
import dev.ybbench.harness.server.AuditedTables;
import dev.ybbench.harness.server.ServerReport;
import dev.ybbench.harness.ysql.SqlTarget;
import dev.ybbench.pgbench.core.PgbenchLoader;
import dev.ybbench.pgbench.core.PgbenchSchema;
import dev.ybbench.pgbench.core.PgbenchScripts;
import dev.ybbench.pgbench.engine.PgbenchLive;
import dev.ybbench.pgbench.engine.PgbenchLog;
import dev.ybbench.pgbench.engine.PgbenchProcess;
import dev.ybbench.pgbench.engine.PgbenchReport;
import dev.ybbench.pgbench.engine.PgbenchResults;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/**
 * A pgbench run's phases in order: pgbench -i alone; or pgbench -i first, where the tables are
 * missing on the embedded server or are missing or of another scale than -s asks; then pgbench's
 * run, recorded as the phase "run".
 */
final class PgbenchPhases {
  private PgbenchPhases() {}

  /** @param scale the tables' scale as found before the run (pgbench_branches' rows), or null when they are missing */
  static void run(Run run, PgbenchPlan plan, SqlTarget target, Integer scale) throws Exception {
    boolean otherScale = scale != null && plan.scaleGiven() && scale != plan.scale();
    if (plan.initialize() || scale == null || otherScale) {
      if (otherScale) {
        run.console().line("note: " + plan.binary().tablePrefix() + "branches holds scale " + scale + ", and -s "
            + plan.scale() + " was asked: the tables are initialized again first");
      } else if (!plan.initialize()) {
        if (!plan.server().embedded() && !plan.scaleGiven()) {
          throw new RunFailure(plan.tables().get(0) + " is missing: initialize the tables first (./run_pgbench.sh -i "
              + "-s N …), or give -s N to initialize them before the run");
        }
        run.console().line("note: " + (plan.server().embedded() ? "the embedded server starts empty" : plan.tables()
            .get(0) + " is missing") + ": the tables are initialized first");
      }
      initialize(run, plan, target);
      if (plan.initialize() || run.interrupted()) {
        return;
      }
    }
    target.shareTables();
    if (plan.audited()) {
      run.auditTables(new AuditedTables(plan.tables()), plan.clients());
    } else {
      run.console().line("note: a script branches (\\if), so its statements a transaction are not known: the "
          + "server's count of them is not audited");
    }
    measure(run, plan, target);
  }

  /**
   * pgbench -i, recorded as the phase "init" in rows (its accounts, tellers and branches). On
   * YugabyteDB with PostgreSQL's pgbench, whose -i makes PostgreSQL's tables (a fill factor, COPY
   * FREEZE, keys added after the load), ybbench creates and loads YSQL's tables itself.
   */
  private static void initialize(Run run, PgbenchPlan plan, SqlTarget target) throws Exception {
    if (target.server().isYugabyte() && !plan.binary().ysql()) {
      PgbenchSchema schema = plan.ysqlSchema();
      run.console().line("Initializing YSQL's tables (" + (schema.range() ? "range" : "hashed") + " keys"
          + (schema.tablets() > 0 ? ", " + schema.tablets() + " tablets each" : "") + ", scale " + schema.scale()
          + ", steps " + plan.initSteps() + ")");
      run.beginPhase("init");
      long start = System.nanoTime();
      long rows = new PgbenchLoader(schema, plan.initSteps(), plan.quiet(), run.console()::line)
          .load(target.endpoint(), run::interrupted);
      PhaseResult result = PhaseResult.ofRows(rows, Math.max((System.nanoTime() - start) / 1e9, 0.001), null, null);
      if (run.interrupted()) {
        run.keep("init", result);
      } else {
        run.record("init", result);
      }
      return;
    }
    List<String> command = plan.initCommand(target.endpoint());
    run.console().line("Initializing: " + String.join(" ", command));
    run.beginPhase("init");
    long start = System.nanoTime();
    PgbenchProcess.Outcome out = PgbenchProcess.run(command, target.endpoint(), 0, true, run.console()::line,
        run::onStop);
    double seconds = Math.max((System.nanoTime() - start) / 1e9, 0.001);
    long rows = run.interrupted() || out.exitCode() != 0 ? 0 : loaded(target, plan);
    PhaseResult result = PhaseResult.ofRows(rows, seconds, null, null);
    if (run.interrupted()) {
      run.keep("init", result);
      return;
    }
    if (out.exitCode() != 0) {
      run.keep("init", result);
      throw new RunFailure(plan.binary().name() + " -i exited with " + out.exitCode() + last(out.report()));
    }
    run.record("init", result);
  }

  /** The rows -i loaded, counted: accounts, tellers and branches (history starts empty). */
  private static long loaded(SqlTarget target, PgbenchPlan plan) throws SQLException {
    long rows = 0;
    try (Connection c = target.endpoint().connect(); Statement s = c.createStatement()) {
      for (String t : plan.tables()) {
        try (ResultSet r = s.executeQuery("SELECT count(*) FROM " + t)) {
          r.next();
          rows += r.getLong(1);
        }
      }
    }
    return rows;
  }

  /** pgbench's run, recorded as the phase "run"; its log read into the results and then removed. */
  private static void measure(Run run, PgbenchPlan plan, SqlTarget target) throws Exception {
    Path logDir = run.directory().path().resolve("pgbench-log");
    Files.createDirectories(logDir);
    List<String> command = plan.runCommand(target.endpoint(), logDir.toString());
    run.console().line("Running " + String.join(" ", command));
    run.beginPhase("run");
    long origin = System.currentTimeMillis();
    PgbenchLive live = run.servedLive() ? new PgbenchLive("run", plan.scripts().stream().map(
        PgbenchScripts.Script::name).toList(), plan.rate(), plan.binary().ysql(), run.timeseries()) : null;
    PgbenchLog.Follower follower = new PgbenchLog.Follower(logDir, PgbenchPlan.LOG_PREFIX, plan.scripts().size(),
        plan.rate() != null, origin, live);
    PgbenchProcess.Outcome out;
    PgbenchLog log;
    try {
      if (live != null) {
        live.follow(follower);
      }
      out = PgbenchProcess.run(command, target.endpoint(), plan.progressS(), plan.runOptions().contains("-r"),
          run.console()::line, run::onStop);
      if (live != null) {
        live.stopFollowing();
      }
      log = follower.finish(); // the rest, into the live counters too
    } finally {
      if (live != null) {
        live.close(); // the live phase's totals final: the results' counts
      }
    }
    measured(run, plan, out, log, origin, logDir);
  }

  /** The run's results from pgbench's report and its log, recorded (or kept, when it cannot stand). */
  private static void measured(Run run, PgbenchPlan plan, PgbenchProcess.Outcome out, PgbenchLog log, long origin,
      Path logDir) throws Exception {
    double fallback = (System.currentTimeMillis() - origin) / 1000.0;
    PhaseResult result = PgbenchResults.phase(log, out.report(), plan.scripts(), "run", origin, plan.rate() != null,
        plan.seconds() > 0, plan.binary().ysql(), plan.setupStatements(), fallback, run.directory().latencyDir(),
        run.timeseries());
    result = result.toBuilder().headline(new PhaseResult.Figure("tps", "tps", result.throughputOps(), true, null))
        .build();
    said(run, result);
    if (plan.audited() && result.auditedStatements() == null) {
      run.notAudited("tries of transactions failed, and which of their statements completed is not known: " + (
          plan.seconds() > 0 ? "when -T's time is up, pgbench drops the transaction a session is in if a try of it "
              + "then fails, its statements counted nowhere (a run of -t N is audited exactly)"
              : out.report().commands(0) == null ? "pgbench printed no report of its commands"
              : "pgbench's report of each command counts other failures or retries than its log (its -j threads add "
              + "them up without a lock)"));
    }
    String failure = run.interrupted() ? null : failure(out, log);
    if (failure != null || run.interrupted()) {
      run.keep("run", result);
    } else {
      run.record("run", result);
      removeLog(logDir); // read whole into the results; kept when the run could not stand, to see why
    }
    if (failure != null) {
      throw new RunFailure(failure);
    }
  }

  /**
   * What was recorded, after pgbench's report: a line per script, e.g. "Recorded (run): tpcb-like
   * 4973 transactions, 995.9 tps, latency p50 1.710 ms, p99 6.819 ms from the actual start; 0
   * failed, 0 retries".
   */
  private static void said(Run run, PhaseResult p) {
    p.operations().forEach((script, op) -> run.console().line(String.format(Locale.ROOT, "Recorded (run): %s %d "
            + "transactions, %.1f tps%s; %d failed, %d retries", script, op.successes(), op.throughputOps(),
        op.latencyUs() == null ? ", no latency" : String.format(Locale.ROOT, ", latency p50 %.3f ms, p99 %.3f ms "
            + "from the %s", op.latencyUs().p50() / 1000.0, op.latencyUs().p99() / 1000.0, p.latencyFrom()),
        op.aborts() + op.errors(), op.retries())));
  }

  /** Why pgbench's run cannot stand, or null. */
  static String failure(PgbenchProcess.Outcome out, PgbenchLog log) {
    PgbenchReport r = out.report();
    if (out.exitCode() != 0 || r.aborted()) {
      return "pgbench exited with " + out.exitCode() + (r.aborted() ? ", a session aborted" : "") + last(r);
    }
    PgbenchReport.Totals t = r.totals();
    if (t == null) {
      return "pgbench printed no report" + last(r);
    }
    if (t.processed() != log.successes()) {
      return "pgbench reported " + t.processed() + " transactions and its log holds " + log.successes()
          + ": the latency would not be every transaction's";
    }
    return null;
  }

  private static String last(PgbenchReport r) {
    return r.errors().isEmpty() ? "" : ": " + r.errors().get(0);
  }

  private static void removeLog(Path logDir) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(logDir)) {
      for (Path f : files) {
        Files.delete(f);
      }
    }
    Files.delete(logDir);
  }

  /** The tables' scale (pgbench_branches' rows), or null when they are missing. */
  static Integer scale(SqlTarget target, PgbenchPlan plan) throws SQLException {
    String branches = plan.binary().tablePrefix() + "branches";
    if (!target.endpoint().tableExists(branches) || !target.endpoint().tableExists(plan.tables().get(0))) {
      return null;
    }
    try (Connection c = target.endpoint().connect(); Statement s = c.createStatement()) {
      // count(bid), not pgbench's own count(*): a statement of another shape, kept apart by the server
      try (ResultSet r = s.executeQuery(ServerReport.NOT_AUDITED + "SELECT count(bid) FROM " + branches)) {
        r.next();
        return r.getInt(1);
      }
    }
  }
}
