package dev.ybbench.ycsb;

import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.Context;
import dev.ybbench.harness.benchmark.LastLoad;
import dev.ybbench.harness.benchmark.MergeOptions;
import dev.ybbench.harness.benchmark.Outline;
import dev.ybbench.harness.benchmark.Plan;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.run.ClientThreads;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.run.RunOptions;
import dev.ybbench.ycsb.cli.EquivalentCommand;
import dev.ybbench.ycsb.cli.Phase;
import dev.ybbench.ycsb.cli.SampleAppCommandLine;
import dev.ybbench.ycsb.cli.SettingSources;
import dev.ybbench.ycsb.cli.SettingsCheck;
import dev.ybbench.ycsb.cli.YcsbCommandLine;
import dev.ybbench.ycsb.cli.YcsbOptions;
import dev.ybbench.ycsb.cli.YcsbSettings;
import dev.ybbench.ycsb.client.LoadCheckpoint;
import dev.ybbench.ycsb.client.LoadResume;
import dev.ybbench.ycsb.client.YcsbPhase;
import dev.ybbench.ycsb.workload.Pool;
import dev.ybbench.ycsb.ycql.YcqlConfig;
import dev.ybbench.ycsb.ycql.YcqlTarget;
import dev.ybbench.ycsb.ysql.YsqlConfig;
import dev.ybbench.ycsb.ysql.YsqlTarget;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import site.ycsb.DB;

/** {@code ./run_ycsb.sh WORKLOAD [options]}: server, schema, load, run, results. */
@Command(name = "run_ycsb.sh", sortOptions = false, usageHelpAutoWidth = true,
    resourceBundle = "dev.ybbench.ycsb.YcsbCommand",
    description = {
        "Runs a YCSB workload over YugabyteDB's YSQL or YCQL API. With no --hosts it starts an embedded "
            + "PostgreSQL (YSQL speaks its protocol) or Cassandra (YCQL speaks CQL) and stops it afterwards. "
            + "Results go to "
            + "results/<UTC time>_ycsb_<workload>_<product>-<version>/ (see results/README.md). "
            + "YCSB's own command lines (bin/ycsb load|run BINDING -P … -p … -threads N -target N -s) and "
            + "yugabyte/YCSB's binding properties (db.url, hosts, cassandra.*) run with their meaning.",
        ""},
    footer = {"",
        "Examples:",
        "  ./run_ycsb.sh workloada",
        "  ./run_ycsb.sh core --hosts 10.0.0.1,10.0.0.2,10.0.0.3 --label 2024.2   (a b c f d, then e on its own load)",
        "  ./run_ycsb.sh workloade-hashrange --threads 16 --duration 120",
        "  ./run_ycsb.sh workloadb --hosts 10.0.0.1,10.0.0.2,10.0.0.3 --tablets 12",
        "  ./run_ycsb.sh workloada --db-version 16 -p requestdistribution=uniform",
        "  ./run_ycsb.sh workloada --api ycql --nodes 3 --consistency QUORUM",
        "  ./run_ycsb.sh -P path/to/ycsb/workloads/workloadb",
        "  ./run_ycsb.sh run yugabyteSQL -P db.properties -P workloads/workloada -p threadcount=256 -s",
        "  ./run_ycsb.sh sqlinserts --hosts H --clients 4 --client-index 2 --fleet f1   (one of four clients)",
        "  ./run_ycsb.sh --merge results/<client 0 run> results/<client 1 run> …"})
public final class YcsbCommand implements BenchmarkCommand {
  @Mixin
  YcsbOptions o = new YcsbOptions();

  /** The command line as given (a sample app's as translated): the equivalent command reads its flags. */
  private List<String> args = List.of();
  /** Whether the command line was a sample app's, already printed as ybbench's. */
  private boolean sampleApp;
  private YcsbSettings settled;

  @Override
  public RunOptions output() {
    return o.run;
  }

  @Override
  public MergeOptions merging() {
    return o.merging;
  }

  /** The options as parsed, for tests and callers. */
  public YcsbOptions options() {
    return o;
  }

  /** The settings of the last command, once settled (a dry run settles them too), for callers. */
  public YcsbSettings settings() {
    return settled;
  }

  /** How long clients other than client 0 wait for the table it creates. */
  static final int SCHEMA_WAIT_S = 600;

