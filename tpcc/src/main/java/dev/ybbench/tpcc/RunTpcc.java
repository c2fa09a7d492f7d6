package dev.ybbench.tpcc;

import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunFailure;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.run.RunOptions;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import dev.ybbench.tpcc.check.ConsistencyChecks;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.load.LoadPhase;
import dev.ybbench.tpcc.txn.ExecutePhase;
import dev.ybbench.tpcc.txn.Terminals;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
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

  @Option(names = "--max-retries", paramLabel = "N", defaultValue = "10",
      description = "retries of a conflicting transaction before it counts as failed (default: ${DEFAULT-VALUE})")
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
            + String.join(" ", RunInfo.redactCommand(t.args(), lifecycle.console()::clean)));
      }
      t.notes().forEach(n -> lifecycle.console().line("note: " + n));
    } catch (UserError e) {
      err.println("error: " + lifecycle.console().clean(e.getMessage()));
      lifecycle.finished();
      return 2;
    }
    this.args = ours.clone();
    try {
      return CommandLines.execute(this, ours, err, lifecycle.console()::clean, () -> options.verbose);
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
    Console console = lifecycle.console();
    if (merge != null) {
      mergedDir = TpccMerge.merge(merge, options.resultsRoot(home), w -> console.line("warning: " + w));
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
    ServerTarget server = ServerTarget.choose(ServerTarget.Api.YSQL, hosts, dbVersion, 1);
    TpccConfig config = readConfig(server);
    WarehouseRange range = WarehouseRange.of(startWarehouse, config.scaleFactor(), totalWarehouses);
    if (maxRetries < 0 || tablets < 0 || (loaderThreads != null && loaderThreads < 1)) {
      throw new UserError("--max-retries and --tablets cannot be negative, --loader-threads must be at least 1");
    }
    if ((duration != null && duration < 1) || (warmup != null && warmup < 0)) {
      throw new UserError("--duration must be at least 1 second and --warmup cannot be negative");
    }
    List<TpccConfig.Work> works = works(config);
    Path benchbase = benchbase();
    Terminals.Setup setup = new Terminals.Setup(connections(config), spec, maxRetries);
    int pool = setup.connections();
    RunDirectory.checkWritable(options.resultsRoot(home));
    String pw = password != null ? password : System.getenv().getOrDefault("YSQL_PASSWORD",
        config.password() == null ? "" : config.password());
    console.redact(pw);
    YsqlEndpoint parsed = YsqlEndpoint.parse(config.url());
    String dbUser = user != null ? user : (config.username() == null ? "yugabyte" : config.username());
    YsqlEndpoint endpoint = pw.isEmpty() ? parsed.withUser(dbUser) : parsed.withUser(dbUser).withPassword(pw);
    console.redact(endpoint.password());
    String configName = config.file().getFileName().toString().replaceFirst("\\.xml$", "");
    RunLifecycle.Spec runSpec = new RunLifecycle.Spec("tpcc", configName, options, home,
        () -> parameters(config, works, range, benchbase == null ? pool : config.terminals(),
            (benchbase == null ? target.database() : target.database().forBenchBase()).endpoint()),
        benchbase == null ? Map.of("config_file", config.file().toString())
            : Map.of("config_file", config.file().toString(), "engine", Map.of("name", "BenchBase", "home",
                benchbase.toString())),
        List.of(args));
    // A run that may drop and create the tables claims them exclusively; others share them.
    boolean mayRecreate = create || clear || !(load || execute || check);
    return lifecycle.run(runSpec, () -> target = TpccTarget.open(endpoint, config.isolation(), server,
        Math.max(pool + setup.deliveryConnections(), 8) + 30, mayRecreate, console::line),
        run -> phases(run, config, works, range, setup, benchbase));
  }

  /**
   * The BenchBase build when --engine benchbase (--benchbase alone implies it), else null; what
   * only our terminals do is refused before anything starts.
   */
  private Path benchbase() {
    if (!engine.equals("ybbench") && !engine.equals("benchbase")) {
      throw new UserError("--engine must be ybbench or benchbase, was '" + engine + "'");
    }
    if (engine.equals("ybbench") && benchbaseDir == null) {
      return null;
    }
    List<String> ours = new ArrayList<>();
    if (spec) {
      ours.add("--spec");
    }
    if (connections != null) {
      ours.add("--connections");
    }
    if (startWarehouse != 1 || totalWarehouses != null) {
      ours.add("--start-warehouse/--total-warehouses");
    }
    if (tablets != 0) {
      ours.add("--tablets");
    }
    if (foreignKeys) {
      ours.add("--foreign-keys");
    }
    if (!ours.isEmpty()) {
      throw new UserError(String.join(", ", ours) + (ours.size() == 1 ? " is" : " are") + " ybbench's own; BenchBase "
          + "has no counterpart: leave " + (ours.size() == 1 ? "it" : "them") + " out with --engine benchbase");
    }
    return BenchBaseEngine.home(benchbaseDir);
  }

  /**
   * The config's works in order (or the first alone, --mix-only; or the first and each type
   * alone, --each-type), each with --duration and --warmup applied when given.
   */
  private List<TpccConfig.Work> works(TpccConfig config) {
    if (eachType && mixOnly) {
      throw new UserError("--each-type adds a work per transaction type and --mix-only keeps the first work alone: "
          + "give one of them");
    }
    List<TpccConfig.Work> works = new ArrayList<>(mixOnly || eachType ? config.works().subList(0, 1)
        : config.works());
    if (eachType) {
      TpccConfig.Work mix = works.get(0);
      for (int i = 0; i < TpccConfig.TRANSACTIONS.size(); i++) {
        List<Integer> weights = new ArrayList<>(Collections.nCopies(TpccConfig.TRANSACTIONS.size(), 0));
        weights.set(i, 100);
        works.add(new TpccConfig.Work(mix.timeSeconds(), mix.warmupSeconds(), mix.rate(), List.copyOf(weights)));
      }
    }
    return works.stream().map(w -> new TpccConfig.Work(duration != null ? duration : w.timeSeconds(),
        warmup != null ? warmup : w.warmupSeconds(), w.rate(), w.weights())).toList();
  }

  /**
   * The connection pool: as asked; else one per terminal, as BenchBase opens them, unless the
   * terminals key and think. Then a terminal is mostly idle: a warehouse's 10 terminals submit
   * about 0.48 transactions a second, so one connection per 4 warehouses stays under half busy
   * until transactions take 1 s on average (Little's law), and a run whose terminals queue for
   * connections shows it in its waits.
   */
  private int connections(TpccConfig config) {
    if (connections != null) {
      if (connections < 1 || connections > config.terminals()) {
        throw new UserError("--connections must be between 1 and the " + config.terminals() + " terminals, was "
            + connections);
      }
      return connections;
    }
    return config.hasWaits() ? Math.min(config.terminals(), Math.max(2, (config.scaleFactor() + 3) / 4))
        : config.terminals();
  }

  /** create, load, execute, check, clear: those asked for, or with none, what is missing then execute and check. */
  private void phases(Run run, TpccConfig config, List<TpccConfig.Work> works, WarehouseRange range,
      Terminals.Setup setup, Path benchbase) throws Exception {
    TpccDatabase db = benchbase == null ? target.database() : target.database().forBenchBase();
    Console console = run.console();
    if (benchbase != null) {
      db.endpoint().createDatabaseIfMissing(console::line);
    }
    run.recordTpcc(range.count(), config.terminals(), null);
    SqlDialect dialect = SqlDialect.of(target.server());
    boolean explicit = create || load || execute || check || clear;
    boolean doCreate = create;
    boolean doLoad = load;
    if (!explicit) {
      long have = db.loadedWarehouses();
      doCreate = have < 0;
      doLoad = have != range.total();
      if (!doLoad) {
        console.line("Found " + have + " loaded warehouses: skipping create and load");
      } else if (have > 0) {
        doCreate = true; // a partial or different population: start over
      }
    }
    boolean doExecute = (execute || !explicit) && !run.interrupted();
    if (benchbase != null) {
      if (doExecute && !doLoad) {
        requireLoaded(db, range);
      }
      target.shareTables();
      Map<String, PhaseResult> measured = BenchBaseEngine.run(run, benchbase, config, works, db.endpoint(), doCreate,
          doLoad, doExecute, loaderThreads);
      report(run, config, works, measured, true);
      doCreate = false;
      doLoad = false;
      doExecute = false;
    }
    if (doCreate) {
      db.create(new TpccSchema(dialect, tablets), console::line);
    }
    if (!clear) {
      target.shareTables();
    }
    if (doLoad && !run.interrupted()) {
      int threads = loaderThreads != null ? loaderThreads : config.loaderThreads() != null ? config.loaderThreads() : 2;
      run.beginPhase("load");
      run.record("load", LoadPhase.run(db, range, threads, run::interrupted, console::line));
      if (foreignKeys) {
        db.execute(TpccSchema.FOREIGN_KEYS, console::line);
      }
    }
    if (doExecute && !run.interrupted()) {
      requireLoaded(db, range);
      // Every <work> in turn, as BenchBase runs them, each its own phase; each begins its measured
      // window after its own warm-up.
      Map<String, PhaseResult> measured = new LinkedHashMap<>();
      for (int i = 0; i < works.size() && !run.interrupted(); i++) {
        TpccConfig.Work w = works.get(i);
        String phase = ExecutePhase.phase(i);
        PhaseResult result = ExecutePhase.run(run, phase, db, config, w, range, setup);
        measured.put(phase, result);
        run.record(phase, result);
      }
      report(run, config, works, measured, works.size() > 1);
    }
    if ((check || !explicit) && !run.interrupted()) {
      RunSummary.Consistency consistency = checkPhase(db, console);
      run.recordTpcc(range.count(), config.terminals(), consistency);
      List<String> failed = consistency.conditions().entrySet().stream().filter(e -> !e.getValue().pass())
          .map(Map.Entry::getKey).toList();
      if (benchbase != null && failed.stream().anyMatch(BENCHBASE_FLOAT_MONEY::contains)) {
        console.line("Note: BenchBase keeps C_YTD_PAYMENT in a float column and adds Delivery's order-line amounts "
            + "as a Java float, so its customers' money drifts by cents and " + String.join(" and ",
            BENCHBASE_FLOAT_MONEY) + " fail in its runs; recorded in summary.json, not held against the run");
        failed = failed.stream().filter(c -> !BENCHBASE_FLOAT_MONEY.contains(c)).toList();
      }
      if (!failed.isEmpty()) {
        throw new RunFailure("consistency condition" + (failed.size() == 1 ? " " : "s ") + String.join(", ", failed)
            + " of clause 3.3.2 failed");
      }
    }
    if (clear) {
      db.execute(new TpccSchema(dialect, 0).dropTables(), console::line);
    }
  }

  /** The conditions on customers' money, which BenchBase's float arithmetic breaks by cents. */
  private static final List<String> BENCHBASE_FLOAT_MONEY = List.of("3.3.2.10", "3.3.2.12");

  private static void requireLoaded(TpccDatabase db, WarehouseRange range) throws SQLException {
    long have = db.loadedWarehouses();
    if (have < range.last()) {
      throw new RunFailure(have < 0 ? "the TPC-C tables do not exist in database " + db.databaseName()
          + "; create and load them first (--create --load, or no phase flags)"
          : "database " + db.databaseName() + " holds " + have + " warehouses, fewer than warehouse " + range.last()
              + " this run drives; load them first (--load)");
    }
  }

  /** The works' table (when asked: our single work has printed its own) and the charts. */
  private void report(Run run, TpccConfig config, List<TpccConfig.Work> works, Map<String, PhaseResult> measured,
      boolean table) {
    if (measured.isEmpty()) {
      return;
    }
    if (table) {
      TpccMetrics.worksTable(measured, works).forEach(run.console()::line);
    }
    String why = TpccCharts.draw(run.directory(), measured, works, "tpcc " + config.file().getFileName()
        .toString().replaceFirst("\\.xml$", "") + " on " + target.server().slug());
    if (why != null && !why.startsWith("gnuplot is not installed")) {
      run.console().line("warning: " + why);
    }
  }

  private TpccConfig readConfig(ServerTarget server) {
    if (warehouses != null && warehouses < 1) {
      throw new UserError("--warehouses must be at least 1, was " + warehouses);
    }
    if (terminals != null && terminals < 1) {
      throw new UserError("--terminals must be at least 1, was " + terminals);
    }
    Path file = configFile;
    if (file == null) {
      file = home.resolve("tpcc/config").resolve(warehouses == null ? "tiny.xml"
          : (server.embedded() ? "postgres_100w" : "yugabyte_100w") + (spec ? "_spec.xml" : ".xml"));
    }
    TpccConfig c = TpccConfig.read(file);
    if (spec) {
      // Clause 4.2.2: 10 terminals per warehouse; clause 5.2.5: keying and think times.
      int w = warehouses != null ? warehouses : c.scaleFactor();
      c = (c.hasWaits() ? c : c.withSpecWaits()).with(w, terminals != null ? terminals : 10 * w);
      return c;
    }
    // A warehouse has 10 terminals in the spec; fewer warehouses than the config's need fewer.
    Integer t = terminals != null ? terminals
        : warehouses != null ? Math.min(c.terminals(), 10 * warehouses) : null;
    return c.with(warehouses, t);
  }

  private static RunSummary.Consistency checkPhase(TpccDatabase db, Console console) throws SQLException {
    Map<String, RunSummary.Condition> conditions = new LinkedHashMap<>();
    boolean all = true;
    for (ConsistencyChecks.Result r : db.consistency()) {
      console.line("Consistency " + r);
      conditions.put(r.condition().clause(), new RunSummary.Condition(r.condition().statement(), r.passed(),
          r.passed() ? null : r.violations(), r.passed() ? null : r.firstOffender()));
      all &= r.passed();
    }
    return new RunSummary.Consistency(all, conditions);
  }

  /**
   * Each work's time, warm-up, rate and weights (the first as time_s …, later ones under their
   * phase's name: execute-2.time_s …), and each type's keying/think waits.
   */
  static Map<String, String> workParameters(TpccConfig c, List<TpccConfig.Work> works) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < works.size(); i++) {
      TpccConfig.Work work = works.get(i);
      String prefix = i == 0 ? "" : ExecutePhase.phase(i) + ".";
      m.put(prefix + "time_s", Integer.toString(work.timeSeconds()));
      m.put(prefix + "warmup_s", Integer.toString(work.warmupSeconds()));
      m.put(prefix + "rate", work.rate() == null ? "unlimited" : work.rate().toString());
      m.put(prefix + "weights", work.weights().toString());
    }
    for (TpccConfig.TransactionType t : c.transactionTypes()) {
      m.put("wait." + t.name(), t.preExecutionWaitMs() + "/" + t.postExecutionWaitMs());
    }
    return m;
  }

  private Map<String, String> parameters(TpccConfig c, List<TpccConfig.Work> works, WarehouseRange range,
      int pool, YsqlEndpoint endpoint) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("url", endpoint.url());
    m.put("isolation", c.isolation());
    m.put("warehouses", Integer.toString(range.count()));
    m.put("start_warehouse", Integer.toString(range.first()));
    m.put("total_warehouses", Integer.toString(range.total()));
    m.put("terminals", Integer.toString(c.terminals()));
    m.put("connections", Integer.toString(pool));
    m.put("deferred_delivery", Boolean.toString(spec));
    m.put("engine", engine.equals("ybbench") && benchbaseDir == null ? "ybbench" : "benchbase");
    m.putAll(workParameters(c, works));
    m.put("tablets", Integer.toString(tablets));
    m.put("max_retries", Integer.toString(maxRetries));
    return m;
  }
}
