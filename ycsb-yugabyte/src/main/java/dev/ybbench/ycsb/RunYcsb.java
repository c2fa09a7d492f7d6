package dev.ybbench.ycsb;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.embedded.CassandraVersions;
import dev.ybbench.harness.embedded.EmbeddedCassandra;
import dev.ybbench.harness.embedded.PostgresVersions;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.Console;
import dev.ybbench.ycsb.schema.KeyLayout;
import dev.ybbench.ycsb.ysql.YsqlConfig;
import dev.ybbench.ycsb.ysql.YsqlTarget;
import dev.ybbench.ycsb.ycql.YcqlConfig;
import dev.ybbench.ycsb.ycql.YcqlTarget;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.results.RunInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunFailure;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.run.RunOptions;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;
import dev.ybbench.ycsb.workload.CoreWorkload64;

/** {@code ./run_ycsb.sh WORKLOAD [options]}: server, schema, load, run, results. */
@Command(name = "run_ycsb.sh", sortOptions = false, usageHelpAutoWidth = true,
    description = {
        "Runs a YCSB workload over YugabyteDB's YSQL or YCQL API. With no --hosts it starts an embedded "
            + "PostgreSQL (YSQL speaks its protocol) or Cassandra (YCQL speaks CQL) and stops it afterwards. "
            + "Results go to "
            + "results/<UTC time>_ycsb_<workload>_<product>-<version>/ (see results/README.md).",
        ""},
    footer = {"",
        "Examples:",
        "  ./run_ycsb.sh workloada",
        "  ./run_ycsb.sh workloade-hashrange --threads 16 --duration 120",
        "  ./run_ycsb.sh workloadb --hosts 10.0.0.1,10.0.0.2,10.0.0.3 --tablets 12",
        "  ./run_ycsb.sh workloada --db-version 16 -p requestdistribution=uniform",
        "  ./run_ycsb.sh workloada --api ycql --nodes 3 --consistency QUORUM",
        "  ./run_ycsb.sh -P path/to/ycsb/workloads/workloadb",
        "  ./run_ycsb.sh sqlinserts --hosts H --clients 4 --client-index 2 --fleet f1   (one of four clients)",
        "  ./run_ycsb.sh --merge results/<client 0 run> results/<client 1 run> …"})
