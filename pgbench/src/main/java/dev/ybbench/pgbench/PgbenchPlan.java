package dev.ybbench.pgbench;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Outline;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.ysql.Libpq;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.pgbench.core.PgbenchLoader;
import dev.ybbench.pgbench.core.PgbenchSchema;
import dev.ybbench.pgbench.core.PgbenchScripts;
import dev.ybbench.pgbench.engine.PgbenchBinary;
import dev.ybbench.pgbench.engine.PgbenchProcess;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A run_pgbench.sh command, settled and checked before anything starts: initialize (pgbench -i)
 * or run, pgbench's options for either, the scripts, the binary and the server.
 *
 * @param initialize  -i: initialize the tables and run nothing
 * @param scaleGiven  -s given: on a run, the scale the tables must have (initialized first when missing or
 *                    of another scale), as sysbench's run prepares what is missing
 * @param initOptions pgbench's options of -i (steps, scale, fill factor, keys, partitions …), as given
 * @param runOptions  pgbench's options of a run (sessions, threads, time, protocol, rate …), as given
 * @param noVacuum    -n: no vacuum in -i, nor vacuum and truncate of the history before a run
 * @param progressS   -P: show a progress line every so many seconds; 0: none
 * @param seconds     -T, or 0 when the run is -t transactions per session
 * @param layout      --layout: hash or range keys in the tables ybbench creates on YugabyteDB; null when not given
 * @param tablets     --tablets: tablets per table there (0: the server's default)
 */
record PgbenchPlan(boolean initialize, int scale, boolean scaleGiven, List<String> initOptions, List<String> runOptions,
    boolean noVacuum, List<PgbenchScripts.Script> scripts, int sessions, int jobs, int seconds, int transactions, Double rate,
    int progressS, PgbenchBinary binary, ServerTarget server, YsqlEndpoint endpoint, int clients, String layout,
    int tablets) {

  /** The database when none is named: pgbench's own name, so its tables keep to a database of their own. */
  static final String DATABASE = "pgbench";
  /** The rows of one unit of scale: 100,000 accounts, 10 tellers, 1 branch. */
  static final long ROWS_PER_SCALE = 100_000 + 10 + 1;
  /** The prefix of pgbench's log files in the run directory. */
  static final String LOG_PREFIX = "pgbench_log";

  static PgbenchPlan of(PgbenchOptions o) {
    refuse(o);
    o.fleet.check();
    if (o.fleet.clients > 1 && (o.initialize || o.scale != null)) {
      throw new UserError("--clients " + o.fleet.clients + " run on tables initialized once: " + (o.initialize
          ? "-i is one client's (give it alone, or as fleet.sh's first step)" : "leave out -s, which would "
          + "initialize them (initialize with -i first)"));
    }
    String path = System.getenv("PATH");
    PgbenchBinary binary = PgbenchBinary.toInstall(o.binary, path, o.run.noInstall) ? PgbenchBinary.TO_INSTALL
        : PgbenchBinary.find(o.binary, path);
    positive("-s", o.scale);
    positive("-c", o.sessions);
    positive("-j", o.jobs);
    positive("-T", o.time);
    positive("-t", o.transactions);
    positive("-P", o.progress);
    if (o.time != null && o.transactions != null) {
      throw new UserError("-T and -t both given: a run is either S seconds (-T) or N transactions a session (-t)");
    }
    int sessions = o.sessions == null ? 1 : o.sessions;
    int jobs = o.jobs == null ? 1 : o.jobs;
    if (jobs > sessions) {
      throw new UserError("-j " + jobs + " is more threads than sessions (-c " + sessions + "): pgbench refuses it");
    }
    if (o.rate != null && !(o.rate > 0)) {
      throw new UserError("-R must be a rate above 0 transactions a second, was " + o.rate);
    }
    if (o.latencyLimit != null && !(o.latencyLimit > 0)) {
      throw new UserError("-L must be above 0 ms, was " + o.latencyLimit);
    }
    if (o.fillfactor != null && (o.fillfactor < 10 || o.fillfactor > 100)) {
      throw new UserError("-F must be 10 … 100, was " + o.fillfactor);
    }
    if (o.protocol != null && !Set.of("simple", "extended", "prepared").contains(o.protocol)) {
      throw new UserError("-M must be simple, extended or prepared, was '" + o.protocol + "'");
    }
    if (o.initSteps != null && !o.initSteps.matches("[dtgGvpf ]+")) {
      throw new UserError("-I " + o.initSteps + ": the steps are d, t, g, G, v, p and f");
    }
    if (o.partitionMethod != null && !Set.of("range", "hash").contains(o.partitionMethod)) {
      throw new UserError("--partition-method must be range or hash, was '" + o.partitionMethod + "'");
    }
    if (o.partitionMethod != null && o.partitions == null) {
      throw new UserError("--partition-method goes with --partitions N");
    }
    if (o.layout != null && !Set.of("hash", "range").contains(o.layout)) {
      throw new UserError("--layout must be hash or range, was '" + o.layout + "'");
    }
    positive("--tablets", o.tablets);
    if (o.layout != null || o.tablets != null) {
      String given = o.layout != null ? "--layout " + o.layout : "--tablets " + o.tablets;
      if (binary.ysql()) {
        throw new UserError(given + ": " + binary.name() + " creates its own tables (hashed, the server's tablets); "
            + "leave it out");
      }
      if (!o.initialize && o.scale == null) {
        throw new UserError(given + " shapes the tables -i creates: give it with -i (or with -s, which initializes)");
      }
      if (o.server.hosts == null && o.host == null) {
        throw new UserError(given + " shapes YugabyteDB's tables, and the embedded server is PostgreSQL, whose "
            + "tables pgbench -i creates: give --hosts of a YugabyteDB node, or leave it out");
      }
    }
    needs(binary, o.maxTries != null, "--max-tries", binary.retries());
    needs(binary, o.failuresDetailed, "--failures-detailed", !binary.ysql() && binary.major() >= 15);
    needs(binary, o.verboseErrors, "--verbose-errors", !binary.ysql() && binary.major() >= 15);
    needs(binary, o.partitions != null, "--partitions", !binary.ysql() && binary.major() >= 13);
    needs(binary, o.exitOnAbort, "--exit-on-abort", !binary.ysql() && binary.major() >= 17);
    if (o.maxTries != null && o.maxTries == 0 && o.latencyLimit == null && o.time == null) {
      throw new UserError("--max-tries 0 (no limit) needs -L or -T, which end the tries");
    }
    List<String> init = initOptions(o);
    List<String> runOnly = runOptions(o);
    boolean scriptsGiven = !o.builtins.isEmpty() || !o.files.isEmpty() || o.simpleUpdate || o.selectOnly;
    if (o.initialize && (!runOnly.isEmpty() || scriptsGiven)) {
      throw new UserError("-i initializes and runs nothing: " + (runOnly.isEmpty() ? "the scripts" : String.join(" ",
          runOnly)) + " belong to a run (run it after, without -i)");
    }
    if (!o.initialize && o.initSteps != null) {
      throw new UserError("-I goes with -i");
    }
    List<PgbenchScripts.Script> scripts = PgbenchScripts.of(o.builtins, o.files, o.simpleUpdate, o.selectOnly,
        binary.tablePrefix());
    if (o.host == null && o.port != null) {
      throw new UserError("-p " + o.port + " without -h: give the host too (-h HOST -p " + o.port + ", or --hosts "
          + "HOST:" + o.port + ")");
    }
    if (o.host != null && o.server.hosts != null) {
      throw new UserError("-h and --hosts both name the server: give one");
    }
    if (o.username != null && o.server.user != null) {
      throw new UserError("-U and --user both name the user: give one");
    }
    if (o.dbname != null && o.server.database != null) {
      throw new UserError("the database is named twice (" + o.dbname + " and --database " + o.server.database
          + "): give one");
    }
    String hosts = o.host != null ? o.host + ":" + (o.port != null ? o.port : binary.ysql() ? 5433 : 5432)
        : o.server.hosts;
    ServerTarget server = ServerTarget.choose(ServerTarget.Api.YSQL, hosts, o.host != null ? "-h" : "--hosts",
        o.server.dbVersion, 1).withSettings(o.server.dbSettings()).refusing("--url-options", o.server.urlOptions);
    if (o.fleet.clients > 1 && server.hosts() == null) {
      throw new UserError("--clients " + o.fleet.clients + " share one server's tables, and an embedded server is this "
          + "client's alone: give --hosts (or -h)");
    }
    if (server.hosts() != null && server.hosts().hosts().size() > 1) {
      throw new UserError(server.hostsSource() + " " + server.hosts() + ": pgbench connects to one host; give one "
          + "node");
    }
    String user = o.username != null ? o.username : o.server.user != null ? o.server.user : "yugabyte";
    YsqlEndpoint endpoint = YsqlEndpoint.of(YsqlEndpoint.Driver.PGJDBC, server.hosts() == null
            ? HostList.parse("127.0.0.1", 5432) : server.hosts(), o.dbname != null ? o.dbname
            : o.server.database != null ? o.server.database : DATABASE, user, o.server.password(""))
        .withOptions(Libpq.urlOptions(o.server.urlOptions, "pgbench")).withLoadBalance(false);
    return new PgbenchPlan(o.initialize, o.scale == null ? 1 : o.scale, o.scale != null, init, runOnly, o.noVacuum, scripts, sessions, jobs,
        o.time == null ? 0 : o.time, o.transactions == null ? (o.time == null ? 10 : 0) : o.transactions, o.rate,
        o.progress == null ? 0 : o.progress, binary, server, endpoint, o.fleet.clients, o.layout,
        o.tablets == null ? 0 : o.tablets);
  }

  /** The same plan run by {@code b}: the pgbench found once it was installed. */
  PgbenchPlan withBinary(PgbenchBinary b) {
    return new PgbenchPlan(initialize, scale, scaleGiven, initOptions, runOptions, noVacuum, scripts, sessions, jobs, seconds, transactions,
        rate, progressS, b, server, endpoint, clients, layout, tablets);
  }

  /**
   * The tables ybbench creates on YugabyteDB in place of PostgreSQL's pgbench -i, which makes
   * PostgreSQL's.
   */
  PgbenchSchema ysqlSchema() {
    String steps = initSteps();
    return new PgbenchSchema(SqlDialect.YUGABYTEDB, binary.tablePrefix(), scale, "range".equals(layout), tablets,
        steps.indexOf('p') >= 0);
  }

  /** -q: -i's progress every 5 s rather than every 100,000 rows. */
  boolean quiet() {
    return initOptions.contains("-q");
  }

  /** -I's steps, pgbench's default when not given, and without v under -n. */
  String initSteps() {
    int i = initOptions.indexOf("-I");
    String steps = i < 0 ? PgbenchLoader.DEFAULT_STEPS : initOptions.get(i + 1);
    return noVacuum ? steps.replace("v", "") : steps;
  }

  /**
   * Once the server answered: what of -i's options cannot be honoured there, refused by name —
   * --layout and --tablets but on YugabyteDB, and on YugabyteDB the options of PostgreSQL's tables
   * when ybbench creates YSQL's.
   *
   * @throws UserError naming the first
   */
  void checkInitOn(ServerInfo server) {
    if (!server.isYugabyte()) {
      if (layout != null || tablets > 0) {
        throw new UserError((layout != null ? "--layout " + layout : "--tablets " + tablets) + " shapes YugabyteDB's "
            + "tables, and " + server.product() + " " + server.version() + " takes pgbench -i's: leave it out");
      }
      return;
    }
    if (binary.ysql()) {
      return;
    }
    for (String flag : List.of("-F", "--partitions", "--partition-method", "--unlogged-tables", "--tablespace",
        "--index-tablespace")) {
      for (String given : initOptions) {
        if (given.equals(flag) || given.startsWith(flag + "=")) {
          throw new UserError(flag + ": ybbench creates YSQL's tables on YugabyteDB, which take no " + switch (flag) {
            case "-F" -> "fill factor (DocDB keeps rows in LSM files, not heap pages)";
            case "--unlogged-tables" -> "UNLOGGED";
            case "--tablespace", "--index-tablespace" -> "tablespace from ybbench (give one with ysql_bench, "
                + "--pgbench-binary)";
            default -> "partitions from ybbench (split into tablets with --tablets N, or partition with ysql_bench)";
          });
        }
      }
    }
    String steps = initSteps();
    if (steps.indexOf('p') >= 0 && steps.indexOf('t') < 0) {
      throw new UserError("-I " + steps + ": YSQL declares a primary key when it creates the table; give t with p");
    }
  }

  /** pgbench's options ybbench cannot honour, each refused by name with why. */
  private static void refuse(PgbenchOptions o) {
    if (o.logPrefix != null) {
      throw new UserError("--log-prefix: ybbench keeps pgbench's per-transaction log in the run directory, where it "
          + "reads every transaction's latency from; leave it out");
    }
    if (o.samplingRate != null) {
      throw new UserError("--sampling-rate: ybbench reads every transaction's latency from pgbench's log, which a "
          + "sample would leave out; leave it out");
    }
    if (o.aggregateInterval != null) {
      throw new UserError("--aggregate-interval: ybbench reads every transaction's latency from pgbench's log, which "
          + "aggregates would lose (it records each second's histogram itself); leave it out");
    }
    if (o.progressTimestamp) {
      throw new UserError("--progress-timestamp: ybbench reads pgbench's progress lines by their seconds since the "
          + "start; leave it out");
    }
    if (o.debug != null) {
      throw new UserError("-d: pgbench 17 reads it as the database and earlier ones as --debug; give the database as "
          + "the last argument (or --database)");
    }
    if (o.showScript != null) {
      throw new UserError("--show-script prints a script and runs nothing: run pgbench --show-script=" + o.showScript
          + " itself");
    }
  }

  private static void positive(String flag, Integer v) {
    if (v != null && v < 1) {
      throw new UserError(flag + " must be at least 1, was " + v);
    }
  }

  private static void needs(PgbenchBinary binary, boolean given, String flag, boolean has) {
    if (given && !has) {
      throw new UserError(flag + ": " + binary.version() + " has no such option (PostgreSQL 15's pgbench and later "
          + "retry and count failures, 13's partition, 17's exit on abort)");
    }
  }

  /** Every pgbench option given, -i and the scripts among them (none: only ybbench's flags were). */
  static List<String> pgbenchOptions(PgbenchOptions o) {
    List<String> out = new ArrayList<>();
    if (o.initialize) {
      out.add("-i");
    }
    if (o.scale != null) {
      out.addAll(List.of("-s", o.scale.toString()));
    }
    out.addAll(initOptions(o));
    out.addAll(runOptions(o));
    o.builtins.forEach(b -> out.addAll(List.of("-b", b)));
    o.files.forEach(f -> out.addAll(List.of("-f", f)));
    if (o.simpleUpdate) {
      out.add("-N");
    }
    if (o.selectOnly) {
      out.add("-S");
    }
    return out;
  }

  /** -i's options as pgbench takes them, in a fixed order. */
  private static List<String> initOptions(PgbenchOptions o) {
    List<String> out = new ArrayList<>();
    if (o.initSteps != null) {
      out.add("-I");
      out.add(o.initSteps);
    }
    if (o.fillfactor != null) {
      out.add("-F");
      out.add(o.fillfactor.toString());
    }
    flag(out, o.foreignKeys, "--foreign-keys");
    if (o.partitions != null) {
      out.add("--partitions=" + o.partitions);
    }
    if (o.partitionMethod != null) {
      out.add("--partition-method=" + o.partitionMethod);
    }
    flag(out, o.unloggedTables, "--unlogged-tables");
    flag(out, o.quiet, "-q");
    if (o.tablespace != null) {
      out.add("--tablespace=" + o.tablespace);
    }
    if (o.indexTablespace != null) {
      out.add("--index-tablespace=" + o.indexTablespace);
    }
    return out;
  }

  /** A run's options as pgbench takes them, in a fixed order: those given (scripts apart), nothing added. */
  private static List<String> runOptions(PgbenchOptions o) {
    List<String> out = new ArrayList<>();
    pair(out, "-c", o.sessions);
    pair(out, "-j", o.jobs);
    pair(out, "-T", o.time);
    pair(out, "-t", o.transactions);
    if (o.protocol != null) {
      out.add("-M");
      out.add(o.protocol);
    }
    if (o.rate != null) {
      out.add("-R");
      out.add(number(o.rate));
    }
    if (o.latencyLimit != null) {
      out.add("-L");
      out.add(number(o.latencyLimit));
    }
    if (o.maxTries != null) {
      out.add("--max-tries=" + o.maxTries);
    }
    flag(out, o.failuresDetailed, "--failures-detailed");
    flag(out, o.verboseErrors, "--verbose-errors");
    for (String d : o.defines) {
      if (d.indexOf('=') < 1) {
        throw new UserError("-D " + d + ": give VAR=VALUE");
      }
      out.add("-D");
      out.add(d);
    }
    flag(out, o.vacuumAll, "-v");
    flag(out, o.reportPerCommand, "-r");
    flag(out, o.connect, "-C");
    if (o.randomSeed != null) {
      out.add("--random-seed=" + o.randomSeed);
    }
    flag(out, o.exitOnAbort, "--exit-on-abort");
    if (!o.files.isEmpty() && o.scale != null) {
      out.add("-s"); // a script of one's own reads :scale from -s; the built-ins count pgbench_branches
      out.add(o.scale.toString());
    }
    return out;
  }

  private static void flag(List<String> out, boolean given, String flag) {
    if (given) {
      out.add(flag);
    }
  }

  private static void pair(List<String> out, String flag, Integer v) {
    if (v != null) {
      out.add(flag);
      out.add(v.toString());
    }
  }

  private static String number(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  /** The tables, by the binary's prefix. */
  List<String> tables() {
    String p = binary.tablePrefix();
    return List.of(p + "accounts", p + "branches", p + "tellers", p + "history");
  }

  /**
   * Whether this run may drop and create the tables: -i; a run given -s, which initializes them
   * when they are missing or of another scale; the embedded server's, which starts empty.
   */
  boolean mayRecreate() {
    return initialize || scaleGiven || server.embedded();
  }

  /** pgbench -i's command line. */
  List<String> initCommand(YsqlEndpoint connected) {
    List<String> options = new ArrayList<>(List.of("-i", "-s", Integer.toString(scale)));
    options.addAll(initOptions);
    if (noVacuum) {
      options.add("-n");
    }
    return PgbenchProcess.command(binary, connected, options);
  }

  /**
   * A run's command line: the scripts, the options given, and what ybbench reads — a progress line
   * a second, the per-transaction log, in {@code logDir}, and the report of each command (-r),
   * whose failures and retries say which statements of a transaction that failed part-way completed.
   */
  List<String> runCommand(YsqlEndpoint connected, String logDir) {
    List<String> options = new ArrayList<>();
    scripts.forEach(s -> options.addAll(s.argument()));
    options.addAll(runOptions);
    if (noVacuum) {
      options.add("-n");
    }
    if (!runOptions.contains("-r")) {
      options.add("-r");
    }
    options.addAll(List.of("-P", "1", "-l", "--log-prefix=" + logDir + "/" + LOG_PREFIX));
    return PgbenchProcess.command(binary, connected, options);
  }

  /** The workload's name: the scripts'. */
  String workload() {
    return initialize ? "init" : PgbenchScripts.workload(scripts);
  }

  /** Statements pgbench runs on the tables once a run besides its transactions: a built-in counts pgbench_branches. */
  long setupStatements() {
    return scripts.stream().anyMatch(s -> s.file() == null) ? 1 : 0;
  }

  /** Whether every script's statements on the tables are known, so the server's count can be audited. */
  boolean audited() {
    return scripts.stream().allMatch(s -> s.onTables() >= 0);
  }

  /** What every dry run says first: the server, the tables, the sessions, the phases. */
  Outline outline(List<String> reads) {
    String names = String.join(", ", tables());
    String rows = String.format(Locale.ROOT, "scale %d: %,d accounts", scale, 100_000L * scale);
    List<String> done = new ArrayList<>();
    List<Outline.Phase> phases = new ArrayList<>();
    if (initialize) {
      done.add(names + ": initialized by " + binary.name() + " -i (dropped if there, created and loaded, " + rows
          + ")");
      phases.add(Outline.Phase.untimed("init", binary.name() + " -i, " + rows));
    } else {
      if (server.embedded()) {
        done.add(names + ": initialized first by " + binary.name() + " -i (" + rows + "), the embedded server starting "
            + "empty");
        phases.add(Outline.Phase.untimed("init", binary.name() + " -i, " + rows));
      } else if (scaleGiven) {
        done.add(names + ": used as they are when of " + rows + " (-s " + scale + "); otherwise initialized first by "
            + binary.name() + " -i");
        phases.add(Outline.Phase.untimed("init", binary.name() + " -i, " + rows + ", when not there"));
      } else {
        done.add(names + ": used as they are, and must be initialized (" + binary.name() + " -i)");
      }
      String what = PgbenchScripts.workload(scripts) + (rate != null ? " at " + number(rate) + " tps" : "");
      phases.add(seconds > 0 ? Outline.Phase.timed("run", what, seconds)
          : Outline.Phase.untimed("run", what + ", " + transactions + " transactions a session"));
    }
    String user = server.embedded() ? EmbeddedPostgres.SUPERUSER : endpoint.user();
    String connections = initialize ? "1, pgbench -i's" : sessions + ", one per pgbench session (-c), on " + jobs
        + (jobs == 1 ? " thread" : " threads");
    return new Outline(server.describe(), server.embedded() ? "off (the embedded server has none)" : endpoint.tls(),
        endpoint.database() + " as " + user + (endpoint.password().isEmpty() ? "" : " with a password"), done,
        connections, reads, phases, null);
  }

  /** The settings as --dry-run prints them after the outline, one a line. */
  Map<String, String> settings() {
    Map<String, String> out = new LinkedHashMap<>(parameters(endpoint, null));
    if (server.embedded()) {
      out.put("url", "the embedded server's, once it is up (database " + endpoint.database() + ")");
      out.put("user", "the embedded server's");
    }
    out.put("pgbench", binary.path() + " (" + binary.version() + ")");
    String embedded = server.embedded() ? " (host, port and user: the embedded server's)" : "";
    if (initialize || scaleGiven || server.embedded()) {
      out.put("initializes", String.join(" ", initCommand(endpoint)) + embedded);
      if (!server.embedded() && !binary.ysql()) {
        PgbenchSchema y = ysqlSchema();
        out.put("on YugabyteDB", "ybbench creates YSQL's tables in place of pgbench -i's: " + (y.range() ? "range"
            : "hashed") + " keys, " + (y.tablets() > 0 ? y.tablets() + " tablets each" : "the server's tablets")
            + ", steps " + initSteps());
      }
    }
    if (!initialize) {
      out.put("runs", String.join(" ", runCommand(endpoint, "<run directory>")) + embedded);
    }
    return out;
  }

  /** run.json's parameters; {@code scaleFound}: the tables' scale as the server has them, or null. */
  Map<String, String> parameters(YsqlEndpoint connected, Integer scaleFound) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("url", connected.url());
    m.put("user", connected.user());
    m.put("scale", Integer.toString(scaleFound != null ? scaleFound : scale));
    if (!initialize) {
      m.put("scripts", String.join(" ", scripts.stream().map(s -> String.join(" ", s.argument())).toList()));
      m.put("sessions", Integer.toString(sessions));
      m.put("jobs", Integer.toString(jobs));
      m.put("duration_s", Integer.toString(seconds));
      m.put("transactions", Integer.toString(transactions));
      m.put("rate", rate == null ? "none" : number(rate));
      m.put("clients", Integer.toString(clients));
    }
    List<String> given = new ArrayList<>(initialize ? initOptions : runOptions);
    if (noVacuum) {
      given.add("-n");
    }
    m.put("pgbench_options", String.join(" ", given));
    if (layout != null || tablets > 0) { // the tables ybbench creates on YugabyteDB
      m.put("layout", layout == null ? "hash" : layout);
      m.put("tablets", Integer.toString(tablets));
    }
    m.put("pgbench_version", binary.version());
    return m;
  }
}
