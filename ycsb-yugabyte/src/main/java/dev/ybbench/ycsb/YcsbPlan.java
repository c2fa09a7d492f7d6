package dev.ybbench.ycsb;

import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.benchmark.LastLoad;
import dev.ybbench.harness.benchmark.Outline;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.server.YugabyteView;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import dev.ybbench.ycsb.cli.Phase;
import dev.ybbench.ycsb.cli.PropertyNames;
import dev.ybbench.ycsb.cli.ReadProperties;
import dev.ybbench.ycsb.cli.YcsbOptions;
import dev.ybbench.ycsb.cli.YcsbSettings;
import dev.ybbench.ycsb.client.BindingProperties;
import dev.ybbench.ycsb.client.YcsbPhase;
import dev.ybbench.ycsb.schema.CqlDialect;
import dev.ybbench.ycsb.schema.CqlSchema;
import dev.ybbench.ycsb.schema.SqlSchema;
import dev.ybbench.ycsb.schema.TableSpec;
import dev.ybbench.ycsb.workload.CoreWorkload64;
import dev.ybbench.ycsb.workload.KeyValueApp;
import dev.ybbench.ycsb.workload.Pool;
import dev.ybbench.ycsb.workload.PooledWorkload;
import dev.ybbench.ycsb.ycql.YcqlConfig;
import dev.ybbench.ycsb.ysql.YsqlConfig;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import site.ycsb.Workload;
import site.ycsb.measurements.Measurements;

/**
 * What a YCSB run will do, worked out before anything starts: the load's slice of the keys, the
 * workload and the binding's settings as they will read them. Every property given is read here
 * by the parts that will read it during the run; one that nothing reads would be silently
 * ignored, so it is named in a warning instead (with the nearest known name). {@code --dry-run}
 * prints the plan and stops.
 */
final class YcsbPlan {
  private final YcsbOptions o;
  private final YcsbSettings s;
  private final Properties props;
  private final boolean coreWorkload;
  private final long[] loadSlice;
  private final ServerTarget server;
  /** What the run takes, setting by setting, for --dry-run. */
  private final Map<String, String> settings = new LinkedHashMap<>();
  /** Rows one call of the writers, and of the load, writes ({@link PooledWorkload#rowsPerCall}): a batch's. */
  private int writeRowsPerCall = 1;
  private int loadRowsPerCall = 1;
  /** Whether the workload writes its rows in batch statements of its own (CassandraBatchKeyValue). */
  private boolean batchWrites;
  /** The binding's settings as it will read them: a {@link YsqlConfig} or a {@link YcqlConfig}. */
  private Record binding;

  private YcsbPlan(YcsbOptions o, YcsbSettings s, Properties props, boolean coreWorkload, long[] loadSlice,
      ServerTarget server) {
    this.o = o;
    this.s = s;
    this.server = server;
    this.props = props;
    this.coreWorkload = coreWorkload;
    this.loadSlice = loadSlice;
  }

  /**
   * Checks the workload's properties, works out this client's slice of the load into {@code props}
   * (the run's copy of the settings' properties), and reads every property as the run will against
   * {@code server}, warning of those nothing reads.
   */
  static YcsbPlan of(YcsbOptions o, YcsbSettings settings, Properties props, ServerTarget server, boolean doRun,
      Console console) throws Exception {
    WorkloadCheck.check(props, doRun).forEach(note -> console.line("note: " + note));
    long insertStart = Long.parseLong(props.getProperty("insertstart", "0").strip());
    props.setProperty("insertcount", props.getProperty("insertcount",
        Long.toString(Long.parseLong(props.getProperty("recordcount")) - insertStart)).strip());
    // This client's share of the keys the clients load; reads and updates go over all of them.
    long[] mine = CoreWorkload64.slice(insertStart, Long.parseLong(props.getProperty("insertcount")), o.fleet.clients,
        o.fleet.clientIndex);
    // CoreWorkload's keys can be split among clients and drawn by a load's checkpoint; another class numbers its own.
    boolean core = CoreWorkload64.isCore(props.getProperty("workload"));
    if (o.fleet.clients > 1 && !core) {
      throw new UserError("--clients splits the keys of YCSB's CoreWorkload; workload=" + props.getProperty("workload")
          + " numbers its own keys, so its clients would insert the same ones; run it as one client");
    }
    props.setProperty(CoreWorkload64.CLIENTS, Integer.toString(o.fleet.clients));
    props.setProperty(CoreWorkload64.CLIENT_INDEX, Integer.toString(o.fleet.clientIndex));
    YcsbPlan plan = new YcsbPlan(o, settings, props, core, mine, server);
    plan.read(console, doRun);
    return plan;
  }

