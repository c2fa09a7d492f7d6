package dev.ybbench.ycsb.cli;

import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.run.ClientThreads;
import dev.ybbench.ycsb.schema.CqlSchema;
import dev.ybbench.ycsb.schema.KeyLayout;
import dev.ybbench.ycsb.schema.LoadMethod;
import dev.ybbench.ycsb.workload.CoreWorkload64;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What a run_ycsb.sh command means, settled once before anything starts. Every setting has one
 * precedence, YCSB's extended by ybbench's flags: the workload files (several {@code -P}, a later
 * one replacing an earlier one's values), then {@code -p}, then the flag. A flag and a {@code -p}
 * that disagree are refused, naming both; a flag silently wins over a file, as {@code -p} does in
 * YCSB. YCSB's own properties ({@code threadcount}, {@code target}, {@code maxexecutiontime},
 * {@code operationcount}, {@code recordcount}, {@code dotransactions}, {@code db}, {@code label})
 * and yugabyte/YCSB's binding properties ({@link YcsbBindingProperties}) are settings like the flags they
 * stand for; nothing is reinterpreted and nothing dropped: what ybbench cannot honour is refused.
 */
public final class YcsbSettings {
  /** Where a value was given, weakest first. */
  enum Rank { BINDING_DEFAULT, FILE, PROPERTY, FLAG }

  /**
   * A value given for a setting, where ({@code -p threadcount=4}, {@code threadcount=4
   * (workloada)}), and the property it was given as: the setting's own name, another of YCSB's
   * or yugabyte/YCSB's that stands for it, or none (a binding's default).
   */
  record Given(String value, Rank rank, String origin, String as) {}

  /** What a --fleet id may be: it is written into the table's mark and matched by the other clients. */
  public static final String FLEET_ID = "[A-Za-z0-9._-]{1,64}";

  /** Defaults of ybbench's own, where YCSB's would not serve (one thread, no time limit). */
  public static final int DEFAULT_THREADS = 8;
  public static final long DEFAULT_DURATION_S = 60;
  public static final long DEFAULT_RECORDS = 1000; // YCSB's own workload files' value
  /**
   * Rows per YSQL load batch (one COPY each), from measurement: 500,000 rows of workloada, 8
   * threads, embedded PostgreSQL, two rounds alternating — 128 rows: 85–89 K rows/s, 512:
   * 96–98 K, 1,000: 94–99 K, 4,096: 87–90 K (more client CPU per row). 512 is as fast as 1,000
   * with half the rows in doubt per batch should the load be cut short.
   */
  public static final int YSQL_BATCH_ROWS = 512;
  /** YCQL writes in flight per thread during a load. */
  public static final int YCQL_IN_FLIGHT = 128;

  /** The workload file's scenario keys (a published experiment is one file); taken out of the YCSB properties. */
  public static final String FILE_API = "ybbench.api";
  public static final String FILE_PHASE = "ybbench.phase";
  public static final String FILE_TARGET = "ybbench.target_ops";
  public static final String FILE_BATCH_SIZE = "ybbench.batch_size";
  public static final String CREATE_TABLE = "ybbench.create_table";
  /** The run phase's reader and writer pools (--read-threads and so on), for workload files. */
  public static final String READ_THREADS = "ybbench.read_threads";
  public static final String WRITE_THREADS = "ybbench.write_threads";
  public static final String READS = "ybbench.reads";
  public static final String WRITES = "ybbench.writes";
  public static final String READ_TARGET = "ybbench.read_target_ops";
  public static final String WRITE_TARGET = "ybbench.write_target_ops";
  /** --jobs: the OS threads the client threads run on as virtual threads. */
  public static final String JOBS = "ybbench.jobs";
  /** The workload property for --warmup, in seconds (named after YCSB's maxexecutiontime). */
  public static final String WARMUP = "warmuptime";
  /**
   * The properties that stand for a ybbench setting the runner itself applies (the scenario keys,
   * YCSB's client settings): taken out of what the workload and bindings read, and recorded in
   * run.json as the settings they became.
   */
  private static final List<String> TAKEN = List.of(FILE_API, FILE_PHASE, FILE_TARGET, FILE_BATCH_SIZE,
      CREATE_TABLE, READ_THREADS, WRITE_THREADS, JOBS, READS, WRITES, READ_TARGET, WRITE_TARGET, "dotransactions", "db",
      "label", "maxexecutiontime", "status", "target");

