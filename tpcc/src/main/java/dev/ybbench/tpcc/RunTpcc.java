package dev.ybbench.tpcc;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.PhaseSummary;
import dev.ybbench.harness.results.Plots;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.tpcc.check.ConsistencyChecks;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.load.PopulationCheck;
import dev.ybbench.tpcc.load.TpccLoader;
import dev.ybbench.tpcc.txn.Terminal;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.cli.ShutdownGuard;
import picocli.CommandLine.Command;
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
        "  ./run_tpcc.sh --warehouses 100 --hosts 10.0.0.1,10.0.0.2,10.0.0.3",
        "  ./run_tpcc.sh --config my.xml --check",
        "  ./run_tpcc.sh --merge results/<client 1 run> results/<client 2 run>"})
public final class RunTpcc implements java.util.concurrent.Callable<Integer> {
  /** C constants of the initial population; the run draws its own with the delta of clause 2.1.6.1. */
  static final TpccRandom.Constants LOAD_CONSTANTS = new TpccRandom.Constants(157, 913, 4107);

  @Option(names = "--config", paramLabel = "FILE", description = "a BenchBase-format TPC-C config (default: "
      + "tpcc/config/tiny.xml, or with --warehouses the 100-warehouse config for the target)")
  Path configFile;

  @Option(names = "--warehouses", paramLabel = "N", description = "warehouses (the config's scalefactor)")
  Integer warehouses;

  @Option(names = "--terminals", paramLabel = "N", description = "terminals (default: the config's)")
  Integer terminals;

  @Option(names = "--duration", paramLabel = "SECONDS", description = "measurement time (default: the config's <time>)")
  Integer duration;

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

  @Option(names = "--label", paramLabel = "TEXT", description = "a tag for this run, kept in run.json")
  String label;

  @Option(names = "--merge", arity = "2..*", paramLabel = "RUN_DIR",
      description = "merge the results of clients that split one database (--start-warehouse) into one")
  List<Path> merge;

  @Option(names = "--results-dir", paramLabel = "DIR", description = "where run directories go (default: results/)")
  Path resultsDir;

  @Option(names = "--verbose", description = "stack traces on errors")
  boolean verbose;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  private final Console console;
  private final Path home;
  private volatile EmbeddedPostgres embedded;
  private final List<Terminal> running = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final ShutdownGuard guard = new ShutdownGuard(() -> running.forEach(Terminal::stop), this::closeServer,
      Duration.ofSeconds(60));
  private Path runDir;

  public RunTpcc(Console console, Path home) {
    this.console = console;
    this.home = home;
  }

  public static void main(String[] args) {
    RunTpcc cmd = new RunTpcc(new Console(System.out), Path.of(System.getProperty("ybbench.home", ".")));
    cmd.guard.runMain(() -> cmd.execute(args, System.err));
  }

  public int execute(String[] args, PrintStream err) {
    try {
      return CommandLines.execute(this, args, err, console::clean, () -> verbose);
    } finally {
      guard.finished();
    }
  }

  public Path runDirectory() {
    return runDir;
  }

  private void closeServer() {
    EmbeddedPostgres pg = embedded;
    if (pg != null) {
      pg.close();
    }
  }