  /** The run phase's threads: one pool doing the mix, or readers and writers apart. */
  List<YcsbPhase.Threads> runPools() {
    if (!s.pools()) {
      return List.of(new YcsbPhase.Threads(Pool.MIX, s.threads(), Long.parseLong(props.getProperty("operationcount",
          "1000")), s.target()));
    }
    List<YcsbPhase.Threads> pools = new ArrayList<>();
    if (s.readers() > 0) {
      pools.add(new YcsbPhase.Threads(Pool.READ, s.readers(), s.reads(), s.readTarget()));
    }
    if (s.writers() > 0) {
      pools.add(new YcsbPhase.Threads(Pool.WRITE, s.writers(), s.writes(), s.writeTarget(), writeRowsPerCall));
    }
    return pools;
  }

  /** The load's threads: {@code rows} rows over --threads, as batches where the workload writes batches. */
  YcsbPhase.Threads loadThreads(long rows) {
    return new YcsbPhase.Threads(Pool.MIX, s.threads(), rows, s.target(), loadRowsPerCall);
  }

  /** How the load writes, for its line and the plan: the workload's batches, else --batch-size's. */
  String loadWrites() {
    if (batchWrites) {
      return "rows per LOGGED batch: " + loadRowsPerCall;
    }
    String per = s.ycql() ? "writes in flight per thread" : s.batchSize() == 1 ? "rows per INSERT"
        : props.getProperty(YsqlConfig.LOAD_METHOD).equals("copy") ? "rows per COPY" : "rows per multi-row INSERT";
    return per + ": " + s.batchSize();
  }

  long[] loadSlice() {
    return loadSlice;
  }

  boolean coreWorkload() {
    return coreWorkload;
  }

