package dev.ybbench.tpcc;

import dev.ybbench.harness.ysql.SqlTarget;
import dev.ybbench.tpcc.core.TpccDatabase;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.Context;
import dev.ybbench.harness.benchmark.FleetOptions;
import dev.ybbench.harness.benchmark.MergeOptions;
import dev.ybbench.harness.benchmark.Outline;
import dev.ybbench.harness.benchmark.Plan;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.run.RunOptions;
import dev.ybbench.tpcc.interop.ForeignCommandLines;
import dev.ybbench.tpcc.interop.TpccImport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./run_tpcc.sh [options]}: server, schema, load, execute, consistency check, results. */
@Command(name = "run_tpcc.sh", sortOptions = false, usageHelpAutoWidth = true,
    resourceBundle = "dev.ybbench.tpcc.TpccCommand",
    description = {"Runs TPC-C over YSQL, configured by a BenchBase-format XML file. With no --hosts it starts "
        + "an embedded PostgreSQL and stops it afterwards. With no phase flags it creates and loads what is "
        + "missing, then executes and checks consistency. Results go to "
        + "results/<UTC time>_tpcc_<config>_<product>-<version>/ (see results/README.md).", ""},
    footer = {"", "Examples:",
        "  ./run_tpcc.sh                                   # tpcc/config/tiny.xml: 1 warehouse, 60 s",
        "  ./run_tpcc.sh --warehouses 10 --terminals 16 --duration 300",
        "  ./run_tpcc.sh --warehouses 100 --spec                  # 1,000 terminals, keying and think times",
        "  ./run_tpcc.sh --warehouses 100 --hosts 10.0.0.1,10.0.0.2,10.0.0.3",
        "  ./run_tpcc.sh --config my.xml --check",
        "  ./run_tpcc.sh --merge results/<client 1 run> results/<client 2 run>"})
final class TpccCommand implements BenchmarkCommand {
  @Mixin
  TpccOptions o = new TpccOptions();

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  @Override
  public RunOptions output() {
    return o.run;
  }

  @Override
  public MergeOptions merging() {
    return o.merging;
  }

  /** BenchBase's and yugabyte/tpcc's command lines in run_tpcc.sh's flags. */
  @Override
  public Translation translate(List<String> given, Consumer<String> console) {
    ForeignCommandLines.Translation t = ForeignCommandLines.translate(given.toArray(String[]::new));
    return Translation.said(t.dialect(), t.args(), t.notes(), new Tpcc().script(), console);
  }

  @Override
  public Path merge(List<Path> runs, Path resultsRoot, boolean includeIncomplete, Consumer<String> warn,
      BooleanSupplier stop) throws IOException {
    if (runs.size() < 2) {
      throw new UserError("--merge adds up the runs of clients that split the warehouses: give each client's run, "
          + "at least two");
    }
    return TpccMerge.merge(runs, resultsRoot, includeIncomplete, warn, stop);
  }

  @Override
  public boolean audit(Path merged, Consumer<String> out) throws IOException {
    return TpccMerge.audit(merged, out);
  }

  /** --import: BenchBase's results directory as a run directory here. */
  @Override
  public Outcome instead(Context context) throws IOException {
    if (o.importDir == null) {
      return null;
    }
    if (o.run.dryRun) {
      throw new UserError("--dry-run plans a run; --import runs nothing to plan: leave --dry-run out");
    }
    Path imported = TpccImport.run(o.importDir, o.run.resultsRoot(context.home()), o.configFile == null ? null
        : o.configFile.getFileName().toString().replaceFirst("\\.xml$", ""), o.run.label, o.run.limits());
    RunSummary summary = RunSummary.read(imported);
    context.console().line("Imported " + o.importDir + " (" + summary.state() + (summary.reason() == null ? ""
        : ": " + summary.reason()) + "): " + imported);
    return new Outcome(RunInfo.COMPLETE.equals(summary.state()) ? RunLifecycle.EXIT_COMPLETE
        : RunLifecycle.EXIT_FAILED, imported);
  }