  /** YCSB's file for the final measurements, and their format (one of {@link #EXPORTERS}; text by default). */
  public static final String EXPORT_FILE = "exportfile";
  public static final String EXPORTER = "exporter";
  public static final List<String> EXPORTERS = List.of("site.ycsb.measurements.exporter.TextMeasurementsExporter",
      "site.ycsb.measurements.exporter.JSONMeasurementsExporter",
      "site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter");
  /** YCSB's percentiles of the final report (default: ybbench's 50, 95, 99, 99.9). */
  public static final String PERCENTILES = "hdrhistogram.percentiles";
  /** YCSB's status line interval in seconds; ybbench prints one this often (default 10). */
  public static final String STATUS_INTERVAL = "status.interval";

  private final YcsbOptions o;
  /** Every file's properties in order, a later file's replacing an earlier one's, and which file each came from. */
  private final Properties files = new Properties();
  private final Map<String, String> fileOf = new LinkedHashMap<>();
  private final Map<String, String> cli;
  private final Map<String, List<Given>> given = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();
  /** Properties this settlement took as its own (YCSB's and yugabyte/YCSB's that stand for settings). */
  private final Set<String> consumed = new TreeSet<>();
  /** Settings whose value came from somewhere other than a flag of ybbench's: the equivalent command shows them. */
  private final Map<String, String> translated = new LinkedHashMap<>();
  /** Properties a flag settles ({@link #pick}); every other given property goes to the workload and bindings as settled. */
  private final Set<String> picked = new LinkedHashSet<>();
  /** Properties whose setting a flag gave. */
  private final Set<String> flagged = new LinkedHashSet<>();
  /** Settled values no single flag can say (reads and writes at different consistency levels): -p in the equivalent command. */
  private final Map<String, String> translatedProperties = new LinkedHashMap<>();
  private final Properties props = new Properties();

  private final List<Path> workloadFiles;
  /** The server the run talks to, decided by {@link #validate}. */
  private ServerTarget server;

  private YcsbSettings(YcsbOptions o, List<Path> workloadFiles) {
    this.o = o;
    this.workloadFiles = workloadFiles;
    this.cli = new LinkedHashMap<>(o.properties);
  }

  /**
   * Reads {@code workloadFiles} in order and settles every option of {@code o} in place: a flag
   * left out takes its property's value or its default. Returns the settlement, whose {@link
   * #properties()} are what the workload and the bindings read.
   */
  public static YcsbSettings settle(YcsbOptions o, List<Path> workloadFiles) throws IOException {
    YcsbSettings s = new YcsbSettings(o, workloadFiles);
    for (Path f : workloadFiles) {
      Properties p = new Properties();
      try (InputStream in = Files.newInputStream(f)) {
        p.load(in);
      }
      for (String name : p.stringPropertyNames()) {
        s.files.setProperty(name, p.getProperty(name));
        s.fileOf.put(name, f.getFileName().toString());
      }
    }
    s.settle();
    return s;
  }

  /**
   * The run's workload name, for its directory and run.json: WORKLOAD's, else that of the last -P
   * file naming a {@code workload} class (YCSB users also pass a db.properties), else the last file's.
   */
  public String workloadName() {
    String name = o.workload != null ? workloadFiles.get(0).getFileName().toString()
        : fileOf.getOrDefault("workload", workloadFiles.get(workloadFiles.size() - 1).getFileName().toString());
    return name.replaceFirst("\\.properties$", "");
  }

  /** The properties the workload and bindings read: the files', then -p's, then the settings'. */
  /** The server chosen by {@link #validate}: given hosts or an embedded one, every rule applied. */
  public ServerTarget server() {
    return server;
  }

  public Properties properties() {
    return props;
  }

  /** What the user should know about how their properties were taken (one line each). */
  public List<String> notes() {
    return notes;
  }

  /** Properties settled here (YCSB's client properties, yugabyte/YCSB's), which no workload or binding reads. */
  public Set<String> consumed() {
    return consumed;
  }

  /** Where each given property came from: "-p" or its file's name. */
  public Map<String, String> givenProperties() {
    Map<String, String> m = new LinkedHashMap<>();
    fileOf.forEach((name, file) -> m.put(name, file));
    cli.keySet().forEach(name -> m.put(name, "-p"));
    return m;
  }