  /**
   * A sample app's command line ({@code --workload SqlInserts …}) in ybbench's flags, the first
   * line printed the same run as a ybbench command, then a note for each option of the app's whose
   * meaning there is to change nothing; YCSB's own command line ({@link YcsbCommandLine}) in
   * ybbench's flags. run.json records the line as given, a sample app's as ybbench's.
   */
  @Override
  public Translation translate(List<String> given, Consumer<String> console) {
    args = given;
    List<String> ours = given;
    if (SampleAppCommandLine.applies(given.toArray(String[]::new))) {
      SampleAppCommandLine.Translation t = SampleAppCommandLine.translate(given.toArray(String[]::new),
          UUID::randomUUID);
      ours = t.args();
      args = ours;
      sampleApp = true;
      List<String> shown = new ArrayList<>(t.args());
      for (int i = 0; i + 1 < shown.size(); i++) {
        if (shown.get(i).equals("--password")) {
          shown.set(i + 1, "***");
        }
      }
      console.accept("As ybbench: ./run_ycsb.sh " + ShellWords.join(shown));
      t.notes().forEach(n -> console.accept("note: " + n));
    }
    return new Translation(List.of(YcsbCommandLine.translate(ours.toArray(String[]::new))), args);
  }

  @Override
  public Path merge(List<Path> runs, Path resultsRoot, boolean includeIncomplete, Consumer<String> warn,
      BooleanSupplier stop) throws IOException {
    return YcsbMerge.merge(runs, resultsRoot, includeIncomplete, warn, stop);
  }

  @Override
  public boolean audit(Path merged, Consumer<String> out) throws IOException {
    return YcsbMerge.audit(merged, out);
  }

  /** {@code core} in place of a workload: YCSB's core sequence, each of its runs a run of this command. */
  @Override
  public Outcome instead(Context context) throws Exception {
    if (!CoreSequence.WORD.equals(o.workload)) {
      return null;
    }
    CoreSequence sequence = new CoreSequence(context.home(), context.console(), args);
    List<Runner.DryRun> plans = sequence.plan();
    return o.run.dryRun ? sequence.dryRun(plans) : sequence.run(context);
  }

  @Override
  public Plan plan(Context context) throws Exception {
    Path home = context.home();
    Console console = context.console();
    List<Path> files = WorkloadFiles.resolve(o.workload, o.files, home);
    YcsbSettings s = SettingSources.settle(o, files);
    settled = s;
    SettingsCheck.check(s, o);
    Properties props = s.properties(); // the run's own: the plan and the target complete them
    // TLS and URL options are for a server given by --hosts; on the embedded one they are refused, not dropped.
    ServerTarget server = ServerTarget.choose(s.api(), s.hosts(), o.server.dbVersion, o.nodes)
        .withSettings(o.server.dbSettings())
        .refusing(o.server.urlOptions != null ? "--url-options" : "-p " + YsqlConfig.URL_OPTIONS,
            s.ycql() ? null : props.getProperty(YsqlConfig.URL_OPTIONS))
        .refusing("-p " + YcqlConfig.TRUSTSTORE, s.ycql() ? props.getProperty(YcqlConfig.TRUSTSTORE) : null)
        .refusing("-p " + YcqlConfig.TLS, s.ycql() && Boolean.parseBoolean(props.getProperty(YcqlConfig.TLS))
            ? "true" : null);
    SettingsCheck.checkOn(server, s, o, home);
    String workloadName = s.workloadName();
    String equivalent = EquivalentCommand.of(s, o, nativeFlags(), server);
    if (s.provenance().foreign() && !o.run.dryRun && !sampleApp) { // a sample app's line printed it first
      console.line("As ybbench: " + equivalent); // a dry run's plan says it
    }
    s.notes().forEach(n -> console.line("note: " + n));
    boolean doLoad = s.phase().loads();
    boolean doRun = s.phase().runs();
    YcsbPlan plan = YcsbPlan.of(o, s, props, server, doRun, console);
    long[] mine = plan.loadSlice();
    if (doLoad && mine[1] == 0) {
      throw new UserError("--clients " + o.fleet.clients + " is more than the " + props.getProperty("insertcount")
          + " records to load: client " + o.fleet.clientIndex + " would have none; use fewer clients or more "
          + "--records");
    }
    if (doRun && Long.parseLong(props.getProperty("operationcount", "1000")) == 0 && s.duration() == 0) {
      throw new UserError("operationcount is 0 and --duration is 0: the run would never end; set one of them");
    }
    LoadCheckpoint.Saved earlier = o.resume == null ? null
        : LoadResume.earlier(o.resume, workloadName, parameters(s, props, mine), mine);
    return new Planned(s, server, props, plan, mine, earlier, console, equivalent, home);
  }

  /** The plan as the runner takes it: the schema as --create-table says, the load, the run. */
  private final class Planned implements Plan {
    private final YcsbSettings s;
    private final ServerTarget server;
    private final Properties props;
    private final YcsbPlan plan;
    private final long[] mine;
    private final LoadCheckpoint.Saved earlier;
    private final Console console;
    private final YcsbReport report;
    private final String equivalent;
    /** The repository, under which a dry run looks for the last load's rate. */
    private final Path home;
    private volatile ApiTarget apiTarget;