  /** Every part reads its properties as it will in the run; what none of them asked for is named. */
  private void read(Console console, boolean doRun) throws Exception {
    ReadProperties read = new ReadProperties(props); // WorkloadCheck checked them, but reads every binding's keys
    Measurements.setProperties(read); // YCSB's own measurement settings, as its workloads expect them
    Workload w = YcsbPhase.workload(read);
    if (s.pools() && doRun && !(w instanceof PooledWorkload)) {
      throw new UserError("--read-threads and --write-threads split the mix of YCSB's CoreWorkload or a sample "
          + "app; workload=" + props.getProperty("workload") + " has no readers and writers apart");
    }
    if (w instanceof PooledWorkload pooled) {
      writeRowsPerCall = pooled.rowsPerCall(Pool.WRITE);
      loadRowsPerCall = pooled.rowsPerCall(Pool.MIX);
    }
    if (w instanceof KeyValueApp app && app.batches()) {
      batchWrites = true;
      if (!s.ycql()) {
        throw new UserError(props.getProperty(KeyValueApp.APP) + " writes LOGGED batches, which only YCQL has; run "
            + "it with --api ycql");
      }
      if (s.phase().loads() && (s.provenance().flagged().contains(YcsbSettings.FILE_BATCH_SIZE)
          || s.provenance().origins().containsKey(YcsbSettings.FILE_BATCH_SIZE))) {
        throw new UserError("--batch-size is a YCQL load's writes in flight; " + props.getProperty(KeyValueApp.APP)
            + " loads as it writes, in LOGGED batches of " + KeyValueApp.BATCH_SIZE + " rows: leave it out");
      }
    }
    if (doRun && w instanceof PooledWorkload pooled) {
      for (YcsbPhase.Threads t : runPools()) {
        pooled.checkPool(t.pool());
      }
    }
    if (w instanceof CoreWorkload64 core) {
      core.settings().forEach((k, v) -> settings.put("workload." + k, v));
    } else if (w instanceof KeyValueApp app) {
      app.settings().forEach((k, v) -> settings.put("workload." + k, v));
    } else {
      settings.put("workload", w.getClass().getName());
    }
    w.cleanup();
    new YcsbReport(read).settings().forEach((k, v) -> settings.put("report." + k, v));
    for (String name : new String[] {YcsbSettings.STATUS_INTERVAL, "table", "insertstart", "insertcount",
        "operationcount", "recordcount", "threadcount", "target", YcsbSettings.WARMUP}) {
      read.getProperty(name); // the runner's own
    }
    BindingProperties.valuesRead(read);
    boolean ycql = s.ycql();
    binding = ycql ? YcqlConfig.from(read) : YsqlConfig.from(read);
    boolean embedded = server.embedded();
    String dialectGiven = props.getProperty(ycql ? YcqlConfig.DIALECT : YsqlConfig.DIALECT);
    for (RecordComponent c : binding.getClass().getRecordComponents()) {
      Object v = c.getAccessor().invoke(binding);
      if (embedded && List.of("endpoint", "hosts").contains(c.getName())) {
        // An embedded server's address is known once it is up; who connects, to what, is known now.
        if (v instanceof YsqlEndpoint e) {
          // Its superuser unless a user is given, as YsqlTarget connects.
          String user = props.getProperty(YsqlConfig.USER) == null ? EmbeddedPostgres.SUPERUSER : e.user();
          settings.put("binding.endpoint", "the embedded server, database " + e.database() + " as " + user
              + (e.password().isEmpty() ? "" : " with a password"));
        }
        continue;
      }
      if (c.getName().equals("dialect") && dialectGiven == null) {
        // The run takes the dialect from the server it meets, not from this default.
        v = embedded ? (ycql ? "CASSANDRA" : "POSTGRESQL") : "as the server answers (YUGABYTEDB on YugabyteDB)";
      }
      if (List.of("batchSize", "inFlight").contains(c.getName()) && s.phase() != Phase.LOAD) {
        v = v + " in the run phase" + (s.phase() == Phase.RUN ? "" : " (the load's: on the load line)");
      } else if (List.of("batchSize", "inFlight").contains(c.getName())) {
        continue; // a load alone: the load line says it
      }
      if (c.getName().equals("table")) {
        v = createTable((TableSpec) v, settingsDialect(ycql, embedded, dialectGiven));
      }
      if (c.getName().equals("vertx")) {
        if (!(Boolean) v) {
          continue; // JDBC throughout: the endpoint line says which driver
        }
        int loops = s.jobs() != null ? s.jobs() : Runtime.getRuntime().availableProcessors();
        v = "the run phase through Vert.x's client, its threads virtual threads on " + loops + " event loop"
            + (loops == 1 ? "" : "s") + "; the load and the server's views through pgjdbc";
      }
      if (v instanceof YsqlEndpoint e) { // its URL, and who connects (the password never printed)
        v = e.url() + " as " + (e.user().isEmpty() ? "(no user)" : e.user())
            + (e.password().isEmpty() ? "" : " with a password");
      }
      settings.put("binding." + c.getName(), RunInfo.isSecret(c.getName()) ? (String.valueOf(v).isEmpty() ? ""
          : "***") : String.valueOf(v));
    }
    s.givenProperties().forEach((name, where) -> {
      if (!read.asked().contains(name) && !s.consumed().contains(name)) {
        console.line("warning: " + PropertyNames.unread(name, where, s.api(), read.asked()));
      }
    });
  }