  @Override
  public Integer call() throws Exception {
    if (merge != null) {
      runDir = TpccMerge.merge(merge, resultsDir != null ? resultsDir : home.resolve("results"));
      console.line("Merged " + merge.size() + " runs: " + runDir);
      return 0;
    }
    TpccConfig config = readConfig();
    int w = config.scaleFactor();
    int total = totalWarehouses != null ? totalWarehouses : startWarehouse + w - 1;
    if (startWarehouse < 1 || startWarehouse + w - 1 > total) {
      throw new UserError("Warehouses " + startWarehouse + ".." + (startWarehouse + w - 1)
          + " do not fit in --total-warehouses " + total);
    }
    if (maxRetries < 0 || tablets < 0 || (loaderThreads != null && loaderThreads < 1)) {
      throw new UserError("--max-retries and --tablets cannot be negative, --loader-threads must be at least 1");
    }
    TpccConfig.Work work = config.works().get(0);
    int measureSeconds = duration != null ? duration : work.timeSeconds();
    int warmupSeconds = warmup != null ? warmup : work.warmupSeconds();
    if (measureSeconds < 1 || warmupSeconds < 0) {
      throw new UserError("--duration must be at least 1 second and --warmup cannot be negative");
    }
    String pw = password != null ? password : System.getenv().getOrDefault("YSQL_PASSWORD",
        config.password() == null ? "" : config.password());
    console.redact(pw);

    JdbcUrl url = JdbcUrl.parse(config.url());
    String dbUser = user != null ? user : (config.username() == null ? "yugabyte" : config.username());
    String hostSpec = hosts != null ? hosts : System.getenv("YSQL_NODES");
    Instant started = Instant.now();
    try {
      if (hostSpec == null || hostSpec.isBlank()) {
        console.line("Starting embedded PostgreSQL " + (dbVersion == null ? "(default version)" : dbVersion) + " …");
        embedded = EmbeddedPostgres.start(dbVersion, Math.max(config.terminals(), 8) + 30, console::line);
        console.line("Embedded PostgreSQL " + embedded.version() + " on " + embedded.hostPort());
        url = url.withHosts(embedded.hostPort());
        if (url.isYugabyteDriver()) {
          url = url.withParameter("load-balance", "false");
        }
        dbUser = EmbeddedPostgres.SUPERUSER;
      } else {
        if (dbVersion != null) {
          throw new UserError("--db-version picks the embedded server's version; it cannot apply with --hosts");
        }
        url = url.withHosts(HostList.parse(hostSpec, 5433).toString());
      }
      Database db = new Database(url, dbUser, pw, config.isolation());
      ServerInfo server = db.detect();
      console.line("Server: " + server.fullVersion());
      db.createDatabaseIfMissing(console::line);

      String configName = config.file().getFileName().toString().replaceFirst("\\.xml$", "");
      RunDirectory run = RunDirectory.create(resultsDir != null ? resultsDir : home.resolve("results"), "tpcc",
          configName, server, started);
      runDir = run.path();
      console.attach(run.consoleLog());
      RunInfo info = new RunInfo("tpcc", configName, label, started)
          .server(server, embedded != null, url.hosts(), embedded == null ? null
              : (dbVersion == null ? "default" : dbVersion) + " (" + embedded.version() + ")")
          .parameters(parameters(config, w, total, measureSeconds, warmupSeconds, url))
          .put("config_file", config.file().toString());
      run.writeJson("run.json", info.tree());
      console.line("Results: " + run.path());

      Map<String, Object> summary = new LinkedHashMap<>();
      summary.put("bench", "tpcc");
      summary.put("workload", configName);
      summary.put("server", Map.of("product", server.product(), "version", server.version()));
      summary.put("warehouses", w);
      summary.put("terminals", config.terminals());
      Map<String, Object> phases = new LinkedHashMap<>();
      summary.put("phases", phases);
      String state = RunInfo.COMPLETE;
      String error = null;
      SqlDialect dialect = SqlDialect.of(server);
      boolean explicit = create || load || execute || check || clear;
      try (Timeseries ts = new Timeseries(run.timeseries())) {
        boolean doCreate = create;
        boolean doLoad = load;
        if (!explicit) {
          long have = db.loadedWarehouses();
          doCreate = have < 0;
          doLoad = have != total;
          if (!doLoad) {
            console.line("Found " + have + " loaded warehouses: skipping create and load");
          } else if (have > 0) {
            doCreate = true; // a partial or different population: start over
          }
        }
        if (doCreate) {
          db.create(new TpccSchema(dialect, tablets), console::line);
        }
        if (doLoad) {
          phases.put("load", loadPhase(db, config, w, total));
          if (foreignKeys) {
            db.execute(TpccSchema.FOREIGN_KEYS, console::line);
          }
        }
        if ((execute || !explicit) && !guard.interrupted()) {
          phases.put("execute", executePhase(db, config, work, w, total, measureSeconds, warmupSeconds, run, ts));
        }
        if ((check || !explicit) && !guard.interrupted()) {
          summary.put("consistency", checkPhase(db));
        }
        if (clear) {
          db.execute(new TpccSchema(dialect, 0).dropTables(), console::line);
        }
      } catch (UserError e) {
        state = RunInfo.FAILED;
        error = e.getMessage();
        throw e;
      } catch (Exception | Error e) {
        state = RunInfo.FAILED;
        error = String.valueOf(e.getMessage() != null ? e.getMessage() : e);
        throw e;
      } finally {
        if (guard.interrupted() && state.equals(RunInfo.COMPLETE)) {
          state = RunInfo.INTERRUPTED;
        }
        summary.put("state", state);
        run.writeJson("summary.json", summary);
        run.writeJson("run.json", info.end(state, Instant.now(), error == null ? null : console.clean(error)).tree());
        if (phases.containsKey("execute")) {
          String why = Plots.draw(run, List.of("execute"), "tpcc " + configName + " on " + server.slug());
          if (why != null) {
            console.line("warning: " + why);
          }
        }
        console.line("Run " + state + ": " + run.path());
      }
      return 0;
    } finally {
      EmbeddedPostgres pg = embedded;
      if (pg != null) {
        console.line("Stopping embedded PostgreSQL " + pg.version());
        pg.close();
      }
      console.close();
    }
  }