    Planned(YcsbSettings s, ServerTarget server, Properties props, YcsbPlan plan, long[] mine,
        LoadCheckpoint.Saved earlier, Console console, String equivalent, Path home) {
      this.s = s;
      this.server = server;
      this.props = props;
      this.plan = plan;
      this.mine = mine;
      this.earlier = earlier;
      this.console = console;
      this.equivalent = equivalent;
      this.home = home;
      this.report = new YcsbReport(props, YcsbCommandLine.isYcsbs(args.toArray(String[]::new)));
    }

    @Override
    public Outline outline() {
      return plan.outline(equivalent, LastLoad.find(o.run.resultsRoot(home), Ycsb.NAME, server, s.api().flag()));
    }

    @Override
    public Map<String, String> settings() {
      return plan.settings(s.workloadName());
    }

    @Override
    public String workload() {
      return s.workloadName();
    }

    @Override
    public RunOptions output() {
      return o.run.withLabel(s.label());
    }

    @Override
    public Map<String, String> parameters() {
      return YcsbCommand.this.parameters(s, props, mine);
    }

    @Override
    public Map<String, Object> extra() {
      Map<String, Object> extra = new LinkedHashMap<>(Map.of("api", s.api().flag()));
      if (o.resume != null) {
        extra.put("resumed_from", o.resume.getFileName().toString());
      }
      if (!server.settings().isEmpty()) {
        extra.put("db_settings", new TreeMap<>(server.settings()));
      }
      if (o.fleet.inFleet()) {
        extra.put("fleet", o.fleet.runJson());
      }
      return extra;
    }

    @Override
    public RunLifecycle.Target open(Consumer<String> log) {
      apiTarget = s.ycql() ? YcqlTarget.open(server, props, log) : YsqlTarget.open(server, s.threads(), props, log);
      return apiTarget;
    }

    @Override
    public void run(Run run) throws Exception {
      boolean doLoad = s.phase().loads();
      boolean doRun = s.phase().runs();
      run.auditTable(props.getProperty("table", "usertable"), o.fleet.clients);
      String create = s.createTable();
      if (o.resume != null || "never".equals(create)) {
        apiTarget.useExistingSchema(console::line); // the table the earlier part loaded into, or one made before
      } else if ("if-missing".equals(create)) {
        if (apiTarget.schemaReady(null)) {
          apiTarget.useExistingSchema(console::line);
        } else {
          apiTarget.createSchema(o.fleet.id, console::line, run::onStop);
        }
      } else if (s.phase() == Phase.CREATE || o.fleet.clientIndex == 0 && (doLoad || "always".equals(create))) {
        apiTarget.createSchema(o.fleet.id, console::line, run::onStop);
      } else if (doLoad) {
        apiTarget.awaitSchema(o.fleet.id, o.fleet.clientIndex, o.fleet.clients, SCHEMA_WAIT_S, run::interrupted,
            console::line);
      } else {
        apiTarget.useExistingSchema(console::line);
      }
      if (doLoad && !run.interrupted()) {
        Properties loadProps = (Properties) props.clone();
        loadProps.setProperty(YsqlConfig.BATCH_SIZE, Integer.toString(s.batchSize()));
        loadProps.setProperty(YcqlConfig.IN_FLIGHT, Integer.toString(s.batchSize()));
        loadProps.setProperty("insertstart", Long.toString(mine[0]));
        loadProps.setProperty("insertcount", Long.toString(mine[1]));
        console.line(String.format("Loading %d records%s with %d threads%s (%s)%s", mine[1], o.fleet.clients == 1
            ? "" : String.format(" (keys %d … %d, client %d of %d)", mine[0], mine[0] + mine[1] - 1,
            o.fleet.clientIndex, o.fleet.clients), s.threads(), s.clientThreads().describe(), plan.loadWrites(),
            s.target() > 0 ? String.format(", paced to %.0f rows/s", s.target()) : ""));
        // Keys handed out per write of the checkpoint: at most this many (and those in flight) in doubt after a crash.
        int reserveAhead = (int) Math.min(1_000_000, Math.max(1_000L, 2L * s.threads() * s.batchSize()));
        LoadCheckpoint checkpoint = !plan.coreWorkload() ? null : earlier == null
            ? new LoadCheckpoint(run.directory().path(), mine[0], mine[0] + mine[1], mine[0], List.of(), reserveAhead,
                null)
            : LoadResume.resume(run, o.resume, earlier, loadProps, apiTarget::newBinding, reserveAhead);
        runPhase(run, Phase.LOAD, loadProps, List.of(plan.loadThreads(checkpoint == null ? mine[1]
            : checkpoint.toInsert())), 0, 0, checkpoint, apiTarget::newBinding, s.clientThreads());
      }
      if (doRun && !run.interrupted()) {
        List<YcsbPhase.Threads> pools = plan.runPools();
        ClientThreads threads = apiTarget.runThreads(s.clientThreads());
        console.line("Running " + s.workloadName() + " with " + String.join(" and ", pools.stream().map(p ->
            p.count() + " " + (p.pool() == Pool.MIX ? "threads" : p.pool().label()) + threads.describe()
                + ": " + (p.operations() == 0 ? "unlimited" : Long.toString(p.operations())) + " " + p.unit()
                + (p.targetOps() > 0 ? String.format(" at %.0f ops/s", p.targetOps()) : "")).toList())
            + (s.duration() == 0 ? ", no time limit" : ", at most " + s.duration() + " s"));
        runPhase(run, Phase.RUN, props, pools, s.warmup(), s.duration(), null, apiTarget::newRunBinding, threads);
      }
      report.export();
    }