  /** The dialect a dry run shows the table's DDL in: the one given, else the server's the run expects. */
  private static String settingsDialect(boolean ycql, boolean embedded, String given) {
    if (given != null) {
      return given.toUpperCase(java.util.Locale.ROOT);
    }
    return embedded ? (ycql ? "CASSANDRA" : "POSTGRESQL") : "YUGABYTEDB";
  }

  /** The table's DDL as the run will issue it in {@code dialect}, or why that server would refuse it. */
  private String createTable(TableSpec table, String dialect) {
    try {
      if (binding instanceof YcqlConfig c) {
        return new CqlSchema(table, CqlDialect.valueOf(dialect), c.keyspace(), c.replicationFactor(), c.transactions())
            .createTable();
      }
      return new SqlSchema(table, SqlDialect.valueOf(dialect)).createTable()
          + (server.embedded() || dialect.equals("POSTGRESQL") ? "" : " (on YugabyteDB)");
    } catch (UserError | IllegalArgumentException e) {
      return "refused on " + dialect + ": " + e.getMessage();
    }
  }

  /**
   * What every dry run says first: the server and how it is reached, the table and when it is
   * created, the connections, the phases.
   *
   * @param command the run as ybbench's command
   */
  /**
   * Bytes a record takes on PostgreSQL beside its fields' (the key, the tuple's header, the primary
   * key's index entry): usertable held 122.0 MB for 100,000 records of 10 fields of 100 bytes,
   * loaded into PostgreSQL 15 (pg_total_relation_size; docs/ycsb.md).
   */
  static final long PG_RECORD_OVERHEAD = 220;

  /** A load of {@code records} before it starts: its bytes as PostgreSQL stores them. */
  String loadSize(long records) {
    long fieldBytes = Long.parseLong(props.getProperty("fieldcount", "10")) * Long.parseLong(props.getProperty(
        "fieldlength", "100"));
    return "about " + Outline.bytes(records * (fieldBytes + PG_RECORD_OVERHEAD)) + " on PostgreSQL (" + (fieldBytes
        + PG_RECORD_OVERHEAD) + " bytes a record)";
  }

