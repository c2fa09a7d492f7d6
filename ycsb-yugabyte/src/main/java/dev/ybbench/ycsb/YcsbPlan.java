package dev.ybbench.ycsb;

import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import dev.ybbench.ycsb.cli.Phase;
import dev.ybbench.ycsb.cli.PropertyNames;
import dev.ybbench.ycsb.cli.ReadProperties;
import dev.ybbench.ycsb.cli.YcsbOptions;
import dev.ybbench.ycsb.cli.YcsbSettings;
import dev.ybbench.ycsb.client.BindingProperties;
import dev.ybbench.ycsb.client.YcsbPhase;
import dev.ybbench.ycsb.workload.CoreWorkload64;
import dev.ybbench.ycsb.workload.KeyValueApp;
import dev.ybbench.ycsb.workload.Pool;
import dev.ybbench.ycsb.workload.Pooled;
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
  /** Rows one call of the writers, and of the load, writes ({@link Pooled#rowsPerCall}): a batch's. */
  private int writeRowsPerCall = 1;
  private int loadRowsPerCall = 1;
  /** Whether the workload writes its rows in batch statements of its own (CassandraBatchKeyValue). */
  private boolean batchWrites;

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
    if (s.pools() && doRun && !(w instanceof Pooled)) {
      throw new UserError("--read-threads and --write-threads split the mix of YCSB's CoreWorkload or a sample "
          + "app; workload=" + props.getProperty("workload") + " has no readers and writers apart");
    }
    if (w instanceof Pooled pooled) {
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
    if (doRun && w instanceof Pooled pooled) {
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
    Record binding = ycql ? YcqlConfig.from(read) : YsqlConfig.from(read);
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

  /** The plan as --dry-run prints it: the run's settings, then the workload's and the binding's, one per line. */
  void print(Console console, String workloadName) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("workload", workloadName);
    m.put("api", s.api().flag());
    m.put("server", server.describe());
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
    m.put("create_table", s.createTable() == null ? "for a load" : s.createTable());
    m.put("duration_s", Long.toString(s.duration()));
    m.put("warmup_s", Long.toString(s.warmup()));
    m.put("target_ops", s.target() > 0 ? Double.toString(s.target()) : "none");
    m.put("clients", o.fleet.clients + " (this one " + o.fleet.clientIndex + (o.fleet.id == null ? "" : ", fleet " + o.fleet.id) + ")");
    m.put("label", String.valueOf(s.label()));
    if (o.run.history != null) {
      m.put("history", RunInfo.redactInline(o.run.history) + " (the run recorded as it "
          + "ends)");
    }
    m.put("results", o.run.resultsDir == null ? "results/" : o.run.resultsDir.toString());
    m.put("limits", "errors " + o.run.maxErrorPct + " %, aborts " + o.run.maxAbortPct + " %, outage "
        + o.run.maxOutagePct + " %, server readings every " + o.run.serverIntervalS + " s, metrics ports "
        + (o.run.metricsPorts == null ? "default" : o.run.metricsPorts));
    m.put("status_interval_s", props.getProperty(YcsbSettings.STATUS_INTERVAL, "10"));
    m.put("prometheus", o.run.prometheusPort == null ? "off" : "serving /metrics on port " + o.run.prometheusPort
        + (o.run.prometheusPort == 0 ? " (any free one, printed as it starts)" : ""));
    m.putAll(settings);
    console.line("Plan (nothing started):");
    m.forEach((k, v) -> console.line("  " + k + ": " + v));
  }
}