  /**
   * The effective properties (files', then -p's), what each setting was given and where, the API,
   * what yugabyte/YCSB's properties mean, YCSB's client properties; then every setting picked by
   * its precedence and written back into the properties the workload and bindings read.
   */
  private void settle() {
    files.stringPropertyNames().forEach(n -> props.setProperty(n, files.getProperty(n)));
    cli.forEach(props::setProperty);
    collect();
    api();
    if (bindingInUse()) {
      YcsbBindingProperties.translate(effective(YcsbBindingProperties.SQL, YcsbBindingProperties.CQL), o.api, (name, source) -> {
        Rank rank = source.from().isEmpty() ? Rank.BINDING_DEFAULT
            : source.from().stream().anyMatch(cli::containsKey) ? Rank.PROPERTY : Rank.FILE;
        String origin = source.from().isEmpty() ? "yugabyte/YCSB's default"
            : String.join(" and ", source.from().stream().map(this::origin).toList());
        add(name, source.value(), rank, origin, source.from().isEmpty() ? null : source.from().get(0));
        consumed.addAll(source.from());
      }, notes::add);
      for (String name : props.stringPropertyNames()) {
        if (YcsbBindingProperties.SQL.contains(name) || YcsbBindingProperties.CQL.contains(name)) {
          consumed.add(name);
        }
      }
    }
    ycsbClient();
    boolean ycql = o.api.equals("ycql");
    o.phase = pick("--phase", o.phase, FILE_PHASE, s -> s, "both");
    o.createTable = pick("--create-table", o.createTable, CREATE_TABLE, s -> s, null);
    o.threads = pick("--threads", o.threads, "threadcount", whole("threadcount", Integer::parseInt), DEFAULT_THREADS);
    o.jobs = pick("--jobs", o.jobs, JOBS, whole(JOBS, Integer::parseInt), null);
    o.target = pick("--target", o.target, "target", number("target"), 0.0);
    o.duration = pick("--duration", o.duration, "maxexecutiontime", whole("maxexecutiontime", Long::parseLong),
        DEFAULT_DURATION_S);
    o.operations = pick("--operations", o.operations, "operationcount", whole("operationcount", Long::parseLong),
        null);
    o.records = pick("--records", o.records, "recordcount", whole("recordcount", Long::parseLong), DEFAULT_RECORDS);
    o.warmup = pick("--warmup", o.warmup, WARMUP, whole(WARMUP, Long::parseLong), 0L);
    o.readThreads = pick("--read-threads", o.readThreads, READ_THREADS, whole(READ_THREADS, Integer::parseInt), null);
    o.writeThreads = pick("--write-threads", o.writeThreads, WRITE_THREADS, whole(WRITE_THREADS, Integer::parseInt),
        null);
    o.reads = pick("--reads", o.reads, READS, whole(READS, Long::parseLong), 0L);
    o.writes = pick("--writes", o.writes, WRITES, whole(WRITES, Long::parseLong), 0L);
    o.readTarget = pick("--read-target", o.readTarget, READ_TARGET, number(READ_TARGET), 0.0);
    o.writeTarget = pick("--write-target", o.writeTarget, WRITE_TARGET, number(WRITE_TARGET), 0.0);
    o.run.label = pick("--label", o.run.label, "label", s -> s, null);
    o.layout = pick("--layout", o.layout, "yb.layout", s -> s, null);
    o.tablets = pick("--tablets", o.tablets, "yb.tablets", whole("yb.tablets", Integer::parseInt), null);
    o.batchSize = pick("--batch-size", o.batchSize, FILE_BATCH_SIZE, whole(FILE_BATCH_SIZE, Integer::parseInt),
        ycql ? YCQL_IN_FLIGHT : YSQL_BATCH_ROWS);
    String prefix = ycql ? "ycql." : "ysql.";
    o.hosts = pick("--hosts", o.hosts, prefix + "hosts", s -> s, null);
    o.database = pick("--database", o.database, ycql ? "ycql.keyspace" : "ysql.database", s -> s, "ycsb");
    o.user = pick("--user", o.user, prefix + "user", s -> s, null);
    o.password = pick("--password", o.password, prefix + "password", s -> s, null);
    if (ycql) {
      o.rf = pick("--rf", o.rf, "ycql.rf", whole("ycql.rf", Integer::parseInt), null);
      String flag = o.consistency;
      String both = pick("--consistency", flag, "ycql.consistency", s -> s.toUpperCase(Locale.ROOT), null);
      String read = pick("--consistency", flag, "ycql.read_consistency", s -> s.toUpperCase(Locale.ROOT), both);
      String write = pick("--consistency", flag, "ycql.write_consistency", s -> s.toUpperCase(Locale.ROOT), both);
      translated.remove("--consistency");
      if (flag == null && read != null && read.equals(write)) {
        translated.put("--consistency", read);
      } else if (flag == null && (read != null || write != null)) {
        translatedProperties.put("ycql.read_consistency", read == null ? "QUORUM" : read);
        translatedProperties.put("ycql.write_consistency", write == null ? "QUORUM" : write);
      }
      o.consistency = read != null && read.equals(write) ? read : flag;
      set("ycql.read_consistency", read);
      set("ycql.write_consistency", write);
      props.remove("ycql.consistency");
    } else {
      o.loadMethod = pick("--load-method", o.loadMethod, "ysql.load_method", s -> s, "copy");
      o.driver = pick("--driver", o.driver, "ysql.driver", s -> s, null);
    }
    write(ycql);
  }

