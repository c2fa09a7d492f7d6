package dev.ybbench.tpcc;

import dev.ybbench.harness.ysql.SqlTarget;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunFailure;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.tpcc.check.ConsistencyChecks;
import dev.ybbench.tpcc.core.TpccDatabase;
import dev.ybbench.tpcc.core.TpccFigures;
import dev.ybbench.tpcc.core.TpccMetrics;
import dev.ybbench.tpcc.core.TpccSchema;
import dev.ybbench.tpcc.core.WarehouseRange;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A TPC-C run's phases in order: create, load, execute (by the engine the runner chose), the
 * consistency check of clause 3.3.2, clear; those asked for, or with none, what is missing, then
 * execute and check. Then the works' table and charts.
 */
final class TpccPhases {
  private TpccPhases() {}

  /** @param config the database as the config names it, on the target */
  static void run(Run run, TpccPlan plan, TpccEngine engine, SqlTarget target, TpccDatabase config)
      throws Exception {
    Console console = run.console();
    TpccDatabase db = engine.open(config, console::line);
    WarehouseRange range = plan.range();
    run.recordFigures(TpccFigures.KEY, new TpccFigures.Run(range.count(), plan.config().terminals(), null));
    TpccPlan.Steps asked = plan.steps();
    boolean explicit = asked.any();
    boolean doCreate = asked.create();
    boolean doLoad = asked.load();
    if (!explicit) {
      long have = db.loadedWarehouses();
      doCreate = have < 0;
      doLoad = have != range.total();
      if (!doLoad) {
        console.line("Found " + have + " loaded warehouses: skipping create and load");
      } else if (have > 0) {
        doCreate = true; // a partial or different population: start over
        console.line("Found " + have + " loaded warehouses, not the " + range.total() + " asked for: dropping the "
            + "TPC-C tables to create and load them again");
      }
    }
    boolean doExecute = (asked.execute() || !explicit) && !run.interrupted();
    Map<String, PhaseResult> measured = engine.run(run, plan, target, db, doCreate, doLoad, doExecute);
    // Our single work has printed its own table; several works, or BenchBase's, get one here.
    report(run, plan, target, measured, !engine.ownTerminals() || plan.works().size() > 1);
    if ((asked.check() || !explicit) && !run.interrupted()) {
      check(run, plan, engine, db);
    }
    if (asked.clear()) {
      db.execute(new TpccSchema(SqlDialect.of(target.server()), 0).dropTables(), console::line, run::onStop);
    }
  }

  /** The consistency conditions, recorded; a failed one fails the run, unless the engine tolerates it. */
  private static void check(Run run, TpccPlan plan, TpccEngine engine, TpccDatabase db) throws SQLException {
    Console console = run.console();
    Map<String, TpccFigures.Condition> conditions = new LinkedHashMap<>();
    boolean all = true;
    for (ConsistencyChecks.Result r : ConsistencyChecks.run(db, run::onStop)) {
      console.line("Consistency " + r);
      conditions.put(r.condition().clause(), new TpccFigures.Condition(r.condition().statement(), r.passed(),
          r.passed() ? null : r.violations(), r.passed() ? null : r.firstOffender()));
      all &= r.passed();
    }
    run.recordFigures(TpccFigures.KEY, new TpccFigures.Run(plan.range().count(), plan.config().terminals(),
        new TpccFigures.Consistency(all, conditions)));
    List<String> failed = conditions.entrySet().stream().filter(e -> !e.getValue().pass())
        .map(Map.Entry::getKey).toList();
    TpccEngine.Tolerated tolerated = engine.tolerated();
    if (failed.stream().anyMatch(tolerated.conditions()::contains)) {
      console.line("Note: " + tolerated.why());
      failed = failed.stream().filter(c -> !tolerated.conditions().contains(c)).toList();
    }
    if (!failed.isEmpty()) {
      throw new RunFailure("consistency condition" + (failed.size() == 1 ? " " : "s ") + String.join(", ", failed)
          + " of clause 3.3.2 failed");
    }
  }

  /** The works' table (when asked) and the charts. */
  private static void report(Run run, TpccPlan plan, SqlTarget target, Map<String, PhaseResult> measured,
      boolean table) {
    if (measured.isEmpty()) {
      return;
    }
    if (table) {
      TpccMetrics.worksTable(measured, plan.works()).forEach(run.console()::line);
    }
    String why = TpccCharts.draw(run.directory(), measured, plan.works(), "tpcc " + plan.configName() + " on "
        + target.server().slug());
    if (why != null && !why.startsWith("gnuplot is not installed")) {
      run.console().line("warning: " + why);
    }
  }
}