  Outline outline(String command, LastLoad last) {
    boolean ycql = s.ycql();
    String table = props.getProperty("table", "usertable");
    String tls;
    String database;
    String connections;
    int threads = s.pools() ? s.readers() + s.writers() : s.threads();
    int nodes = server.embedded() ? server.nodes() : server.hosts().hosts().size();
    String over = nodes == 1 ? "" : " over " + nodes + " nodes";
    if (binding instanceof YcqlConfig c) {
      tls = c.tls() || !c.trustStore().isEmpty() ? "on" + (c.trustStore().isEmpty() ? " (the JVM's trusted certificates)"
          : " (trusting " + c.trustStore() + ")") : "off";
      database = "keyspace " + c.keyspace() + (c.user().isEmpty() ? ", no user" : " as " + c.user()
          + (c.password().isEmpty() ? "" : " with a password"));
      connections = c.connectionsPerNode() + " per node" + over + ", shared by the " + threads + " client threads";
    } else {
      YsqlConfig c = (YsqlConfig) binding;
      tls = server.embedded() ? "off (the embedded server has none)" : c.endpoint().tls();
      String user = server.embedded() && props.getProperty(YsqlConfig.USER) == null ? EmbeddedPostgres.SUPERUSER
          : c.endpoint().user();
      database = c.endpoint().database() + " as " + user + (c.endpoint().password().isEmpty() ? ""
          : " with a password");
      connections = threads + ", one per client thread" + (nodes == 1 ? "" : ", spread" + over
          + " by the smart driver on YugabyteDB (about " + (threads + nodes - 1) / nodes + " per node)");
    }
    List<String> tables = new ArrayList<>();
    String create = s.createTable();
    String what = table + (binding instanceof YsqlConfig c && !c.table().indexed().isEmpty() ? " and its index" : "");
    if (s.phase() == Phase.CREATE || "always".equals(create) || create == null && s.phase().loads()) {
      tables.add(o.fleet.clientIndex > 0 && s.phase() != Phase.CREATE && !"always".equals(create)
          ? what + ": created by client 0 of the fleet; this client waits for it (up to " + YcsbCommand.SCHEMA_WAIT_S
              + " s), then loads its keys"
          : what + ": dropped if it is there, and created before " + (s.phase() == Phase.CREATE ? "the clients load it"
              : s.phase().loads() ? "the load" : "the run"));
    } else if ("if-missing".equals(create)) {
      tables.add(what + ": created unless it is there (nothing dropped)");
    } else {
      tables.add(what + ": used as it is, and must be there (nothing created or dropped)");
    }
    List<Outline.Phase> phases = new ArrayList<>();
    if (s.phase() == Phase.CREATE) {
      phases.add(Outline.Phase.untimed("create", "the table"));
    }
    if (s.phase().loads()) {
      String rows = loadSlice[1] + " records";
      phases.add(s.target() > 0 ? Outline.Phase.timed("load", rows + " at " + (long) s.target() + " rows/s",
          loadSlice[1] / s.target()) : Outline.Phase.estimated("load", rows + ", " + loadSize(loadSlice[1]),
          LastLoad.estimate(last, loadSlice[1])));
    }
    if (s.phase().runs()) {
      if (s.warmup() > 0) {
        phases.add(Outline.Phase.timed(YcsbPhase.WARMUP, "", s.warmup()));
      }
      long ops = Long.parseLong(props.getProperty("operationcount", "1000"));
      double byOps = s.target() > 0 && ops > 0 && !s.pools() ? ops / s.target() : Double.MAX_VALUE;
      double seconds = Math.min(s.duration() > 0 ? s.duration() : Double.MAX_VALUE, byOps);
      String limit = s.pools() ? "" : ops == 0 ? "" : ops + " operations" + (s.duration() > 0 ? " or " : "");
      String timed = limit + (s.duration() > 0 ? s.duration() + " s, whichever ends first" : "");
      phases.add(seconds == Double.MAX_VALUE ? Outline.Phase.untimed("run", limit.strip())
          : Outline.Phase.timed("run", timed.strip(), seconds));
    }
    return new Outline(server.describe(), tls, database, tables, connections, YugabyteView.planned(server,
        o.run.metricsPorts()), phases, command);
  }

  /** The run's settings as --dry-run prints them after the outline: the workload's and the binding's, one a line. */
  Map<String, String> settings(String workloadName) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("workload", workloadName);
    m.put("api", s.api().flag());
    m.put("phase", s.phase().toString());
    m.put("threads", Integer.toString(s.threads()) + (s.pools() ? " (load)" : "") + s.clientThreads().describe());
    if (s.pools()) {
      for (YcsbPhase.Threads t : runPools()) {
        m.put(t.pool().label(), t.count() + " threads, " + (t.operations() == 0 ? "until the time limit"
            : t.operations() + " " + t.unit()) + (t.targetOps() > 0 ? ", " + t.targetOps() + " ops/s" : ""));
      }
    }
    if (s.phase() != Phase.RUN) {
      m.put("load", loadSlice[1] + " records from key " + loadSlice[0] + ", " + loadWrites());
    }
    if (!s.pools()) {
      m.put("operations", props.getProperty("operationcount", "1000"));
    }
    m.put("create_table", s.createTable() != null ? s.createTable() : s.phase().loads() || s.phase() == Phase.CREATE
        ? "always (a load's default)" : "never (a run alone's default)");
    m.put("duration_s", Long.toString(s.duration()));
    m.put("warmup_s", Long.toString(s.warmup()));
    m.put("target_ops", s.target() > 0 ? Double.toString(s.target()) : "none");
    m.put("clients", o.fleet.clients + " (this one " + o.fleet.clientIndex + (o.fleet.id == null ? "" : ", fleet " + o.fleet.id) + ")");
    m.put("status_interval_s", props.getProperty(YcsbSettings.STATUS_INTERVAL, "10"));
    m.putAll(settings);
    return m;
  }
}
