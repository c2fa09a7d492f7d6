package dev.ybbench.sysbench;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.cli.Packages;
import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.run.RunHistory;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.sysbench.engine.SysbenchBinary;
import dev.ybbench.sysbench.interop.SysbenchCommandLine;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./run_sysbench.sh TEST [COMMAND] [options]}: server, tables, sysbench's run, results. */
@Command(name = "run_sysbench.sh", sortOptions = false, usageHelpAutoWidth = true,
    description = {"Runs one of sysbench's OLTP tests with the real sysbench (Debian's package, its pgsql driver) "
        + "over YSQL. ybbench creates and loads the tables sbtest1 … sbtestN itself (hash or range keys, pre-split "
        + "on YugabyteDB), runs sysbench, prints its report as sysbench prints it, and records it as a run: "
        + "results/<UTC time>_sysbench_<test>_<product>-<version>/ (see results/README.md). With no --hosts it "
        + "starts an embedded PostgreSQL and stops it afterwards. sysbench's own command line is taken too.", ""},
    footer = {"", "Examples:",
        "  ./run_sysbench.sh oltp_read_only",
        "  ./run_sysbench.sh oltp_read_write --tables 10 --table-size 100000 --threads 16 --duration 60",
        "  ./run_sysbench.sh oltp_point_select --hosts 10.0.0.1 --layout range --tablets 24",
        "  ./run_sysbench.sh oltp_read_only run --hosts 10.0.0.1 --clients 2   # on each of 2 machines, then:",
        "  ./run_sysbench.sh --merge results/<client 1 run> results/<client 2 run>",
        "  ./run_sysbench.sh sysbench oltp_read_only --db-driver=pgsql --pgsql-host=10.0.0.1 --pgsql-port=5433 "
            + "--tables=10 --table-size=100000 --threads=16 --time=60 run"})
public final class RunSysbench implements java.util.concurrent.Callable<Integer> {
  @Mixin
  SysbenchOptions o = new SysbenchOptions();

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  private final Path home;
  private final RunLifecycle lifecycle;
  private String[] args = new String[0];

  public RunSysbench(Console console, Path home) {
    this.home = home;
    this.lifecycle = new RunLifecycle(console);
  }

  public static void main(String[] args) {
    RunSysbench cmd = new RunSysbench(new Console(System.out), Path.of(System.getProperty("ybbench.home", ".")));
    cmd.lifecycle.main(() -> cmd.execute(args, System.err));
  }

  public int execute(String[] given, PrintStream err) {
    String[] ours;
    try {
      SysbenchCommandLine.Translation t = SysbenchCommandLine.translate(given, flags());
      ours = t.args().toArray(String[]::new);
      if (t.dialect() != null) {
        lifecycle.console().line(t.dialect() + "'s command line, run as: ./run_sysbench.sh "
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

  /** run_sysbench.sh's own flags, which a sysbench-style --flag=value keeps. */
  private static Set<String> flags() {
    Set<String> names = new HashSet<>();
    new CommandLine(new RunSysbench(new Console(System.out), Path.of("."))).getCommandSpec().options()
        .forEach(opt -> names.addAll(List.of(opt.names())));
    return names;
  }

  /** The run directory of the last run (or merge), for tests and callers. */
  public Path runDirectory() {
    return mergedDir != null ? mergedDir : lifecycle.runDirectory();
  }

  private Path mergedDir;

  /** --merge: the clients' runs into one; nothing else may be asked with it. */
  private int merge(Console console) throws Exception {
    if (o.test != null || o.dryRun) {
      throw new UserError("--merge joins runs already made: give only the run directories (and --results-dir), not "
          + (o.test != null ? "a test" : "--dry-run"));
    }
    mergedDir = RunMerge.run(o.merge.size(), (warn, stop) -> SysbenchMerge.merge(o.merge, o.run.resultsRoot(home),
        warn, stop), console::line, lifecycle::interrupted);
    if (mergedDir == null) {
      return RunLifecycle.EXIT_INTERRUPTED;
    }
    return SysbenchMerge.audit(mergedDir, console::line) ? RunLifecycle.EXIT_COMPLETE : RunLifecycle.EXIT_FAILED;
  }

  @Override
  public Integer call() throws Exception {
    int exit = runOrPlan();
    return RunHistory.find().record(o.run.history, runDirectory(), exit, lifecycle.console()::line);
  }

  private int runOrPlan() throws Exception {
    Console console = lifecycle.console();
    if (o.merge != null) {
      return merge(console);
    }
    SysbenchPlan planned = SysbenchPlan.of(o);
    RunDirectory.checkWritable(o.run.resultsRoot(home));
    o.run.limits(); // what the run refuses before it starts, refused by the dry run too
    if (o.dryRun) {
      planned.lines(o.run).forEach(console::line);
      return 0;
    }
    if (planned.binary() == SysbenchBinary.TO_INSTALL) {
      Packages.install(SysbenchBinary.PACKAGE, console::line);
    }
    // Once installed, sysbench is found; else one line says how to get it.
    SysbenchPlan plan = planned.binary() == SysbenchBinary.TO_INSTALL ? SysbenchPlan.of(o) : planned;
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("engine", Map.of("name", "sysbench", "version", plan.binary().version(),
        "path", plan.binary().path().toString()));
    SysbenchTarget[] target = new SysbenchTarget[1];
    RunLifecycle.Spec spec = new RunLifecycle.Spec("sysbench", plan.test().name(), o.run, home,
        () -> plan.parameters(target[0].endpoint()), extra, List.of(args));
    return lifecycle.run(spec, () -> target[0] = SysbenchTarget.open(plan.endpoint(), plan.server(),
        plan.threads() + 20, plan.mayRecreate(), console::line), run -> SysbenchPhases.run(run, plan, target[0]));
  }
}