    private void runPhase(Run run, Phase phase, Properties phaseProps, List<YcsbPhase.Threads> pools,
        long warmupSeconds, long maxSeconds, LoadCheckpoint checkpoint, Supplier<DB> bindings, ClientThreads threads)
        throws Exception {
      String name = phase.toString();
      YcsbPhase p = new YcsbPhase(phase, phaseProps, bindings, run.console()::line,
          counting -> run.beginPhase(name, counting)).checkpointed(checkpoint).on(threads);
      run.onStop(p::stop);
      YcsbPhase.Result r = p.execute(pools, warmupSeconds, maxSeconds, run.directory().latencyDir(), run.timeseries());
      run.console().line(report.text(r));
      if (r.warmup() != null) {
        run.keep(YcsbPhase.WARMUP, r.warmup());
      }
      run.record(name, r.summary());
    }
  }

  /** The flags as typed, for the equivalent command: all but the workload, -P, -p and --dry-run (a password hidden). */
  private List<String> nativeFlags() {
    List<String> out = new ArrayList<>();
    String[] ours = YcsbCommandLine.translate(args.toArray(String[]::new));
    picocli.CommandLine.Model.CommandSpec spec = new picocli.CommandLine(new YcsbCommand()).getCommandSpec();
    for (int i = 0; i < ours.length; i++) {
      String a = ours[i];
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      picocli.CommandLine.Model.OptionSpec option = a.startsWith("-") ? spec.findOption(name) : null;
      if (option == null) {
        continue; // the workload
      }
      boolean valued = option.arity().max() > 0 && !a.contains("=");
      if (name.equals("-p") || name.equals("-P") || name.equals("--dry-run")) {
        i += valued ? 1 : 0;
        continue;
      }
      out.add(name.equals("--password") ? "--password" : a);
      if (valued && i + 1 < ours.length) {
        out.add(name.equals("--password") ? "***" : ours[++i]);
      } else if (name.equals("--password") && a.contains("=")) {
        out.add("***");
      }
    }
    return out;
  }

  private Map<String, String> parameters(YcsbSettings s, Properties props, long[] loadKeys) {
    Map<String, String> m = new TreeMap<>();
    props.stringPropertyNames().forEach(k -> m.put(k, props.getProperty(k)));
    if (o.fleet.clients > 1) {
      m.put(YcsbMerge.LOAD_KEYS, loadKeys[0] + "+" + loadKeys[1]);
    }
    m.put("ybbench.threads", Integer.toString(s.threads()));
    if (s.jobs() != null) {
      m.put(YcsbSettings.JOBS, Integer.toString(s.jobs()));
    }
    m.put("ybbench.duration_s", Long.toString(s.duration()));
    m.put("ybbench.target_ops", Double.toString(s.target()));
    m.put("ybbench.batch_size", Integer.toString(s.batchSize()));
    m.put("ybbench.phase", s.phase().toString());
    if (s.createTable() != null) {
      m.put(YcsbSettings.CREATE_TABLE, s.createTable());
    }
    if (s.pools()) {
      m.put(YcsbSettings.READ_THREADS, Integer.toString(s.readers()));
      m.put(YcsbSettings.WRITE_THREADS, Integer.toString(s.writers()));
      m.put(YcsbSettings.READS, Long.toString(s.reads()));
      m.put(YcsbSettings.WRITES, Long.toString(s.writes()));
      m.put(YcsbSettings.READ_TARGET, Double.toString(s.readTarget()));
      m.put(YcsbSettings.WRITE_TARGET, Double.toString(s.writeTarget()));
    }
    return m;
  }
}
