package dev.ybbench.tpcc;

import dev.ybbench.harness.ysql.SqlTarget;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.core.TpccDatabase;
import dev.ybbench.tpcc.core.TpccSchema;
import dev.ybbench.tpcc.load.LoadPhase;
import dev.ybbench.tpcc.load.LoadResume;
import dev.ybbench.tpcc.load.WarehouseCheckpoint;
import dev.ybbench.tpcc.txn.ExecutePhase;
import java.util.LinkedHashMap;
import java.util.Map;

/** ybbench's own engine: its schema, its parallel loader, and its terminals over a pool of connections. */
final class YbbenchEngine implements TpccEngine {
  @Override
  public String name() {
    return "ybbench";
  }

  @Override
  public boolean ownTerminals() {
    return true;
  }

  @Override
  public Map<String, Object> runInfo() {
    return Map.of();
  }

  @Override
  public TpccDatabase database(TpccDatabase config) {
    return config;
  }

  @Override
  public Map<String, PhaseResult> run(Run run, TpccPlan plan, SqlTarget target, TpccDatabase db, boolean create,
      boolean load, boolean execute) throws Exception {
    if (create) {
      db.create(new TpccSchema(SqlDialect.of(target.server()), plan.tablets()), run.console()::line, run::onStop);
    }
    if (!plan.steps().clear()) {
      target.shareTables(); // a run that clears keeps its exclusive claim until the tables are dropped
    }
    if (load && !run.interrupted()) {
      // A resumed load deletes the rows it cannot vouch for before its phase begins.
      WarehouseCheckpoint checkpoint = plan.resume() == null
          ? WarehouseCheckpoint.start(run.directory().path(), plan.range())
          : LoadResume.resume(db, run.directory().path(), plan.resume(), plan.earlier(), run.console()::line);
      run.beginPhase("load");
      run.record("load", LoadPhase.run(db, checkpoint, plan.loaderThreads(), run::interrupted,
          run.console()::line));
      if (plan.foreignKeys()) {
        db.execute(TpccSchema.FOREIGN_KEYS, run.console()::line, run::onStop);
      }
    }
    Map<String, PhaseResult> measured = new LinkedHashMap<>();
    if (execute && !run.interrupted()) {
      db.requireLoaded(plan.range());
      // Every <work> in turn, as BenchBase runs them, each its own phase; each begins its measured
      // window after its own warm-up.
      for (int i = 0; i < plan.works().size() && !run.interrupted(); i++) {
        TpccConfig.Work w = plan.works().get(i);
        String phase = ExecutePhase.phase(i);
        PhaseResult result = ExecutePhase.run(run, phase, db, plan.config(), w, plan.range(), plan.setup());
        measured.put(phase, result);
        run.record(phase, result);
      }
    }
    return measured;
  }
}
