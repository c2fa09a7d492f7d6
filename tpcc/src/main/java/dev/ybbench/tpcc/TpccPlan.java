package dev.ybbench.tpcc;

import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.LastLoad;
import dev.ybbench.harness.benchmark.Outline;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.server.YugabyteView;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.core.TpccSchema;
import dev.ybbench.tpcc.core.WarehouseRange;
import dev.ybbench.tpcc.load.LoadResume;
import dev.ybbench.tpcc.load.TpccLoader;
import dev.ybbench.tpcc.load.WarehouseCheckpoint;
import dev.ybbench.tpcc.txn.ExecutePhase;
import dev.ybbench.tpcc.txn.Terminals;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * What a TPC-C run will do, settled from the command line before anything starts: the server, the
 * config with --warehouses, --terminals and --spec applied, the works in order, this client's
 * warehouses, the connections and the phases asked for. Every refusal of these options is here;
 * the engine is the runner's choice, and what the plan records of it comes as its name and whether
 * the terminals are ours.
 *
 * @param configNote null, or how a dry run chose the config the server would choose
 * @param endpoint   the config's URL with the user and password to connect as
 * @param steps      the phases asked for by flag (all false: what is missing, then execute and check)
 * @param resume     null, or the run directory whose load this one finishes (--resume)
 * @param earlier    what that load's checkpoint records
 * @param lastLoad   this machine's last measured TPC-C load on the same target, or null
 */