  @Override
  public Plan plan(Context context) {
    TpccPlan plan = TpccPlan.of(o, context.home());
    return new Planned(plan, engine(o), o.run, o.fleet, context.console());
  }

  /** The plan as the runner takes it, with the engine that runs its phases. */
  private static final class Planned implements Plan {
    private final TpccPlan plan;
    private final TpccEngine engine;
    private final RunOptions run;
    private final FleetOptions fleet;
    private final Console console;
    private volatile SqlTarget target;
    /** The config's database on the target. */
    private volatile TpccDatabase database;

    Planned(TpccPlan plan, TpccEngine engine, RunOptions run, FleetOptions fleet, Console console) {
      this.plan = plan;
      this.engine = engine;
      this.run = run;
      this.fleet = fleet;
      this.console = console;
    }

    @Override
    public Outline outline() {
      return plan.outline(engine.ownTerminals(), run.metricsPorts());
    }

    @Override
    public Map<String, String> settings() {
      return plan.settings(engine.name(), engine.ownTerminals());
    }

    @Override
    public String workload() {
      return plan.configName();
    }

    @Override
    public RunOptions output() {
      return run;
    }

    @Override
    public Map<String, String> parameters() {
      return plan.parameters(engine.database(database).endpoint(), engine.name(), engine.ownTerminals());
    }

    @Override
    public Map<String, Object> extra() {
      Map<String, Object> extra = new LinkedHashMap<>(Map.of("config_file", plan.config().file().toString()));
      extra.putAll(engine.runInfo());
      if (fleet.inFleet()) {
        extra.put("fleet", fleet.runJson());
      }
      if (plan.resume() != null) {
        extra.put("resumed_from", plan.resume().getFileName().toString());
      }
      return extra;
    }

    @Override
    public RunLifecycle.Target open(Consumer<String> log) {
      // The nine tables are created and dropped together: warehouse stands for them all.
      target = SqlTarget.open(plan.endpoint(), plan.server(), plan.serverConnections(), "warehouse",
          plan.mayRecreate(), log);
      database = new TpccDatabase(target.endpoint(), plan.config().isolation());
      return target;
    }

    @Override
    public void run(Run r) throws Exception {
      TpccPhases.run(r, plan, engine, target, database);
    }
  }

  /**
   * ybbench's own engine, or with --engine benchbase (--benchbase alone implies it) the BenchBase
   * build; what only our terminals do is refused with it before anything starts.
   */
  private static TpccEngine engine(TpccOptions o) {
    if (!o.engine.equals("ybbench") && !o.engine.equals("benchbase")) {
      throw new UserError("--engine must be ybbench or benchbase, was '" + o.engine + "'");
    }
    if (o.engine.equals("ybbench") && o.benchbaseDir == null) {
      return new YbbenchEngine();
    }
    List<String> ours = new ArrayList<>();
    if (o.spec) {
      ours.add("--spec");
    }
    if (o.connections != null) {
      ours.add("--connections");
    }
    if (o.startWarehouse != 1 || o.totalWarehouses != null || o.fleet.clients > 1) {
      ours.add("--start-warehouse/--total-warehouses/--clients");
    }
    if (o.tablets != 0) {
      ours.add("--tablets");
    }
    if (o.foreignKeys) {
      ours.add("--foreign-keys");
    }
    if (o.resume != null) {
      ours.add("--resume");
    }
    if (o.run.prometheusPort != null) {
      ours.add("--prometheus-port"); // it serves our terminals' counters; BenchBase counts in its own process
    }
    if (!ours.isEmpty()) {
      throw new UserError(String.join(", ", ours) + (ours.size() == 1 ? " is" : " are") + " ybbench's own; BenchBase "
          + "has no counterpart: leave " + (ours.size() == 1 ? "it" : "them") + " out with --engine benchbase");
    }
    return new BenchBaseEngine(BenchBaseEngine.home(o.benchbaseDir));
  }
}