public final class RunYcsb implements java.util.concurrent.Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "WORKLOAD",
      description = "a file in workloads/ (workloada … workloadf, workloade-hashrange, and the published "
          + "experiments: sqlinserts, sqlinserts-read, cassandra-kv-read, cassandra-kv-write, largedata-load, "
          + "largedata-read-uniform, largedata-read-subset) or a path to any YCSB workload file")
  String workload;

  @Option(names = "-P", paramLabel = "FILE", description = "a YCSB workload file, as YCSB's own -P takes it")
  Path workloadFileOption;

  @Option(names = "--api", paramLabel = "API",
      description = "ysql (JDBC; embedded PostgreSQL) or ycql (CQL; embedded Cassandra) "
          + "(default: the workload file's ybbench.api, else ysql)")
  String api;

  @Option(names = "--hosts", paramLabel = "H[:P],…",
      description = "YugabyteDB nodes (default port 5433 YSQL, 9042 YCQL; or env YSQL_NODES / YCQL_NODES or YCQL_ADDRS). "
          + "Without: an embedded server")
  String hosts;

  @Option(names = "--nodes", paramLabel = "N", defaultValue = "1",
      description = "YCQL's embedded Cassandra: nodes in the cluster, on 127.0.0.1 … 127.0.0.N (default: ${DEFAULT-VALUE})")
  int nodes;

  @Option(names = "--rf", paramLabel = "N",
      description = "YCQL: the keyspace's replication factor (default: the embedded node count, at most 3; else 1)")
  Integer rf;

  @Option(names = "--consistency", paramLabel = "CL",
      description = "YCQL: consistency level of every request, e.g. ONE, QUORUM, ALL (default: QUORUM)")
  String consistency;

  @Option(names = "--db-version", paramLabel = "V",
      description = "embedded server version: PostgreSQL 13-18 or an exact release (default: 17); "
          + "Cassandra 4.1 or 5.0 or an exact release (default: 5.0)")
  String dbVersion;

  @Option(names = "--threads", paramLabel = "N", defaultValue = "8",
      description = "client threads, one connection each (default: ${DEFAULT-VALUE})")
  int threads;

  @Option(names = "--records", paramLabel = "N", description = "records to load (YCSB recordcount)")
  Long records;

  @Option(names = "--operations", paramLabel = "N", description = "operations in the run phase (YCSB operationcount)")
  Long operations;

  @Option(names = "--duration", paramLabel = "SECONDS", defaultValue = "60",
      description = "longest run phase; it ends at --operations or here, whichever comes first "
          + "(default: ${DEFAULT-VALUE}; 0 = no limit)")
  long duration;

  @Option(names = "--warmup", paramLabel = "SECONDS",
      description = "run the workload this long before measuring; recorded apart as the phase \"warmup\" "
          + "(default: the workload's warmuptime, else 0)")
  Long warmup;

  @Option(names = "--target", paramLabel = "OPS",
      description = "cap throughput at this many ops/s over all threads, load and run alike "
          + "(default: the workload file's ybbench.target_ops, else no cap)")
  Double target;

  @Option(names = "--layout", paramLabel = "L",
      description = "primary key: hash, range or hash-range (default: the workload file's yb.layout, else hash)")
  String layout;

  @Option(names = "--tablets", paramLabel = "N", description = "YugabyteDB: pre-split the table into N tablets")
  Integer tablets;

  @Option(names = "--batch-size", paramLabel = "N",
      description = "load: YSQL rows per insert batch; YCQL writes in flight per thread; 1 = one at a time "
          + "(default: the workload file's ybbench.batch_size, else 512 for YSQL, 128 for YCQL)")
  Integer batchSize;

  @Option(names = "--load-method", paramLabel = "M",
      description = "load, YSQL: copy (each batch one COPY FROM STDIN) or insert (each batch one multi-row INSERT) "
          + "(default: copy)")
  String loadMethod;

  @Option(names = "--phase", paramLabel = "P",
      description = "load, run, both, or create (the table alone, for clients that then load it) "
          + "(default: the workload file's ybbench.phase, else both)")
  String phase;

  @Option(names = "--clients", paramLabel = "N", defaultValue = "1",
      description = "clients (processes or machines) sharing one table: each loads its slice of the keys and "
          + "inserts new keys of its own (default: ${DEFAULT-VALUE})")
  int clients;

  @Option(names = "--client-index", paramLabel = "I", defaultValue = "0",
      description = "which of the --clients this is, 0 … N-1: client 0 creates the table, the others wait for it "
          + "(default: ${DEFAULT-VALUE})")
  int clientIndex;

  @Option(names = "--fleet", paramLabel = "ID",
      description = "the clients' shared id (letters, digits, . _ -): the table client 0 creates carries it, "
          + "so the others wait for that table and not one left from an earlier run")
  String fleet;

  @Option(names = "--merge", arity = "2..*", paramLabel = "RUN_DIR",
      description = "add the runs of clients that shared one table up into one run directory")
  List<Path> merge;

  @Option(names = "--resume", paramLabel = "RUN_DIR",
      description = "continue the load of RUN_DIR, which crashed or was stopped, with the same flags: the keys it "
          + "may or may not have written are looked up in the table, the missing ones inserted, and the load goes on "
          + "where it stopped")
  Path resume;

  @Option(names = "--driver", paramLabel = "D",
      description = "yugabyte (smart driver, com.yugabyte:jdbc-yugabytedb) or pgjdbc (default: the smart driver on "
          + "YugabyteDB, pgjdbc on PostgreSQL)")
  String driver;

  @Option(names = "--database", paramLabel = "DB", defaultValue = "ycsb",
      description = "database to create and use (default: ${DEFAULT-VALUE})")
  String database;

  @Option(names = "--user", paramLabel = "USER", description = "default: yugabyte, or postgres for the embedded server")
  String user;

  @Option(names = "--password", paramLabel = "PW", description = "default: env YSQL_PASSWORD; never written to results")
  String password;

  @Mixin
  RunOptions options = new RunOptions();

  @Option(names = "-p", paramLabel = "KEY=VALUE", description = "a YCSB or binding property (repeatable)")
  Map<String, String> extraProps = new LinkedHashMap<>();

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  /** The workload property for --warmup, in seconds (named after YCSB's maxexecutiontime). */
  static final String WARMUP_PROPERTY = "warmuptime";

  private final Path home;
  private final RunLifecycle lifecycle;
  private String[] args = new String[0];
  private volatile ApiTarget apiTarget;

  public RunYcsb(Console console, Path home) {
    this.home = home;
    this.lifecycle = new RunLifecycle(console);
  }

  public static void main(String[] args) {
    Path home = Path.of(System.getProperty("ybbench.home", "."));
    RunYcsb cmd = new RunYcsb(new Console(System.out), home);
    cmd.lifecycle.main(() -> cmd.execute(args, System.err));
  }

  /** Parses and runs; returns the exit code. Errors are one line on {@code err}. */
  public int execute(String[] args, PrintStream err) {
    this.args = args.clone();
    try {
      return CommandLines.execute(this, args, err, lifecycle.console()::clean, () -> options.verbose);
    } finally {
      lifecycle.finished();
    }
  }

  /** The run directory of the last run, for tests and callers. */
  public Path runDirectory() {
    return mergedDir != null ? mergedDir : lifecycle.runDirectory();
  }

  /** run.json's record of a client's slice of the load, "start+count" (only with more than one client). */
  static final String LOAD_KEYS = "ybbench.load_keys";

  /** What a --fleet id may be: it is written into the table's mark and matched by the other clients. */
  static final String FLEET_ID = "[A-Za-z0-9._-]{1,64}";

  /** How long clients other than client 0 wait for the table it creates. */
  static final int SCHEMA_WAIT_S = 600;

  /** The merged run of the last --merge, for tests and callers. */
  private Path mergedDir;

  @Override
  public Integer call() throws Exception {
    Console console = lifecycle.console();
    if (merge != null) {
      mergedDir = YcsbMerge.merge(merge, options.resultsRoot(home), w -> console.line("warning: " + w));
      console.line("Merged " + merge.size() + " runs: " + mergedDir);
      return 0;
    }
    Path workloadFile = WorkloadFiles.resolve(workload, workloadFileOption, home);
    Properties props = WorkloadFiles.read(workloadFile);
    extraProps.forEach(props::setProperty);
    String phaseFrom = phase != null ? "--phase run" : FILE_PHASE + "=run (" + workloadFile.getFileName() + " or -p)";
    takeFileDefaults(props, workloadFile);
    validate(phaseFrom);
    console.redact(password);
    console.redact(System.getenv("YSQL_PASSWORD"));
    ycsbProperties(props);
    boolean doLoad = phase.equals("load") || phase.equals("both");
    boolean doRun = phase.equals("run") || phase.equals("both");
    WorkloadCheck.check(props, doRun).forEach(note -> console.line("note: " + note));
    long insertStart = Long.parseLong(props.getProperty("insertstart", "0"));
    props.setProperty("insertcount", props.getProperty("insertcount",
        Long.toString(Long.parseLong(props.getProperty("recordcount")) - insertStart)));
    // This client's share of the keys the clients load; reads and updates go over all of them.
    long[] mine = CoreWorkload64.slice(insertStart, Long.parseLong(props.getProperty("insertcount")), clients,
        clientIndex);
    if (doLoad && mine[1] == 0) {
      throw new UserError("--clients " + clients + " is more than the " + props.getProperty("insertcount")
          + " records to load: client " + clientIndex + " would have none; use fewer clients or more --records");
    }
    // CoreWorkload's keys can be split among clients and drawn by a load's checkpoint; another class numbers its own.
    boolean coreWorkload = CoreWorkload64.isCore(props.getProperty("workload"));
    if (clients > 1 && !coreWorkload) {
      throw new UserError("--clients splits the keys of YCSB's CoreWorkload; workload=" + props.getProperty("workload")
          + " numbers its own keys, so its clients would insert the same ones; run it as one client");
    }
    props.setProperty(CoreWorkload64.CLIENTS, Integer.toString(clients));
    props.setProperty(CoreWorkload64.CLIENT_INDEX, Integer.toString(clientIndex));
    if (doRun && Long.parseLong(props.getProperty("operationcount", "1000")) == 0 && duration == 0) {
      throw new UserError("operationcount is 0 and --duration is 0: the run would never end; set one of them");
    }
    String workloadName = workloadFile.getFileName().toString().replaceFirst("\\.properties$", "");
    LoadCheckpoint.Saved earlier = resume == null ? null : earlierLoad(workloadName, parameters(props, mine), mine);
    RunLifecycle.Spec spec = new RunLifecycle.Spec("ycsb", workloadName, options, home, () -> parameters(props, mine),
        resume == null ? Map.of("api", api) : Map.of("api", api, "resumed_from", resume.getFileName().toString()),
        List.of(args));
    ApiTarget.Options targetOptions = new ApiTarget.Options(hosts, dbVersion, threads, nodes);
    return lifecycle.run(spec, () -> apiTarget = openTarget(targetOptions, props), run -> {
      run.auditTable(props.getProperty("table", "usertable"), clients);
      if (resume != null) {
        apiTarget.useExistingSchema(console::line); // the table the earlier part loaded into
      } else if (phase.equals("create") || doLoad && clientIndex == 0) {
        apiTarget.createSchema(fleet, console::line);
      } else if (doLoad) {
        awaitSchema(run);
      } else {
        apiTarget.useExistingSchema(console::line);
      }
      if (doLoad && !run.interrupted()) {
        Properties loadProps = (Properties) props.clone();
        loadProps.setProperty(YsqlConfig.BATCH_SIZE, Integer.toString(batchSize));
        loadProps.setProperty("insertstart", Long.toString(mine[0]));
        loadProps.setProperty("insertcount", Long.toString(mine[1]));
        console.line(String.format("Loading %d records%s with %d threads (%s %d)%s", mine[1], clients == 1 ? ""
            : String.format(" (keys %d … %d, client %d of %d)", mine[0], mine[0] + mine[1] - 1, clientIndex,
                clients), threads, api.equals("ycql") ? "writes in flight per thread:" : batchSize == 1
                    ? "rows per INSERT:" : props.getProperty(YsqlConfig.LOAD_METHOD).equals("copy") ? "rows per COPY:"
                    : "rows per multi-row INSERT:", batchSize,
            target > 0 ? String.format(", paced to %.0f rows/s", target) : ""));
        LoadCheckpoint checkpoint = coreWorkload ? checkpoint(run, loadProps, mine, earlier) : null;
        runPhase(run, "load", loadProps, checkpoint == null ? mine[1] : checkpoint.toInsert(), target, 0, 0,
            checkpoint);
      }
      if (doRun && !run.interrupted()) {
        long opCount = Long.parseLong(props.getProperty("operationcount", "1000"));
        console.line(String.format("Running %s with %d threads: %s operations, at most %s", workloadName, threads,
            opCount == 0 ? "unlimited" : Long.toString(opCount), duration == 0 ? "no time limit" : duration + " s"));
        runPhase(run, "run", props, opCount, target, Long.parseLong(props.getProperty(WARMUP_PROPERTY, "0")), duration,
            null);
      }
    });
  }

  /**
   * Waits, for at most {@value #SCHEMA_WAIT_S} s, until client 0 has created the table (with
   * --fleet, for this fleet), then holds it as a run that does not create it.
   */
  private void awaitSchema(Run run) throws InterruptedException {
    long start = System.nanoTime();
    long nextLine = 0;
    while (!apiTarget.schemaReady(fleet)) {
      long waited = (System.nanoTime() - start) / 1_000_000_000L;
      if (run.interrupted()) {
        return;
      }
      if (waited >= SCHEMA_WAIT_S) {
        throw new RunFailure("client " + clientIndex + " of " + clients + " waited " + SCHEMA_WAIT_S + " s for the "
            + "table " + (fleet == null ? "" : "of fleet " + fleet + " ") + "that client 0 creates; start client 0 "
            + "with the same " + (fleet == null ? "--database" : "--fleet and --database") + ", or create it first "
            + "with --phase create");
      }
      if (waited >= nextLine) {
        run.console().line("Waiting for client 0 to create the table" + (fleet == null ? "" : " of fleet " + fleet)
            + " (" + waited + " s of at most " + SCHEMA_WAIT_S + " s)");
        nextLine = waited + 10;
      }
      Thread.sleep(500);
    }
    apiTarget.useExistingSchema(run.console()::line);
  }

  private ApiTarget openTarget(ApiTarget.Options options, Properties props) {
    Consumer<String> log = lifecycle.console()::line;
    return api.equals("ycql") ? YcqlTarget.open(options, props, log) : YsqlTarget.open(options, props, log);
  }

  private void runPhase(Run run, String name, Properties props, long opCount, double targetOps, long warmupSeconds,
      long maxSeconds, LoadCheckpoint checkpoint) throws Exception {
    YcsbPhase p = new YcsbPhase(name, props, apiTarget::newBinding, run.console()::line, () -> run.beginPhase(name))
        .checkpointed(checkpoint);
    run.onStop(p::stop);
    YcsbPhase.Result r = p.execute(threads, opCount, targetOps, warmupSeconds, maxSeconds,
        run.directory().latencyDir(), run.timeseries());
    run.console().line(YcsbReport.text(r));
    if (r.warmup() != null) {
      run.keep(YcsbPhase.WARMUP, r.warmup());
    }
    run.record(name, r.summary());
  }

  /**
   * The flags a workload file may set for its scenario, as {@code ybbench.api=ycql} and so on: a
   * published experiment is one file, run with its API, phase, pace and batch size unless a flag
   * given says otherwise. They are taken out of the YCSB properties, and run.json records the
   * values used.
   */
  static final String FILE_API = "ybbench.api";
  static final String FILE_PHASE = "ybbench.phase";
  static final String FILE_TARGET = "ybbench.target_ops";
  static final String FILE_BATCH_SIZE = "ybbench.batch_size";
  /**
   * Rows per YSQL load batch (one COPY each), from measurement: 500,000 rows of workloada, 8
   * threads, embedded PostgreSQL, two rounds alternating — 128 rows: 85–89 K rows/s, 512:
   * 96–98 K, 1,000: 94–99 K, 4,096: 87–90 K (more client CPU per row). 512 is as fast as 1,000
   * with half the rows in doubt per batch should the load be cut short.
   */
  static final int YSQL_BATCH_ROWS = 512;
  /** YCQL writes in flight per thread during a load. */
  static final int YCQL_IN_FLIGHT = 128;

  private void takeFileDefaults(Properties props, Path file) {
    String fileApi = (String) props.remove(FILE_API);
    String filePhase = (String) props.remove(FILE_PHASE);
    String fileTarget = (String) props.remove(FILE_TARGET);
    String fileBatch = (String) props.remove(FILE_BATCH_SIZE);
    api = api != null ? api : fileApi != null ? fileApi.trim() : "ysql";
    phase = phase != null ? phase : filePhase != null ? filePhase.trim() : "both";
    target = target != null ? target : fileTarget != null ? fileNumber(file, FILE_TARGET, fileTarget, false) : 0;
    batchSize = batchSize != null ? batchSize
        : fileBatch != null ? (int) fileNumber(file, FILE_BATCH_SIZE, fileBatch, true)
        : api.equals("ycql") ? YCQL_IN_FLIGHT : YSQL_BATCH_ROWS;
  }

  private static double fileNumber(Path file, String key, String value, boolean whole) {
    try {
      double d = Double.parseDouble(value.trim());
      if (whole && d != Math.rint(d)) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      throw new UserError(key + "=" + value + " (" + file.getFileName() + " or -p) is not a" + (whole ? " whole" : "")
          + " number");
    }
  }


  /**
   * The checkpoint of this run's load: a fresh one, or for --resume one that first inserts the
   * keys the earlier part left in doubt and did not write (looked up in the table here, before
   * the phase and its server audit begin), then goes on where it stopped.
   */
  private LoadCheckpoint checkpoint(Run run, Properties loadProps, long[] mine, LoadCheckpoint.Saved earlier)
      throws Exception {
    // Keys handed out per write of the file, so at most this many (plus those in flight) are in doubt after a crash.
    int reserveAhead = (int) Math.min(1_000_000, Math.max(1_000L, 2L * threads * batchSize));
    Path dir = run.directory().path();
    if (earlier == null) {
      return new LoadCheckpoint(dir, mine[0], mine[0] + mine[1], mine[0], List.of(), reserveAhead, null);
    }
    Measurements.setProperties(loadProps);
    CoreWorkload64 names = (CoreWorkload64) YcsbPhase.workload(loadProps);
    List<Long> doubtful = earlier.doubtful();
    List<Long> missing = new ArrayList<>();
    DB db = apiTarget.newBinding();
    db.setProperties(loadProps);
    db.init();
    try {
      String table = loadProps.getProperty("table", "usertable");
      for (long k : doubtful) {
        Status s = db.read(table, names.buildKeyName(k), null, new HashMap<>());
        if (s == Status.NOT_FOUND) {
          missing.add(k);
        } else if (!s.isOk()) {
          throw new RunFailure("cannot tell whether key " + names.buildKeyName(k) + " of " + resume + " was written: "
              + s.getName() + " " + s.getDescription());
        }
      }
    } finally {
      db.cleanup();
    }
    ObjectNode from = RunDirectory.JSON.createObjectNode().put("run", resume.getFileName().toString())
        .put("written", earlier.written()).put("lost", earlier.lost()).put("in_doubt", doubtful.size())
        .put("found", doubtful.size() - missing.size()).put("missing", missing.size());
    if (earlier.resumedFrom() != null) {
      from.set("resumed_from", earlier.resumedFrom());
    }
    run.console().line(String.format("Resuming the load of %s: it wrote %d rows (%d lost); of the %d keys it left in "
        + "doubt %d are in the table and %d are not, which go first; %s", resume.getFileName(), earlier.written(),
        earlier.lost(), doubtful.size(), doubtful.size() - missing.size(), missing.size(),
        earlier.reserved() < earlier.end() ? "then keys " + earlier.reserved() + " … " + (earlier.end() - 1)
            : "no key after them was handed out"));
    return new LoadCheckpoint(dir, earlier.start(), earlier.end(), earlier.reserved(), missing, reserveAhead, from);
  }

  /**
   * The load --resume continues: its checkpoint, refused with one line when there is none, when
   * it is complete, or when this command would load other keys or another workload.
   */
  private LoadCheckpoint.Saved earlierLoad(String workloadName, Map<String, String> params, long[] mine)
      throws IOException {
    if (!Files.isRegularFile(resume.resolve(LoadCheckpoint.FILE)) || !Files.isRegularFile(resume.resolve("run.json"))) {
      throw new UserError("--resume " + resume + " is not the run directory of a load (it has no "
          + LoadCheckpoint.FILE + ")");
    }
    LoadCheckpoint.Saved saved = LoadCheckpoint.Saved.read(resume);
    if (saved.complete()) {
      throw new UserError("The load in " + resume + " is complete: nothing to resume");
    }
    JsonNode info = RunDirectory.JSON.readTree(resume.resolve("run.json").toFile());
    if (!info.path("workload").asText().equals(workloadName)) {
      throw new UserError("--resume " + resume + " ran " + info.path("workload").asText() + ", not " + workloadName);
    }
    // The command's own parameters; those the server adds once it is found (driver, dialect) are left out.
    for (String n : new TreeSet<>(params.keySet())) {
      String was = info.path("parameters").path(n).isMissingNode() ? null : info.path("parameters").path(n).asText();
      if (!RunInfo.mayDifferBetweenRuns(n) && !RESUME_MAY_CHANGE.matcher(n).matches()
          && !Objects.equals(was, params.get(n))) {
        throw new UserError("--resume " + resume + ": its " + n + " was " + was + ", this command's is " + params.get(n)
            + "; give the flags of the run it continues");
      }
    }
    if (saved.start() != mine[0] || saved.end() != mine[0] + mine[1]) {
      throw new UserError("--resume " + resume + " loaded keys " + saved.start() + " … " + (saved.end() - 1)
          + ", this command's are " + mine[0] + " … " + (mine[0] + mine[1] - 1));
    }
    return saved;
  }

  /** What a resumed load may do differently: how many threads, batches, and how long a run phase. */
  private static final Pattern RESUME_MAY_CHANGE = Pattern.compile(
      "threadcount|ybbench\\.threads|ybbench\\.batch_size|ybbench\\.duration_s");

  private void validate(String phaseFrom) {
    if (!api.equals("ysql") && !api.equals("ycql")) {
      throw new UserError("Unknown --api '" + api + "' (or ybbench.api); use ysql or ycql");
    }
    if (api.equals("ysql") && (rf != null || consistency != null)) {
      throw new UserError("--rf and --consistency apply to --api ycql");
    }
    if (nodes < 1) {
      throw new UserError("--nodes must be at least 1, was " + nodes);
    }
    if (rf != null && rf < 1) {
      throw new UserError("--rf must be at least 1, was " + rf);
    }
    if (threads < 1) {
      throw new UserError("--threads must be at least 1, was " + threads);
    }
    if (records != null && records < 0 || operations != null && operations < 0) {
      throw new UserError("--records and --operations cannot be negative");
    }
    if (duration < 0) {
      throw new UserError("--duration cannot be negative; 0 means no time limit");
    }
    if (warmup != null && warmup < 0) {
      throw new UserError("--warmup cannot be negative, was " + warmup);
    }
    if (target < 0) {
      throw new UserError("--target cannot be negative; 0 means no cap");
    }
    if (batchSize < 1) {
      throw new UserError("--batch-size must be at least 1, was " + batchSize);
    }
    if (loadMethod != null && api.equals("ycql")) { // a YSQL method's name is checked with the properties
      throw new UserError("--load-method is for YSQL loads; YCQL's load keeps --batch-size writes in flight");
    }
    if (tablets != null && tablets < 1) {
      throw new UserError("--tablets must be at least 1, was " + tablets);
    }
    if (!List.of("load", "run", "both", "create").contains(phase)) {
      throw new UserError("Unknown --phase '" + phase + "' (or ybbench.phase); use load, run, both or create");
    }
    if (clients < 1) {
      throw new UserError("--clients must be at least 1, was " + clients);
    }
    if (clientIndex < 0 || clientIndex >= clients) {
      throw new UserError("--client-index must be 0 … " + (clients - 1) + " for --clients " + clients + ", was "
          + clientIndex);
    }
    if (fleet != null && !fleet.matches(FLEET_ID)) {
      throw new UserError("--fleet '" + fleet + "' must be 1-64 letters, digits, '.', '_' or '-'");
    }
    if (layout != null) {
      KeyLayout.fromFlag(layout);
    }
    if (resume != null && !phase.equals("load") && !phase.equals("both")) {
      throw new UserError("--resume continues a load; --phase " + phase + " has none");
    }
    if (resume != null && !Files.isDirectory(resume)) {
      throw new UserError("--resume " + resume + " is not a directory; give the run directory of the load");
    }
    if (hosts != null && hosts.isBlank()) {
      throw new UserError("--hosts is empty (an unset variable?); give host[:port],… or leave it out for an "
          + "embedded server");
    }
    boolean embedded = hosts == null && HostList.fromEnvironment(api.equals("ycql")) == null;
    if (embedded && phase.equals("run")) {
      throw new UserError(phaseFrom + " needs --hosts of a server loaded earlier: an embedded server starts "
          + "empty (to load and run one workload after another on one server: run-scripts/fleet.sh --clients 1 "
          + "LOAD_WORKLOAD RUN_WORKLOAD)");
    }
    if (embedded && clientIndex > 0) {
      throw new UserError("--client-index " + clientIndex + " needs --hosts: an embedded server would be this "
          + "client's own, with no client 0 to create its table");
    }
    if (embedded && api.equals("ycql")) {
      EmbeddedCassandra.checkNodes(nodes);
      if (rf != null && rf > nodes) {
        throw new UserError("--rf " + rf + " needs at least " + rf + " nodes; the embedded cluster has " + nodes
            + " (--nodes)");
      }
      CassandraVersions.resolve(dbVersion);
    } else if (embedded) {
      PostgresVersions.resolve(dbVersion);
    }
    RunDirectory.checkWritable(options.resultsRoot(home));
    options.limits();
  }

  /** Workload file, then -p (both in {@code props}), then the flags: the later one wins. */
  private void ycsbProperties(Properties props) {
    props.setProperty("recordcount", props.getProperty("recordcount", "1000")); // YCSB's own workload files' value
    if (records != null) {
      props.setProperty("recordcount", Long.toString(records));
    }
    if (operations != null) {
      props.setProperty("operationcount", Long.toString(operations));
    }
    props.setProperty("threadcount", Integer.toString(threads));
    if (target > 0) {
      props.setProperty("target", Double.toString(target));
    }
    if (warmup != null) {
      props.setProperty(WARMUP_PROPERTY, Long.toString(warmup));
    }
    if (layout != null) {
      props.setProperty(YsqlConfig.LAYOUT, layout);
    }
    if (tablets != null) {
      props.setProperty(YsqlConfig.TABLETS, Integer.toString(tablets));
    }
    if (api.equals("ycql")) {
      props.setProperty(YcqlConfig.KEYSPACE, database);
      setIfGiven(props, YcqlConfig.USER, user);
      setIfGiven(props, YcqlConfig.PASSWORD, password);
      setIfGiven(props, YcqlConfig.RF, rf == null ? null : rf.toString());
      setIfGiven(props, YcqlConfig.CONSISTENCY, consistency);
    } else {
      setIfGiven(props, YsqlConfig.DRIVER, driver); // else chosen for the server found (YsqlTarget)
      props.setProperty(YsqlConfig.DATABASE, database);
      // Recorded in run.json whether given or not: how a load wrote its rows decides its rows/s.
      props.setProperty(YsqlConfig.LOAD_METHOD, YsqlConfig.LoadMethod.named(loadMethod != null ? loadMethod
          : props.getProperty(YsqlConfig.LOAD_METHOD, "copy")).name().toLowerCase(Locale.ROOT));
      setIfGiven(props, YsqlConfig.USER, user);
      setIfGiven(props, YsqlConfig.PASSWORD, password);
    }
    lifecycle.console().redact(props.getProperty(YsqlConfig.PASSWORD));
    lifecycle.console().redact(props.getProperty(YcqlConfig.PASSWORD));
    YsqlEndpoint.parseQuery(props.getProperty(YsqlConfig.URL_OPTIONS)).forEach((name, value) -> {
      if (name.equalsIgnoreCase("password")) {
        lifecycle.console().redact(value);
      }
    });
  }

  private static void setIfGiven(Properties props, String key, String value) {
    if (value != null) {
      props.setProperty(key, value);
    }
  }

  private Map<String, String> parameters(Properties props, long[] loadKeys) {
    Map<String, String> m = new TreeMap<>();
    props.stringPropertyNames().forEach(k -> m.put(k, props.getProperty(k)));
    if (clients > 1) {
      m.put(LOAD_KEYS, loadKeys[0] + "+" + loadKeys[1]);
    }
    m.put("ybbench.threads", Integer.toString(threads));
    m.put("ybbench.duration_s", Long.toString(duration));
    m.put("ybbench.target_ops", Double.toString(target));
    m.put("ybbench.batch_size", Integer.toString(batchSize));
    m.put("ybbench.phase", phase);
    return m;
  }
}