  /**
   * Refuses settled options that mean nothing, before anything starts: one line each.
   *
   */
  public void validate(Path home) {
    String phaseFrom = flagged.contains(FILE_PHASE) ? "--phase run" : originOf(FILE_PHASE);
    if (o.api.equals("ysql") && (o.rf != null || o.consistency != null)) {
      throw new UserError("--rf and --consistency apply to --api ycql");
    }
    if (o.nodes < 1) {
      throw new UserError("--nodes must be at least 1, was " + o.nodes);
    }
    if (o.rf != null && o.rf < 1) {
      throw new UserError("--rf must be at least 1, was " + o.rf);
    }
    if (o.threads < 1) {
      throw new UserError(said("--threads", "threadcount") + " must be at least 1, was " + o.threads);
    }
    // CoreWorkload takes 0 records for "no limit", and would load without end; a sample app's 0 is "none written yet".
    long leastRecords = CoreWorkload64.isCore(props.getProperty("workload")) ? 1 : 0;
    if (o.records < leastRecords) {
      throw new UserError(said("--records", "recordcount") + " must be at least " + leastRecords + ", was "
          + o.records);
    }
    if (o.createTable != null && !List.of("always", "if-missing", "never").contains(o.createTable)) {
      throw new UserError(said("--create-table", CREATE_TABLE) + ": give always, if-missing or never, not '"
          + o.createTable + "'");
    }
    if (o.operations != null && o.operations < 0) {
      throw new UserError(said("--operations", "operationcount") + " cannot be negative; 0 means until --duration "
          + "ends the run");
    }
    if (o.duration < 0) {
      throw new UserError(said("--duration", "maxexecutiontime") + " cannot be negative; 0 means no time limit");
    }
    if (o.warmup < 0) {
      throw new UserError(said("--warmup", WARMUP) + " cannot be negative, was " + o.warmup);
    }
    if (o.target < 0) {
      throw new UserError(said("--target", "target") + " cannot be negative; 0 means no cap");
    }
    if (o.jobs != null) {
      ClientThreads.virtual(o.jobs, said("--jobs", JOBS)); // refused here on an older JVM, before anything starts
    }
    if (o.pools()) {
      if (o.readThreads() < 0 || o.writeThreads() < 0 || o.readThreads() + o.writeThreads() == 0) {
        throw new UserError("--read-threads and --write-threads are thread counts, at least one of them above 0; were "
            + o.readThreads + " and " + o.writeThreads);
      }
      if (o.reads < 0 || o.writes < 0 || o.readTarget < 0 || o.writeTarget < 0) {
        throw new UserError("--reads, --writes, --read-target and --write-target cannot be negative; 0 means no limit");
      }
      if (o.operations != null && flagged.contains("operationcount")) {
        throw new UserError("--operations limits one pool of threads; with separate readers and writers give --reads "
            + "and --writes");
      }
    } else if (o.reads > 0 || o.writes > 0 || o.readTarget > 0 || o.writeTarget > 0) {
      throw new UserError("--reads, --writes, --read-target and --write-target are the pools' (--read-threads, "
          + "--write-threads); without pools use --operations and --target");
    }
    if (o.batchSize < 1) {
      throw new UserError(said("--batch-size", FILE_BATCH_SIZE) + " must be at least 1, was " + o.batchSize);
    }
    if (o.loadMethod != null && o.api.equals("ycql")) {
      throw new UserError("--load-method is for YSQL loads; YCQL's load keeps --batch-size writes in flight");
    }
    if (o.tablets != null && o.tablets < 1) {
      throw new UserError("--tablets must be at least 1, was " + o.tablets);
    }
    if (!List.of("load", "run", "both", "create").contains(o.phase)) {
      throw new UserError("Unknown --phase '" + o.phase + "' (or ybbench.phase); use load, run, both or create");
    }
    if (o.clients < 1) {
      throw new UserError("--clients must be at least 1, was " + o.clients);
    }
    if (o.clientIndex < 0 || o.clientIndex >= o.clients) {
      throw new UserError("--client-index must be 0 … " + (o.clients - 1) + " for --clients " + o.clients + ", was "
          + o.clientIndex);
    }
    if (o.fleet != null && !o.fleet.matches(FLEET_ID)) {
      throw new UserError("--fleet '" + o.fleet + "' must be 1-64 letters, digits, '.', '_' or '-'");
    }
    if (o.layout != null && KeyLayout.fromFlag(o.layout) == KeyLayout.RANGE && o.api.equals("ycql")) {
      throw new UserError(CqlSchema.RANGE_NEEDS_YSQL);
    }
    if (o.loadMethod != null) {
      LoadMethod.named(o.loadMethod);
    }
    if (o.resume != null && !o.phase.equals("load") && !o.phase.equals("both")) {
      throw new UserError("--resume continues a load; --phase " + o.phase + " has none");
    }
    if (o.resume != null && !Files.isDirectory(o.resume)) {
      throw new UserError("--resume " + o.resume + " is not a directory; give the run directory of the load");
    }
    server = ServerTarget.choose(ServerTarget.Api.named(o.api), o.hosts, o.dbVersion, o.nodes)
        .withSettings(o.dbSettings());
    boolean creates = o.createTable != null && !o.createTable.equals("never");
    if (server.embedded() && o.phase.equals("run") && !creates) {
      throw new UserError(phaseFrom + " needs --hosts of a server loaded earlier: an embedded server starts "
          + "empty (to load and run one workload after another on one server: run-scripts/fleet.sh --clients 1 "
          + "LOAD_WORKLOAD RUN_WORKLOAD)");
    }
    if (server.embedded() && o.clientIndex > 0) {
      throw new UserError("--client-index " + o.clientIndex + " needs --hosts: an embedded server would be this "
          + "client's own, with no client 0 to create its table");
    }
    if (server.embedded() && o.api.equals("ycql") && o.rf != null && o.rf > o.nodes) {
      throw new UserError("--rf " + o.rf + " needs at least " + o.rf + " nodes; the embedded cluster has " + o.nodes
          + " (--nodes)");
    }
    String status = props.getProperty(STATUS_INTERVAL);
    if (status != null && !status.strip().matches("[1-9][0-9]{0,5}")) {
      throw new UserError(originOf(STATUS_INTERVAL) + ": the status interval is a whole number of seconds from 1");
    }
    RunDirectory.checkWritable(o.run.resultsRoot(home));
    o.run.limits();
  }