  private TpccConfig readConfig() {
    if (warehouses != null && warehouses < 1) {
      throw new UserError("--warehouses must be at least 1, was " + warehouses);
    }
    if (terminals != null && terminals < 1) {
      throw new UserError("--terminals must be at least 1, was " + terminals);
    }
    Path file = configFile;
    if (file == null) {
      boolean cluster = hosts != null || System.getenv("YSQL_NODES") != null;
      file = home.resolve("tpcc/config").resolve(warehouses == null ? "tiny.xml"
          : cluster ? "yugabyte_100w.xml" : "postgres_100w.xml");
    }
    TpccConfig c = TpccConfig.read(file);
    // A warehouse has 10 terminals in the spec; fewer warehouses than the config's need fewer.
    Integer t = terminals != null ? terminals
        : warehouses != null ? Math.min(c.terminals(), 10 * warehouses) : null;
    return c.with(warehouses, t);
  }

  private Map<String, Object> loadPhase(Database db, TpccConfig config, int w, int total) throws Exception {
    int threads = loaderThreads != null ? loaderThreads : config.loaderThreads() != null ? config.loaderThreads() : 2;
    threads = Math.min(threads, w);
    long expectedRows = (startWarehouse == 1 ? TpccLoader.ITEMS : 0) + w * TpccLoader.ROWS_PER_WAREHOUSE;
    console.line(String.format(Locale.ROOT, "Loading warehouses %d..%d (%d rows) with %d threads", startWarehouse,
        startWarehouse + w - 1, expectedRows, threads));
    LongAdder rows = new LongAdder();
    AtomicInteger next = new AtomicInteger(startWarehouse);
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    List<Future<?>> futures = new ArrayList<>();
    if (startWarehouse == 1) {
      futures.add(pool.submit(() -> {
        try (Connection c = db.connect(true)) {
          new TpccLoader(new TpccRandom(0, LOAD_CONSTANTS), rows).loadItems(c);
        }
        return null;
      }));
    }
    for (int i = 0; i < threads; i++) {
      int seed = i + 1;
      futures.add(pool.submit(() -> {
        TpccLoader loader = new TpccLoader(new TpccRandom(seed * 7919L + System.nanoTime(), LOAD_CONSTANTS), rows);
        try (Connection c = db.connect(true)) {
          for (int wh = next.getAndIncrement(); wh < startWarehouse + w && !guard.interrupted(); wh = next.getAndIncrement()) {
            loader.loadWarehouse(c, wh);
          }
        }
        return null;
      }));
    }
    pool.shutdown();
    while (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
      double s = (System.nanoTime() - start) / 1e9;
      double done = rows.sum();
      double rate = done / s;
      console.line(String.format(Locale.ROOT, "[load] %.0f s, %.1f%% %d/%d rows, %.0f rows/s, ETA %.0f s", s,
          100 * done / expectedRows, rows.sum(), expectedRows, rate, Math.max(0, (expectedRows - done) / rate)));
    }
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (java.util.concurrent.ExecutionException e) {
        throw new UserError("Loading failed: " + e.getCause().getMessage());
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("duration_s", Math.round(seconds * 10) / 10.0);
    p.put("rows", rows.sum());
    p.put("rows_per_s", Math.round(rows.sum() / seconds));
    List<String> problems = startWarehouse == 1 && total == w ? db.populationProblems(w) : List.of();
    p.put("population_check", problems.isEmpty() ? "pass" : problems);
    console.line(String.format(Locale.ROOT, "Loaded %d rows in %.1f s (%.0f rows/s); population check: %s",
        rows.sum(), seconds, rows.sum() / seconds, problems.isEmpty() ? "pass" : String.join("; ", problems)));
    if (!problems.isEmpty()) {
      throw new UserError("The population check failed after loading: " + String.join("; ", problems));
    }
    return p;
  }

  private Map<String, Object> executePhase(Database db, TpccConfig config, TpccConfig.Work work, int w, int total,
      int measureSeconds, int warmupSeconds, RunDirectory run, Timeseries ts) throws Exception {
    Random seeds = new Random();
    TpccRandom.Constants runConstants = TpccRandom.Constants.forRun(LOAD_CONSTANTS, seeds);
    Metrics warmupMetrics = new Metrics();
    double pacing = work.rate() == null ? 0 : config.terminals() / work.rate();
    List<Thread> threads = new ArrayList<>();
    running.clear();
    for (int i = 0; i < config.terminals(); i++) {
      // Terminals spread over the warehouses first, then over each warehouse's districts.
      int home = startWarehouse + i % w;
      int district = (i / w) % 10 + 1;
      Terminal t = new Terminal(home, district, total, () -> {
        try {
          return db.connect(false);
        } catch (SQLException e) {
          throw new RuntimeException(e);
        }
      }, config, work, new TpccRandom(seeds.nextLong(), runConstants), maxRetries, pacing, warmupMetrics);
      running.add(t);
      Thread th = new Thread(t, "tpcc-terminal-" + i);
      threads.add(th);
    }
    console.line(String.format(Locale.ROOT, "Executing: %d terminals on warehouses %d..%d, warm-up %d s, measure %d s",
        config.terminals(), startWarehouse, startWarehouse + w - 1, warmupSeconds, measureSeconds));
    threads.forEach(Thread::start);
    sleepWhileRunning(warmupSeconds);
    Metrics metrics = new Metrics();
    PhaseRecorder recorder = new PhaseRecorder("execute", metrics, run.latencyDir(), ts);
    running.forEach(t -> t.recordInto(metrics));
    long start = System.nanoTime();
    for (int s = 10; s <= measureSeconds && !guard.interrupted(); s += 10) {
      sleepWhileRunning(Math.min(10, measureSeconds - (s - 10)));
      if (!guard.interrupted() && s < measureSeconds) {
        console.line(String.format(Locale.ROOT, "[execute] %d s of %d s, ", s, measureSeconds)
            + TpccMetrics.status(metrics, (System.nanoTime() - start) / 1e9));
      }
    }
    if (measureSeconds % 10 != 0 && !guard.interrupted()) {
      sleepWhileRunning(measureSeconds % 10);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    running.forEach(Terminal::stop);
    // What finishes after the window closes is not measured.
    running.forEach(t -> t.recordInto(new Metrics()));
    recorder.close();
    for (Thread th : threads) {
      th.join(TimeUnit.SECONDS.toMillis(60));
    }
    double tpmC = TpccMetrics.tpmC(metrics, seconds);
    double efficiency = TpccMetrics.efficiency(tpmC, w);
    Map<String, Object> p = PhaseSummary.of(metrics, recorder.totals(), seconds);
    p.put("tpmC", Math.round(tpmC * 10) / 10.0);
    p.put("efficiency_pct", Math.round(efficiency * 100) / 100.0);
    p.put("response_time_limits", TpccMetrics.responseTimeLimits(recorder.totals()));
    console.line(String.format(Locale.ROOT, "tpmC %.1f, efficiency %.2f%% (of %.2f × %d warehouses); ", tpmC,
        efficiency, TpccMetrics.SPEC_WAREHOUSE_FACTOR, w) + TpccMetrics.status(metrics, seconds));
    TpccMetrics.responseTimeLimits(recorder.totals()).forEach((k, v) -> console.line("  p90 " + k + ": " + v));
    return p;
  }

  private Map<String, Object> checkPhase(Database db) throws SQLException {
    List<ConsistencyChecks.Result> results = db.consistency();
    Map<String, Object> out = new LinkedHashMap<>();
    boolean all = true;
    for (ConsistencyChecks.Result r : results) {
      console.line("Consistency " + r);
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("condition", r.condition().statement());
      one.put("pass", r.passed());
      if (!r.passed()) {
        one.put("violations", r.violations());
        one.put("first", r.firstOffender());
      }
      out.put(r.condition().clause(), one);
      all &= r.passed();
    }
    out.put("all_pass", all);
    return out;
  }

  private void sleepWhileRunning(long seconds) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!guard.interrupted() && System.nanoTime() < until) {
      Thread.sleep(100);
    }
  }

