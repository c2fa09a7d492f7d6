package dev.ybbench.sysbench;

import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunFailure;
import dev.ybbench.harness.server.AuditedTables;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.harness.ysql.SqlTarget;
import dev.ybbench.sysbench.core.SysbenchLoader;
import dev.ybbench.sysbench.core.SysbenchSchema;
import dev.ybbench.sysbench.engine.SysbenchProcess;
import dev.ybbench.sysbench.engine.SysbenchReport;
import dev.ybbench.sysbench.engine.SysbenchResults;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A sysbench run's phases in order: cleanup alone; or prepare (by ybbench: create, COPY, index)
 * when asked or when the tables are missing or of another shape, then sysbench's warm-up and
 * measured run, each recorded as a phase.
 */
final class SysbenchPhases {
  private SysbenchPhases() {}

  static void run(Run run, SysbenchPlan plan, SqlTarget target) throws Exception {
    Console console = run.console();
    SysbenchSchema schema = plan.schema(SqlDialect.of(target.server()));
    if ("cleanup".equals(plan.command())) {
      execute(target, java.util.stream.IntStream.rangeClosed(1, schema.tables()).mapToObj(schema::dropTable).toList());
      console.line("Dropped " + schema.tables() + (schema.tables() == 1 ? " table" : " tables"));
      return;
    }
    boolean prepared = prepared(target, schema, plan.rows());
    boolean prepare = "prepare".equals(plan.command()) || !prepared;
    if ("run".equals(plan.command()) && !prepared) {
      if (plan.server().embedded()) {
        console.line("note: the embedded server starts empty: the tables are prepared first");
      } else {
        throw new RunFailure("sbtest1 … sbtest" + schema.tables() + " are missing or not as asked (" + schema.shape(
            plan.rows()) + "): prepare them first (./run_sysbench.sh " + plan.test().name() + " prepare …), or "
            + "leave out 'run'");
      }
    } else if (prepared && plan.command() == null) {
      console.line("Found " + schema.tables() + (schema.tables() == 1 ? " table" : " tables") + " of " + plan.rows()
          + " rows prepared earlier: skipping prepare (runs since may have changed their rows; 'prepare' loads "
          + "them again)");
    }
    if (prepare) {
      run.beginPhase("prepare");
      long start = System.nanoTime();
      long rows = new SysbenchLoader(schema, plan.rows(), plan.distribution(), plan.seed(), console::line)
          .load(target.endpoint(), plan.threads(), run::interrupted);
      run.record("prepare", PhaseResult.ofRows(rows, Math.max((System.nanoTime() - start) / 1e9, 0.001), null, null));
    }
    target.shareTables();
    if ("prepare".equals(plan.command()) || run.interrupted()) {
      return;
    }
    run.auditTables(new AuditedTables(schema.tableNames()), plan.clients());
    if (plan.warmup() > 0) {
      measure(run, plan, target, "warmup", plan.warmup(), false);
    }
    if (!run.interrupted()) {
      measure(run, plan, target, "run", plan.duration(), true);
    }
  }

  /** One sysbench run of {@code seconds}, recorded as {@code phase} (a warm-up kept, not judged). */
  private static void measure(Run run, SysbenchPlan plan, SqlTarget target, String phase, int seconds,
      boolean measured) throws Exception {
    List<String> command = SysbenchProcess.command(plan.binary(), plan.test().name(), target.endpoint(),
        plan.sysbenchOptions(seconds, measured));
    run.console().line("Running " + (measured ? "" : "the warm-up: ") + String.join(" ", command));
    if (measured) {
      run.beginPhase(phase);
    }
    long start = System.currentTimeMillis();
    SysbenchProcess.Outcome out = SysbenchProcess.run(command, target.endpoint(), plan.reportInterval(),
        plan.histogram(), run.console()::line, run::onStop);
    PhaseResult result = SysbenchResults.phase(out.report(), plan.begins(), phase, start,
        run.directory().latencyDir(), run.timeseries());
    String failure = run.interrupted() ? null : failure(out);
    if (!measured || failure != null) {
      run.keep(phase, result);
    } else {
      run.record(phase, result);
    }
    if (failure != null) {
      throw new RunFailure(failure);
    }
  }

  /** Why sysbench's run cannot stand, or null. */
  static String failure(SysbenchProcess.Outcome out) {
    SysbenchReport r = out.report();
    if (!r.fatal().isEmpty()) {
      return "sysbench failed: " + r.fatal().get(0);
    }
    if (out.exitCode() != 0) {
      return "sysbench exited with " + out.exitCode();
    }
    return r.statistics() == null ? "sysbench printed no final statistics" : null;
  }

  /** Whether sbtest1 carries the mark of a prepare of this shape (written once all tables were loaded). */
  private static boolean prepared(SqlTarget target, SysbenchSchema schema, long rows) throws SQLException {
    try (Connection c = target.endpoint().connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT obj_description(to_regclass('" + SysbenchSchema.table(1)
            + "'), 'pg_class')")) {
      return r.next() && schema.shape(rows).equals(r.getString(1));
    }
  }

  private static void execute(SqlTarget target, List<String> ddl) throws SQLException {
    try (Connection c = target.endpoint().connect(); Statement s = c.createStatement()) {
      for (String d : ddl) {
        s.execute(d);
      }
    }
  }
}