  /** Gathers what files and -p give for each setting, under the setting's own property name. */
  private void collect() {
    for (String name : files.stringPropertyNames()) {
      add(name, files.getProperty(name), Rank.FILE);
    }
    cli.forEach((name, value) -> add(name, value, Rank.PROPERTY));
  }

  /** A property given at {@code rank}, filed under the setting it stands for. */
  private void add(String name, String value, Rank rank) {
    String v = value.strip();
    String origin = origin(name, rank);
    switch (name) {
      case FILE_TARGET -> add("target", v, rank, origin, name);
      case "dotransactions" -> {
        // YCSB's -t (true, its "run" command) runs the mix over a table loaded before; -load (false) loads it.
        if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
          throw new UserError(origin + ": dotransactions takes true or false");
        }
        add(FILE_PHASE, Boolean.parseBoolean(v) ? "run" : "load", rank, origin, name);
      }
      case "db" -> add(FILE_API, YcsbBindingProperties.apiOfClass(v), rank, origin, name);
      default -> add(name, v, rank, origin, name);
    }
  }

  private void add(String setting, String value, Rank rank, String origin, String as) {
    List<Given> list = given.computeIfAbsent(setting, k -> new ArrayList<>());
    for (Given g : list) {
      if (g.rank() == rank && !g.value().equals(value) && rank != Rank.BINDING_DEFAULT) {
        throw new UserError(g.origin() + " and " + origin + " disagree; give one of them");
      }
    }
    list.add(new Given(value, rank, origin, as));
  }

  /** "-p name=value" or "name=value (file)", a password's value hidden. */
  private String origin(String name, Rank rank) {
    String value = RunInfo.isSecret(name) ? "***" : (rank == Rank.PROPERTY ? cli.get(name)
        : files.getProperty(name)).strip();
    return rank == Rank.PROPERTY ? "-p " + name + "=" + value : name + "=" + value + " (" + fileOf.get(name) + ")";
  }

  /** Where a yugabyte/YCSB property a translation read came from. */
  private String origin(String name) {
    return origin(name, cli.containsKey(name) ? Rank.PROPERTY : Rank.FILE);
  }

  /** The effective values of the properties of {@code sets} that were given. */
  @SafeVarargs
  private Map<String, String> effective(Set<String>... sets) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String name : props.stringPropertyNames()) {
      for (Set<String> s : sets) {
        if (s.contains(name)) {
          m.put(name, props.getProperty(name));
        }
      }
    }
    return m;
  }

  /**
   * The API: --api, else the workload's {@code ybbench.api} or {@code db} class, else what
   * yugabyte/YCSB's properties name ({@code db.url} is YSQL, {@code hosts} YCQL), else YSQL.
   */
  private void api() {
    if (o.api != null) {
      o.api = o.api.toLowerCase(Locale.ROOT); // --api YSQL as --api ysql, as the property is taken
    }
    String fromProperties = YcsbBindingProperties.apiOfProperties(effective(YcsbBindingProperties.SQL, YcsbBindingProperties.CQL).keySet());
    if (fromProperties != null && o.api == null) { // with --api, the other API's properties are refused by name
      Rank rank = YcsbBindingProperties.SQL.stream().anyMatch(cli::containsKey) || YcsbBindingProperties.CQL.stream()
          .anyMatch(cli::containsKey) ? Rank.PROPERTY : Rank.FILE;
      List<Given> declared = given.getOrDefault(FILE_API, List.of());
      for (Given g : declared) {
        if (!g.value().equals(fromProperties)) {
          throw new UserError(g.origin() + " is " + g.value() + ", but the binding properties given are "
              + fromProperties + "'s (" + String.join(", ", effective(YcsbBindingProperties.SQL, YcsbBindingProperties.CQL).keySet())
              + ")");
        }
      }
      if (declared.isEmpty()) {
        add(FILE_API, fromProperties, rank, "yugabyte/YCSB's " + (fromProperties.equals("ysql") ? "yugabyteSQL"
            : "yugabyteCQL") + " properties", "db");
      }
    }
    o.api = pick("--api", o.api, FILE_API, s -> s.toLowerCase(Locale.ROOT), "ysql");
    if (!o.api.equals("ysql") && !o.api.equals("ycql")) {
      throw new UserError("Unknown --api '" + o.api + "' (or ybbench.api); use ysql or ycql");
    }
  }

  /** Whether yugabyte/YCSB's binding is what the command names: its class as {@code db}, or any of its properties. */
  private boolean bindingInUse() {
    String db = props.getProperty("db");
    return db != null || !effective(YcsbBindingProperties.SQL, YcsbBindingProperties.CQL).isEmpty();
  }

  /**
   * YCSB's own client properties beyond those that stand for flags: honoured (the status line's
   * interval, the final report's percentiles and export file), satisfied already (status lines
   * and HdrHistogram are always on, latency is recorded from both starts), or refused.
   */
  private void ycsbClient() {
    for (String name : new TreeSet<>(props.stringPropertyNames())) {
      String v = props.getProperty(name).strip();
      String refusal = switch (name) {
        case "status" -> { // YCSB's -s: ybbench prints a status line whether asked or not
          bool(name, v);
          yield null;
        }
        case "measurementtype" -> v.equals("hdrhistogram") ? null : "ybbench records every operation in HdrHistogram "
            + "(latency/*.hlog) and per second in timeseries.csv; measurementtype=" + v + " is not one of its outputs";
        case "measurement.interval" -> List.of("op", "intended", "both").contains(v) ? null
            : "measurement.interval takes op, intended or both";
        case "hdrhistogram.fileoutput" -> null; // latency/*.hlog is always written
        case "hdrhistogram.output.path" -> "the HdrHistogram logs are the run directory's latency/*.hlog; "
            + "leave hdrhistogram.output.path out";
        case "measurement.trackjvm" -> bool(name, v) ? "ybbench reports its client's CPU and peak memory "
            + "(summary.json client), not YCSB's JVM statistics; leave measurement.trackjvm out" : null;
        case "histogram.buckets", "timeseries.granularity", "measurement.raw.output_file",
            "measurement.raw.no_summary" -> name + " belongs to a measurementtype ybbench does not have "
            + "(it records HdrHistogram and timeseries.csv); leave it out";
        case "reportlatencyforeacherror", "latencytrackederrors" -> "ybbench counts errors by class (summary.json "
            + "errors_by_class) and records the latency of successes only; leave " + name + " out";
        case "spin.sleep" -> bool(name, v) ? "ybbench's threads wait for the target schedule by parking, not "
            + "spinning; leave spin.sleep out" : null;
        case EXPORTER -> EXPORTERS.contains(v) ? null : "exporter takes one of " + String.join(", ", EXPORTERS);
        default -> name.startsWith("htrace.") ? "ybbench does not trace with HTrace; leave " + name + " out" : null;
      };
      if (refusal != null) {
        throw new UserError(origin(name, cli.containsKey(name) ? Rank.PROPERTY : Rank.FILE) + ": " + refusal);
      }
    }
    consumed.addAll(TAKEN);
    consumed.addAll(List.of("threadcount", "status", "measurementtype", "measurement.interval",
        "hdrhistogram.fileoutput", "measurement.trackjvm", "spin.sleep"));
  }

  private boolean bool(String name, String v) {
    if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      throw new UserError(origin(name, cli.containsKey(name) ? Rank.PROPERTY : Rank.FILE) + ": give true or false");
    }
    return Boolean.parseBoolean(v);
  }

  /**
   * A setting's value: its flag, else the strongest value given for {@code property}, else {@code
   * dflt}. A flag that disagrees with a {@code -p} (or anything yugabyte/YCSB's {@code -p} became)
   * is refused, naming both.
   */
  private <T> T pick(String flag, T flagValue, String property, Function<String, T> parse, T dflt) {
    picked.add(property);
    Given best = strongest(property);
    if (flagValue != null) {
      flagged.add(property);
      if (best != null && best.rank() == Rank.PROPERTY && !same(flagValue, parse.apply(best.value()))) {
        throw new UserError(flag + " " + shown(flag, flagValue) + " and " + best.origin() + " disagree; give one of "
            + "them");
      }
      return flagValue;
    }
    if (best == null) {
      return dflt;
    }
    T value = parse.apply(best.value());
    // A file's own setting, under its own name, needs no flag to say it again, nor does an empty password.
    if (!(best.rank() == Rank.FILE && property.equals(best.as())) && !String.valueOf(value).isEmpty()) {
      translated.put(flag, shown(flag, value));
    }
    return value;
  }

  /** The value given for {@code setting} at the highest rank, or null. */
  private Given strongest(String setting) {
    Given best = null;
    for (Given g : given.getOrDefault(setting, List.of())) {
      if (best == null || g.rank().compareTo(best.rank()) > 0) {
        best = g;
      }
    }
    return best;
  }

  private static String shown(String flag, Object value) {
    if (flag.equals("--password")) {
      return "***";
    }
    return value instanceof Double d && d == Math.rint(d) ? Long.toString(d.longValue()) : String.valueOf(value);
  }

  private static boolean same(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return x.doubleValue() == y.doubleValue();
    }
    return String.valueOf(a).equalsIgnoreCase(String.valueOf(b));
  }

  private <T> Function<String, T> whole(String name, Function<String, T> parse) {
    return v -> {
      try {
        return parse.apply(v);
      } catch (NumberFormatException e) {
        throw new UserError(originOf(name) + " is not a whole number");
      }
    };
  }

  private Function<String, Double> number(String name) {
    return v -> {
      try {
        double d = Double.parseDouble(v);
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          throw new NumberFormatException();
        }
        return d;
      } catch (NumberFormatException e) {
        throw new UserError(originOf(name) + " is not a number");
      }
    };
  }

  /** How the user gave a setting, for an error about its value: its flag, or where its property came from. */
  private String said(String flag, String property) {
    return flagged.contains(property) ? flag : originOf(property);
  }

  /** The strongest origin of a setting's property, for an error about its value. */
  private String originOf(String setting) {
    Given best = strongest(setting);
    return best == null ? setting : best.origin();
  }

  /** The settled values into the properties the workload and bindings read; the scenario keys out of them. */
  private void write(boolean ycql) {
    TAKEN.forEach(props::remove);
    props.setProperty("threadcount", Integer.toString(o.threads));
    props.setProperty("recordcount", Long.toString(o.records));
    if (o.operations != null) {
      props.setProperty("operationcount", Long.toString(o.operations));
    }
    if (o.target > 0) {
      props.setProperty("target", Double.toString(o.target));
    }
    if (o.warmup > 0) {
      props.setProperty(WARMUP, Long.toString(o.warmup));
    } else {
      props.remove(WARMUP);
    }
    set("yb.layout", o.layout);
    set("yb.tablets", o.tablets == null ? null : o.tablets.toString());
    String prefix = ycql ? "ycql." : "ysql.";
    set(prefix + "hosts", o.hosts);
    set(ycql ? "ycql.keyspace" : "ysql.database", o.database);
    set(prefix + "user", o.user);
    set(prefix + "password", o.password);
    if (ycql) {
      set("ycql.rf", o.rf == null ? null : o.rf.toString());
    } else {
      set("ysql.driver", o.driver);
      set("ysql.load_method", o.loadMethod.strip().toLowerCase(Locale.ROOT));
    }
    // Every other setting as settled: a property given as it was, or what yugabyte/YCSB's became (jdbc.fetchsize,
    // db.url's options, cassandra's timeouts, …), the strongest value winning.
    given.forEach((setting, list) -> {
      Given best = strongest(setting);
      if (!picked.contains(setting) && !consumed.contains(setting)) {
        props.setProperty(setting, best.value());
        if (!setting.equals(best.as())) { // what yugabyte/YCSB's property became: a -p of ybbench's own
          translatedProperties.put(setting, best.value());
        }
      }
    });
  }

  private void set(String name, String value) {
    if (value == null) {
      props.remove(name);
    } else {
      props.setProperty(name, value);
    }
  }

  /**
   * The same run as a ybbench command: the workload files, the flags given as they were ({@code
   * nativeFlags}), a flag for each setting a property of YCSB's or yugabyte/YCSB's gave, and the
   * {@code -p} that stand for no flag; shell-quoted, to be pasted as it is.
   */
  public String equivalentCommand(List<String> nativeFlags) {
    List<String> words = new ArrayList<>(List.of("./run_ycsb.sh"));
    if (o.workload != null) {
      words.add(o.workload);
    }
    for (Path f : o.files) {
      words.add("-P");
      words.add(f.toString());
    }
    words.addAll(nativeFlags);
    translated.forEach((flag, value) -> {
      words.add(flag);
      words.add(value);
    });
    if (server != null && !server.embedded() && words.stream().noneMatch(w -> w.equals("--hosts")
        || w.startsWith("--hosts="))) {
      words.add("--hosts"); // from YSQL_NODES or YCQL_NODES: said, so the command means the same anywhere
      words.add(server.hostSpec());
    }
    Map<String, String> rest = new LinkedHashMap<>();
    cli.forEach((name, value) -> {
      if (!consumed.contains(name) && !picked.contains(name)) {
        rest.put(name, value);
      }
    });
    translatedProperties.forEach(rest::putIfAbsent);
    rest.forEach((name, value) -> {
      words.add("-p");
      words.add(name + "=" + (RunInfo.isSecret(name) ? "***" : value));
    });
    return ShellWords.join(words);
  }

  /** Whether the command said anything in YCSB's or yugabyte/YCSB's words, so that the equivalent is worth printing. */
  public boolean foreign() {
    return bindingInUse() || consumed.stream().anyMatch(n -> cli.containsKey(n) && !n.startsWith("ybbench."))
        || !translatedProperties.isEmpty();
  }
}