  private Map<String, String> parameters(TpccConfig c, int w, int total, int measure, int warm, JdbcUrl url) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("url", url.toString());
    m.put("isolation", c.isolation());
    m.put("warehouses", Integer.toString(w));
    m.put("start_warehouse", Integer.toString(startWarehouse));
    m.put("total_warehouses", Integer.toString(total));
    m.put("terminals", Integer.toString(c.terminals()));
    m.put("time_s", Integer.toString(measure));
    m.put("warmup_s", Integer.toString(warm));
    TpccConfig.Work work = c.works().get(0);
    m.put("rate", work.rate() == null ? "unlimited" : work.rate().toString());
    m.put("weights", work.weights().toString());
    for (TpccConfig.TransactionType t : c.transactionTypes()) {
      m.put("wait." + t.name(), t.preExecutionWaitMs() + "/" + t.postExecutionWaitMs());
    }
    m.put("tablets", Integer.toString(tablets));
    m.put("max_retries", Integer.toString(maxRetries));
    return m;
  }

  /** The database the config names, reached through the config's driver. */
  static final class Database {
    private final JdbcUrl url;
    private final String user;
    private final String password;
    private final int isolation;

    Database(JdbcUrl url, String user, String password, String isolation) {
      this.url = url;
      this.user = user;
      this.password = password;
      this.isolation = switch (isolation) {
        case "TRANSACTION_READ_UNCOMMITTED" -> Connection.TRANSACTION_READ_UNCOMMITTED;
        case "TRANSACTION_READ_COMMITTED" -> Connection.TRANSACTION_READ_COMMITTED;
        case "TRANSACTION_REPEATABLE_READ" -> Connection.TRANSACTION_REPEATABLE_READ;
        default -> Connection.TRANSACTION_SERIALIZABLE;
      };
    }

    Connection connect(boolean autocommit) throws SQLException {
      return connect(url, autocommit);
    }

    private Connection connect(JdbcUrl u, boolean autocommit) throws SQLException {
      Properties p = new Properties();
      p.setProperty("user", user);
      if (!password.isEmpty()) {
        p.setProperty("password", password);
      }
      p.setProperty("connectTimeout", "10");
      Connection c = DriverManager.getConnection(u.toString(), p);
      c.setAutoCommit(autocommit);
      if (!autocommit) {
        c.setTransactionIsolation(isolation);
      }
      return c;
    }

    ServerInfo detect() {
      try (Connection c = connect(url.withDatabase("postgres"), true)) {
        return ServerInfo.detect(c);
      } catch (SQLException e) {
        throw new UserError("Cannot connect to " + url.hosts() + ": "
            + e.getMessage().split("\n")[0].replaceAll("[.\\s]+$", "")
            + "; check --hosts (or YSQL_NODES), --user and --password");
      }
    }

    void createDatabaseIfMissing(java.util.function.Consumer<String> log) throws SQLException {
      try (Connection c = connect(url.withDatabase("postgres"), true);
          PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
        ps.setString(1, url.database());
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next()) {
            log.accept("Creating database " + url.database());
            try (Statement st = c.createStatement()) {
              st.execute("CREATE DATABASE \"" + url.database().replace("\"", "\"\"") + "\"");
            }
          }
        }
      }
    }

    /** Warehouses loaded (rows in WAREHOUSE), or -1 when the tables do not exist. */
    long loadedWarehouses() throws SQLException {
      try (Connection c = connect(true); Statement st = c.createStatement()) {
        try (ResultSet rs = st.executeQuery("SELECT to_regclass('warehouse') IS NOT NULL")) {
          rs.next();
          if (!rs.getBoolean(1)) {
            return -1;
          }
        }
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM warehouse")) {
          rs.next();
          return rs.getLong(1);
        }
      }
    }

    void create(TpccSchema schema, java.util.function.Consumer<String> log) throws SQLException {
      List<String> ddl = new ArrayList<>(schema.dropTables());
      ddl.addAll(schema.createTables());
      execute(ddl, log);
    }

    void execute(List<String> statements, java.util.function.Consumer<String> log) throws SQLException {
      try (Connection c = connect(true); Statement st = c.createStatement()) {
        for (String sql : statements) {
          log.accept("Schema: " + sql);
          st.execute(sql);
        }
      }
    }

    List<String> populationProblems(int warehouses) throws SQLException {
      try (Connection c = connect(true)) {
        return PopulationCheck.run(c, warehouses);
      }
    }

    List<ConsistencyChecks.Result> consistency() throws SQLException {
      try (Connection c = connect(true)) {
        return ConsistencyChecks.run(c);
      }
    }
  }
}
