package dev.ybbench.tpcc;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.run.RunHistory;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.tpcc.interop.ForeignCommandLines;
import dev.ybbench.tpcc.interop.TpccImport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./run_tpcc.sh [options]}: server, schema, load, execute, consistency check, results. */
@Command(name = "run_tpcc.sh", sortOptions = false, usageHelpAutoWidth = true,
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
public final class RunTpcc implements java.util.concurrent.Callable<Integer> {
  @Mixin
  TpccOptions o = new TpccOptions();

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  private final Path home;
  private final RunLifecycle lifecycle;
  private String[] args = new String[0];
  private volatile TpccTarget target;

  public RunTpcc(Console console, Path home) {
    this.home = home;
    this.lifecycle = new RunLifecycle(console);
  }

  public static void main(String[] args) {
    RunTpcc cmd = new RunTpcc(new Console(System.out), Path.of(System.getProperty("ybbench.home", ".")));
    cmd.lifecycle.main(() -> cmd.execute(args, System.err));
  }

  public int execute(String[] args, PrintStream err) {
    String[] ours;
    try {
      ForeignCommandLines.Translation t = ForeignCommandLines.translate(args);
      ours = t.args().toArray(String[]::new);
      if (t.dialect() != null) {
        lifecycle.console().line(t.dialect() + "'s command line, run as: ./run_tpcc.sh "
            + ShellWords.join(RunInfo.redactCommand(t.args(), Console::clean)));
      }
      t.notes().forEach(n -> lifecycle.console().line("note: " + n));
    } catch (UserError e) {
      err.println("error: " + Console.clean(e.getMessage()));
      lifecycle.finished();
      return 2;
    }
    this.args = ours.clone();
    try {
      return CommandLines.execute(this, ours, err, Console::clean, () -> o.run.verbose);
    } finally {
      lifecycle.finished();
    }
  }

  /** The run directory of the last run (or merge, or import), for tests and callers. */
  public Path runDirectory() {
    return mergedDir != null ? mergedDir : lifecycle.runDirectory();
  }

  private Path mergedDir;

  @Override
  public Integer call() throws Exception {
    int exit = runMergeOrImport();
    return RunHistory.find().record(o.run.history, runDirectory(), exit, lifecycle.console()::line);
  }

  private int runMergeOrImport() throws Exception {
    Console console = lifecycle.console();
    if (o.dryRun && (o.merge != null || o.importDir != null)) {
      throw new UserError("--dry-run plans a run; " + (o.merge != null ? "--merge" : "--import") + " runs nothing to "
          + "plan: leave --dry-run out");
    }
    if (o.merge != null) {
      mergedDir = RunMerge.run(o.merge.size(), (warn, stop) -> TpccMerge.merge(o.merge, o.run.resultsRoot(home),
          warn, stop), console::line, lifecycle::interrupted);
      return mergedDir == null ? RunLifecycle.EXIT_INTERRUPTED : RunLifecycle.EXIT_COMPLETE;
    }
    if (o.importDir != null) {
      mergedDir = TpccImport.run(o.importDir, o.run.resultsRoot(home), o.configFile == null ? null
          : o.configFile.getFileName().toString().replaceFirst("\\.xml$", ""), o.run.label, o.run.limits());
      RunSummary imported = RunSummary.read(mergedDir);
      console.line("Imported " + o.importDir + " (" + imported.state() + (imported.reason() == null ? ""
          : ": " + imported.reason()) + "): " + mergedDir);
      return RunInfo.COMPLETE.equals(imported.state()) ? RunLifecycle.EXIT_COMPLETE : RunLifecycle.EXIT_FAILED;
    }
    TpccPlan plan = TpccPlan.of(o, home);
    TpccEngine engine = engine(o);
    RunDirectory.checkWritable(o.run.resultsRoot(home));
    if (o.dryRun) {
      o.run.limits(); // what the run refuses before it starts, refused here too
      plan.lines(o.run, engine.name(), engine.ownTerminals()).forEach(console::line);
      return 0;
    }
    Map<String, Object> extra = new LinkedHashMap<>(Map.of("config_file", plan.config().file().toString()));
    extra.putAll(engine.runInfo());
    RunLifecycle.Spec runSpec = new RunLifecycle.Spec("tpcc", plan.configName(), o.run, home,
        () -> plan.parameters(engine.database(target).endpoint(), engine.name(), engine.ownTerminals()),
        extra, List.of(args));
    return lifecycle.run(runSpec, () -> target = TpccTarget.open(plan.endpoint(), plan.config().isolation(),
        plan.server(), plan.serverConnections(), plan.mayRecreate(), console::line),
        run -> TpccPhases.run(run, plan, engine, target));
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
      return new OwnEngine();
    }
    List<String> ours = new ArrayList<>();
    if (o.spec) {
      ours.add("--spec");
    }
    if (o.connections != null) {
      ours.add("--connections");
    }
    if (o.startWarehouse != 1 || o.totalWarehouses != null) {
      ours.add("--start-warehouse/--total-warehouses");
    }
    if (o.tablets != 0) {
      ours.add("--tablets");
    }
    if (o.foreignKeys) {
      ours.add("--foreign-keys");
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