record TpccPlan(ServerTarget server, TpccConfig config, String configNote, List<TpccConfig.Work> works,
    WarehouseRange range, Terminals.Setup setup, YsqlEndpoint endpoint, Steps steps, int tablets,
    boolean foreignKeys, Integer loaderThreadsGiven, Path resume, WarehouseCheckpoint.Saved earlier,
    LastLoad lastLoad) {

  /** The phase flags: --create, --load, --execute, --check, --clear. */
  record Steps(boolean create, boolean load, boolean execute, boolean check, boolean clear) {
    boolean any() {
      return create || load || execute || check || clear;
    }
  }

  static TpccPlan of(TpccOptions o, Path home) {
    ServerTarget server = ServerTarget.choose(ServerTarget.Api.YSQL, o.server.hosts, o.server.dbVersion, 1)
        .withSettings(o.server.dbSettings()).refusing("--url-options", o.server.urlOptions);
    // With --warehouses and --hosts, a run asks the server which config fits it; a dry run
    // contacts nothing, so it plans with YugabyteDB's and says so.
    boolean ask = o.warehouses != null && o.configFile == null && !server.embedded();
    o.fleet.check();
    if (o.fleet.clients > 1 && (o.startWarehouse != 1 || o.totalWarehouses != null)) {
      throw new UserError("--clients splits the warehouses among the clients itself: leave --start-warehouse and "
          + "--total-warehouses out");
    }
    TpccConfig config = config(o, home, () -> ask && (o.run.dryRun || isYugabyte(o, server)));
    String configNote = ask && o.run.dryRun ? "YugabyteDB's; on PostgreSQL the run takes "
        + (o.spec ? "postgres_100w_spec.xml" : "postgres_100w.xml") + ", as the server says what it is" : null;
    WarehouseRange range;
    if (o.fleet.clients > 1) {
      range = WarehouseRange.slice(config.scaleFactor(), o.fleet.clients, o.fleet.clientIndex);
      // Each client's terminals as if it were run alone for its warehouses: 10 a warehouse at most.
      int terminals = o.terminals != null ? o.terminals : o.spec ? 10 * range.count()
          : Math.min(config.terminals(), 10 * range.count());
      config = config.with(range.count(), terminals);
    } else {
      range = WarehouseRange.of(o.startWarehouse, config.scaleFactor(), o.totalWarehouses);
    }
    if (o.maxRetries < 0 || o.tablets < 0 || (o.loaderThreads != null && o.loaderThreads < 1)) {
      throw new UserError("--max-retries and --tablets cannot be negative, --loader-threads must be at least 1");
    }
    if ((o.duration != null && o.duration < 1) || (o.warmup != null && o.warmup < 0)) {
      throw new UserError("--duration must be at least 1 second and --warmup cannot be negative");
    }
    List<TpccConfig.Work> works = works(o, config);
    Terminals.Setup setup = new Terminals.Setup(connections(o, config), o.spec, o.maxRetries);
    String pw = o.server.password(config.password() == null ? "" : config.password());
    YsqlEndpoint parsed = YsqlEndpoint.parse(config.url());
    if (o.server.database != null) {
      if (o.server.database.isBlank()) {
        throw new UserError("--database is empty (an unset variable?); name a database, or leave it out for the "
            + "config's (" + parsed.database() + ")");
      }
      parsed = parsed.withDatabase(o.server.database);
    }
    if (o.server.urlOptions != null) {
      parsed = parsed.withOptions(o.server.urlOptions.strip().replaceFirst("^\\?", ""));
    }
    String user = o.server.user != null ? o.server.user
        : (config.username() == null ? "yugabyte" : config.username());
    YsqlEndpoint endpoint = pw.isEmpty() ? parsed.withUser(user) : parsed.withUser(user).withPassword(pw);
    WarehouseCheckpoint.Saved earlier = null;
    if (o.resume != null) {
      if (!o.load || o.create || o.clear) {
        throw new UserError("--resume finishes a load: give it with --load, and without --create or --clear");
      }
      earlier = LoadResume.earlier(o.resume, range);
    }
    return new TpccPlan(server, config, configNote, works, range, setup, endpoint,
        new Steps(o.create, o.load, o.execute, o.check, o.clear), o.tablets, o.foreignKeys, o.loaderThreads,
        o.resume, earlier, LastLoad.find(o.run.resultsRoot(home), Tpcc.NAME, server, null));
  }

  /** The config's file name without .xml: the run's "workload". */
  String configName() {
    return config.file().getFileName().toString().replaceFirst("\\.xml$", "");
  }

  /** A run that may drop and create the tables claims them exclusively; others share them. */
  boolean mayRecreate() {
    return steps.create || steps.clear || !(steps.load || steps.execute || steps.check);
  }

  /** Connections the run opens at most: the terminals', the deferred Deliveries', loaders and checks. */
  int serverConnections() {
    return Math.max(setup.connections() + setup.deliveryConnections(), 8) + 30;
  }

  /** --loader-threads, else the config's loaderThreads, else 2. */
  int loaderThreads() {
    return loaderThreadsGiven != null ? loaderThreadsGiven
        : config.loaderThreads() != null ? config.loaderThreads() : 2;
  }

  /**
   * The config: --config, else tiny.xml, else with --warehouses the 100-warehouse config for the
   * target (the spec's with --spec); with --warehouses, --terminals and --spec applied. The server
   * is asked whether it is YugabyteDB only after the flags have passed.
   */
  private static TpccConfig config(TpccOptions o, Path home, BooleanSupplier yugabyte) {
    if (o.warehouses != null && o.warehouses < 1) {
      throw new UserError("--warehouses must be at least 1, was " + o.warehouses);
    }
    if (o.terminals != null && o.terminals < 1) {
      throw new UserError("--terminals must be at least 1, was " + o.terminals);
    }
    Path file = o.configFile;
    if (file == null) {
      file = home.resolve("tpcc/config").resolve(o.warehouses == null ? "tiny.xml"
          : (yugabyte.getAsBoolean() ? "yugabyte_100w" : "postgres_100w") + (o.spec ? "_spec.xml" : ".xml"));
    }
    TpccConfig c = TpccConfig.read(file);
    if (o.spec) {
      // Clause 4.2.2: 10 terminals per warehouse; clause 5.2.5: keying and think times.
      int w = o.warehouses != null ? o.warehouses : c.scaleFactor();
      return (c.hasWaits() ? c : c.withSpecWaits()).with(w, o.terminals != null ? o.terminals : 10 * w);
    }
    // A warehouse has 10 terminals in the spec; fewer warehouses than the config's need fewer.
    Integer t = o.terminals != null ? o.terminals
        : o.warehouses != null ? Math.min(c.terminals(), 10 * o.warehouses) : null;
    return c.with(o.warehouses, t);
  }

  /**
   * Whether the server the run is given is YugabyteDB, asked of it before anything starts (the
   * embedded one is PostgreSQL): the two want different configs (database, driver, isolation),
   * and a PostgreSQL given with --hosts is not a YugabyteDB cluster.
   */
  private static boolean isYugabyte(TpccOptions o, ServerTarget server) {
    String user = o.server.user != null ? o.server.user : "yugabyte";
    String pw = o.server.password("");
    return YsqlEndpoint.of(YsqlEndpoint.Driver.PGJDBC, server.start(0, line -> { }),
        YsqlEndpoint.MAINTENANCE_DB, user, pw).detect().isYugabyte();
  }

  /**
   * The config's works in order (or the first alone, --mix-only; or the first and each type
   * alone, --each-type), each with --duration and --warmup applied when given.
   */
  private static List<TpccConfig.Work> works(TpccOptions o, TpccConfig config) {
    if (o.eachType && o.mixOnly) {
      throw new UserError("--each-type adds a work per transaction type and --mix-only keeps the first work alone: "
          + "give one of them");
    }
    List<TpccConfig.Work> works = new ArrayList<>(o.mixOnly || o.eachType ? config.works().subList(0, 1)
        : config.works());
    if (o.eachType) {
      TpccConfig.Work mix = works.get(0);
      for (int i = 0; i < TpccConfig.TRANSACTIONS.size(); i++) {
        List<Integer> weights = new ArrayList<>(Collections.nCopies(TpccConfig.TRANSACTIONS.size(), 0));
        weights.set(i, 100);
        works.add(new TpccConfig.Work(mix.timeSeconds(), mix.warmupSeconds(), mix.rate(), List.copyOf(weights)));
      }
    }
    return works.stream().map(w -> new TpccConfig.Work(o.duration != null ? o.duration : w.timeSeconds(),
        o.warmup != null ? o.warmup : w.warmupSeconds(), w.rate(), w.weights())).toList();
  }

  /**
   * The connection pool: as asked; else one per terminal, as BenchBase opens them, unless the
   * terminals key and think. Then a terminal is mostly idle: a warehouse's 10 terminals submit
   * about 0.48 transactions a second, so one connection per 4 warehouses stays under half busy
   * until transactions take 1 s on average (Little's law), and a run whose terminals queue for
   * connections shows it in its waits.
   */
  private static int connections(TpccOptions o, TpccConfig config) {
    if (o.connections != null) {
      if (o.connections < 1 || o.connections > config.terminals()) {
        throw new UserError("--connections must be between 1 and the " + config.terminals() + " terminals, was "
            + o.connections);
      }
      return o.connections;
    }
    return config.hasWaits() ? Math.min(config.terminals(), Math.max(2, (config.scaleFactor() + 3) / 4))
        : config.terminals();
  }

  /**
   * The load's size before it starts: its rows (order lines at their mean of 10 an order) and its
   * bytes on disk as PostgreSQL 15 stores them.
   */
  String size() {
    return String.format(Locale.ROOT, "%,d rows, about %s on PostgreSQL (%s a warehouse)",
        TpccLoader.rows(range.count(), range.loadsItems()),
        Outline.bytes(TpccLoader.postgresBytes(range.count(), range.loadsItems())),
        Outline.bytes(TpccLoader.PG_BYTES_PER_WAREHOUSE));
  }

  /**
   * What every dry run says first: the server and how it is reached, what happens to the nine
   * tables and when, the connections, the phases.
   *
   * @param ownTerminals whether ybbench's terminals run the works (BenchBase opens its own)
   */
  Outline outline(boolean ownTerminals, List<Integer> metricsPorts) {
    String tables = "the " + TpccSchema.TABLES.size() + " TPC-C tables";
    String warehouses = range.total() + " warehouse" + (range.total() == 1 ? "" : "s");
    List<String> done = new ArrayList<>();
    if (!steps.any()) {
      done.add(tables + ": created and loaded with " + warehouses + " when missing; when they hold another count "
          + "(read at the start), dropped, created and loaded again; kept when they hold " + range.total());
    } else {
      if (steps.create) {
        done.add(tables + ": dropped if they are there, and created");
      }
      if (steps.load) {
        done.add(tables + ": loaded with warehouses " + range.first() + " … " + range.last()
            + (steps.create ? "" : " (they must be there)") + (resume == null ? "" : "; resuming "
            + resume.getFileName() + ": " + LoadResume.said(earlier)));
      }
      if (!steps.create && !steps.load && (steps.execute || steps.check)) {
        done.add(tables + ": used as they are, and must hold warehouses " + range.first() + " … " + range.last());
      }
      if (steps.clear) {
        done.add(tables + ": dropped at the end");
      }
    }
    int nodes = server.embedded() ? 1 : server.hosts().hosts().size();
    int terminals = ownTerminals ? setup.connections() + setup.deliveryConnections() : config.terminals();
    String connections = terminals + " for the terminals" + (setup.deliveryConnections() > 0 ? " and deferred "
        + "Deliveries" : "") + ", " + loaderThreads() + " for the load" + (nodes == 1 ? "" : ", spread over " + nodes
        + " nodes (about " + (terminals + nodes - 1) / nodes + " per node)");
    List<Outline.Phase> phases = new ArrayList<>();
    boolean missing = !steps.any();
    if (steps.create || missing) {
      phases.add(Outline.Phase.untimed("create", missing ? "when the tables are missing or of another count" : ""));
    }
    if (steps.load || missing) {
      phases.add(Outline.Phase.estimated("load", (range.isWhole() ? warehouses : "warehouses " + range.first() + " … "
          + range.last() + " of " + range.total()) + (missing ? ", when not loaded" : "") + ": " + size(),
          LastLoad.estimate(lastLoad,
          TpccLoader.rows(range.count(), range.loadsItems()))));
    }
    if (steps.execute || missing) {
      for (int i = 0; i < works.size(); i++) {
        TpccConfig.Work w = works.get(i);
        phases.add(Outline.Phase.timed(TpccConfig.phase(i), "weights " + w.weights() + (w.warmupSeconds() > 0
            ? ", " + w.warmupSeconds() + " s warm-up and " + w.timeSeconds() + " s measured" : ""),
            w.warmupSeconds() + w.timeSeconds()));
      }
    }
    if (steps.check || missing) {
      phases.add(Outline.Phase.untimed("check", "the consistency conditions of clause 3.3.2"));
    }
    if (steps.clear) {
      phases.add(Outline.Phase.untimed("clear", "drop the tables"));
    }
    String user = server.embedded() ? EmbeddedPostgres.SUPERUSER : endpoint.user();
    return new Outline(server.describe(), server.embedded() ? "off (the embedded server has none)" : endpoint.tls(),
        endpoint.database() + " as " + user + (endpoint.password().isEmpty() ? "" : " with a password"),
        done, connections, YugabyteView.planned(server, metricsPorts), phases, null);
  }

  /**
   * The settings as --dry-run prints them after the outline, one a line: the config as applied,
   * the phases asked for, the engine, every parameter run.json will record (the URL without its
   * password).
   */
  Map<String, String> settings(String engine, boolean ownTerminals) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put("config", config.file() + (configNote == null ? "" : " (" + configNote + ")"));
    out.put("phases", steps.any() ? String.join(", ", List.of(steps.create ? "create" : "", steps.load ? "load"
        : "", steps.execute ? "execute" : "", steps.check ? "check" : "", steps.clear ? "clear" : "").stream()
        .filter(x -> !x.isEmpty()).toList()) : "create and load what is missing, execute, check");
    Map<String, String> p = parameters(endpoint, engine, ownTerminals);
    if (server.embedded()) {
      p.put("url", "the embedded server's, once it is up (database " + endpoint.database() + ")");
    } else {
      YsqlEndpoint given = endpoint.withHosts(server.hosts()); // as the target will connect
      p.put("url", given.url() + " as " + given.user() + (given.password().isEmpty() ? "" : " with a password"));
    }
    p.put("loader_threads", Integer.toString(loaderThreads()));
    p.put("foreign_keys", Boolean.toString(foreignKeys));
    out.putAll(p);
    return out;
  }

  /** run.json's parameters; {@code connected} is the endpoint the engine uses. */
  Map<String, String> parameters(YsqlEndpoint connected, String engine, boolean ownTerminals) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("url", connected.url());
    m.put("isolation", config.isolation());
    m.put("warehouses", Integer.toString(range.count()));
    m.put("start_warehouse", Integer.toString(range.first()));
    m.put("total_warehouses", Integer.toString(range.total()));
    m.put("terminals", Integer.toString(config.terminals()));
    m.put("connections", Integer.toString(ownTerminals ? setup.connections() : config.terminals()));
    m.put("deferred_delivery", Boolean.toString(setup.deferDelivery()));
    m.put("engine", engine);
    m.putAll(config.workParameters(works));
    m.put("tablets", Integer.toString(tablets));
    m.put("max_retries", Integer.toString(setup.maxRetries()));
    return m;
  }
}
