package dev.ybbench.tpcc;

import dev.ybbench.harness.compare.HistoryRuns;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.results.StagedDirectory;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.run.RunOptions;
import dev.ybbench.tpcc.interop.ForeignCommandLines;
import dev.ybbench.tpcc.interop.TpccImport;
import java.io.PrintStream;
import java.nio.file.Path;
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
  @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "a BenchBase-format TPC-C config (default: "
      + "tpcc/config/tiny.xml, or with --warehouses the 100-warehouse config for the target)")
  Path configFile;

  @Option(names = "--warehouses", paramLabel = "N", description = "warehouses (the config's scalefactor)")
  Integer warehouses;

  @Option(names = "--terminals", paramLabel = "N", description = "terminals (default: the config's)")
  Integer terminals;

  @Option(names = "--duration", paramLabel = "SECONDS", description = "measurement time of each work (default: the "
      + "config's <time>)")
  Integer duration;

  @Option(names = "--each-type", description = "run the config's first work (the mix), then each transaction type "
      + "alone, one work each with the first's time, warm-up and rate, in place of the config's other works: the "
      + "YugabyteDB 2.1 post's table")
  boolean eachType;

  @Option(names = "--mix-only", description = "run the config's first work only")
  boolean mixOnly;

  @Option(names = "--spec", description = "the TPC-C specification's run: 10 terminals per warehouse, keying and "
      + "think times (the config's, or the spec's where it has none), Deliveries queued and run deferred "
      + "(clause 2.7.2), terminals sharing a pool of connections; with --warehouses and no --config, the "
      + "*_100w_spec.xml config for the target")
  boolean spec;

  @Option(names = "--connections", paramLabel = "N", description = "database connections the terminals share, one "
      + "worker thread each (default: one per terminal; with keying and think times, one per 4 warehouses, at "
      + "least 2)")
  Integer connections;

  @Option(names = "--warmup", paramLabel = "SECONDS", description = "warm-up before measuring (default: the config's)")
  Integer warmup;

  @Option(names = "--hosts", paramLabel = "H[:P],…", description = "YugabyteDB nodes (default port 5433; or env "
      + "YSQL_NODES). Without: embedded PostgreSQL")
  String hosts;

  @Option(names = "--db-version", paramLabel = "V", description = "embedded PostgreSQL version (default: 17)")
  String dbVersion;

  @Option(names = "--database", paramLabel = "DB", description = "the database to create the tables in (created "
      + "when missing; default: the config's URL's: tpcc, or yugabyte for the yugabyte_100w configs)")
  String database;

  @Option(names = "--url-options", paramLabel = "OPTS", description = "more JDBC URL options, after the config's, "
      + "e.g. 'sslmode=verify-full&sslrootcert=/path/ca.crt' for TLS (a password among them is moved out of the URL)")
  String urlOptions;

  @Option(names = "--user", paramLabel = "USER", description = "default: the config's <username>")
  String user;

  @Option(names = "--password", paramLabel = "PW", description = "default: env YSQL_PASSWORD or the config's")
  String password;

  @Option(names = "--create", description = "drop and create the tables")
  boolean create;

  @Option(names = "--load", description = "load the warehouses")
  boolean load;

  @Option(names = "--execute", description = "run the terminals")
  boolean execute;

  @Option(names = "--check", description = "check the consistency conditions of clause 3.3.2")
  boolean check;

  @Option(names = "--clear", description = "drop the tables")
  boolean clear;

  @Option(names = "--loader-threads", paramLabel = "N", description = "parallel loaders, one warehouse each at a "
      + "time (default: the config's loaderThreads, else 2)")
  Integer loaderThreads;

  @Option(names = "--start-warehouse", paramLabel = "N", defaultValue = "1",
      description = "first warehouse this client loads and drives (default: ${DEFAULT-VALUE})")
  int startWarehouse;

  @Option(names = "--total-warehouses", paramLabel = "N", description = "warehouses in the whole database when "
      + "several clients split it (default: start + warehouses - 1)")
  Integer totalWarehouses;

  @Option(names = "--tablets", paramLabel = "N", defaultValue = "0",
      description = "YugabyteDB: pre-split each table into N tablets")
  int tablets;

  @Option(names = "--foreign-keys", description = "add the spec's foreign keys after loading")
  boolean foreignKeys;

  // 20, measured: at 10 warehouses and 64 terminals the mix gave up 0.3-0.5 % of its
  // transactions after 10 retries and none after 20 (docs/performance.md).
  @Option(names = "--max-retries", paramLabel = "N", defaultValue = "20",
      description = "retries of a conflicting transaction before it counts as aborted (default: ${DEFAULT-VALUE})")
  int maxRetries;

  @Option(names = "--engine", paramLabel = "ENGINE", defaultValue = "ybbench", description = "what runs the "
      + "phases: ybbench (default) or benchbase, the user's BenchBase build (--benchbase), against the same target, "
      + "its results recorded as ours")
  String engine;

  @Option(names = "--benchbase", paramLabel = "DIR", description = "a BenchBase build (the unpacked "
      + "benchbase-postgres.tgz, holding benchbase.jar) for --engine benchbase (default: env BENCHBASE_HOME)")
  Path benchbaseDir;

  @Option(names = "--import", paramLabel = "DIR", description = "turn a BenchBase TPC-C results directory (-d DIR) "
      + "into a run directory here, so compare.sh sets it beside ours; with --config, named after that config")
  Path importDir;

  @Option(names = "--merge", arity = "2..*", paramLabel = "RUN_DIR",
      description = "merge the results of clients that split one database (--start-warehouse) into one")
  List<Path> merge;

  @Option(names = "--dry-run", description = "print the plan (server, config as applied, phases, every parameter) "
      + "and start nothing; it refuses what the run would refuse")
  boolean dryRun;

  @Mixin
  RunOptions options = new RunOptions();

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
      return CommandLines.execute(this, ours, err, Console::clean, () -> options.verbose);
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
    return HistoryRuns.record(options.history, runDirectory(), exit, lifecycle.console()::line);
  }

  private int runMergeOrImport() throws Exception {
    Console console = lifecycle.console();
    if (dryRun && (merge != null || importDir != null)) {
      throw new UserError("--dry-run plans a run; " + (merge != null ? "--merge" : "--import") + " runs nothing to "
          + "plan: leave --dry-run out");
    }
    if (merge != null) {
      try {
        mergedDir = TpccMerge.merge(merge, options.resultsRoot(home), w -> console.line("warning: " + w),
            lifecycle::interrupted);
      } catch (StagedDirectory.Stopped stopped) {
        console.line(RunMerge.INTERRUPTED);
        return RunLifecycle.EXIT_INTERRUPTED;
      }
      console.line("Merged " + merge.size() + " runs: " + mergedDir);
      return 0;
    }
    if (importDir != null) {
      mergedDir = TpccImport.run(importDir, options.resultsRoot(home), configFile == null ? null
          : configFile.getFileName().toString().replaceFirst("\\.xml$", ""), options.label, options.limits());
      RunSummary imported = RunSummary.read(mergedDir);
      console.line("Imported " + importDir + " (" + imported.state() + (imported.reason() == null ? ""
          : ": " + imported.reason()) + "): " + mergedDir);
      return RunInfo.COMPLETE.equals(imported.state()) ? RunLifecycle.EXIT_COMPLETE : RunLifecycle.EXIT_FAILED;
    }
    TpccPlan plan = TpccPlan.of(this, home);
    RunDirectory.checkWritable(options.resultsRoot(home));
    if (dryRun) {
      options.limits(); // what the run refuses before it starts, refused here too
      plan.lines(options).forEach(console::line);
      return 0;
    }
    Map<String, Object> extra = new LinkedHashMap<>(Map.of("config_file", plan.config().file().toString()));
    extra.putAll(plan.engine().runInfo());
    RunLifecycle.Spec runSpec = new RunLifecycle.Spec("tpcc", plan.configName(), options, home,
        () -> plan.parameters(plan.engine().database(target).endpoint()),
        extra, List.of(args));
    return lifecycle.run(runSpec, () -> target = TpccTarget.open(plan.endpoint(), plan.config().isolation(),
        plan.server(), plan.serverConnections(), plan.mayRecreate(), console::line),
        run -> TpccPhases.run(run, plan, target));
  }

}
