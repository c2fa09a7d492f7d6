package dev.ybbench.ycsb;

import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunHistory;
import dev.ybbench.harness.run.RunLifecycle;
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
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code ./run_ycsb.sh WORKLOAD [options]}: server, schema, load, run, results. */
@Command(name = "run_ycsb.sh", sortOptions = false, usageHelpAutoWidth = true,
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
        "  ./run_ycsb.sh workloade-hashrange --threads 16 --duration 120",
        "  ./run_ycsb.sh workloadb --hosts 10.0.0.1,10.0.0.2,10.0.0.3 --tablets 12",
        "  ./run_ycsb.sh workloada --db-version 16 -p requestdistribution=uniform",
        "  ./run_ycsb.sh workloada --api ycql --nodes 3 --consistency QUORUM",
        "  ./run_ycsb.sh -P path/to/ycsb/workloads/workloadb",
        "  ./run_ycsb.sh run yugabyteSQL -P db.properties -P workloads/workloada -p threadcount=256 -s",
        "  ./run_ycsb.sh sqlinserts --hosts H --clients 4 --client-index 2 --fleet f1   (one of four clients)",
        "  ./run_ycsb.sh --merge results/<client 0 run> results/<client 1 run> …"})
public final class RunYcsb implements java.util.concurrent.Callable<Integer> {
  @Mixin
  YcsbOptions o = new YcsbOptions();

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

  /**
   * Parses and runs; returns the exit code. Errors are one line on {@code err}. A command line in
   * YCSB's own form is first rewritten into ybbench's ({@link YcsbCommandLine}).
   */
  public int execute(String[] args, PrintStream err) {
    this.args = args.clone();
    try {
      String[] ours;
      try {
        ours = YcsbCommandLine.translate(foreign(args));
      } catch (UserError e) {
        err.println("error: " + Console.clean(e.getMessage()));
        return RunLifecycle.EXIT_BAD_INPUT;
      }
      return CommandLines.execute(this, ours, err, Console::clean, () -> o.run.verbose);
    } finally {
      lifecycle.finished();
    }
  }

  /**
   * A sample app's command line ({@code --workload SqlInserts …}) in ybbench's flags; the first
   * line printed is the same run as a ybbench command, then a note for each option of the app's
   * whose meaning there is to change nothing. Any other command line as it is.
   */
  private String[] foreign(String[] given) {
    if (!SampleAppCommandLine.applies(given)) {
      return given;
    }
    SampleAppCommandLine.Translation t = SampleAppCommandLine.translate(given, UUID::randomUUID);
    String[] ours = t.args().toArray(new String[0]);
    this.args = ours; // run.json records the run as it ran
    sampleApp = true;
    List<String> shown = new ArrayList<>(t.args());
    for (int i = 0; i + 1 < shown.size(); i++) {
      if (shown.get(i).equals("--password")) {
        shown.set(i + 1, "***");
      }
    }
    lifecycle.console().line("As ybbench: ./run_ycsb.sh " + ShellWords.join(shown));
    t.notes().forEach(n -> lifecycle.console().line("note: " + n));
    return ours;
  }

  /** Whether the command line was a sample app's, already printed as ybbench's. */
  private boolean sampleApp;

  /** The options as parsed, for tests and callers. */
  public YcsbOptions options() {
    return o;
  }

  /** The settings of the last command, once settled (a dry run settles them too), for callers. */
  public YcsbSettings settings() {
    return settled;
  }

  private YcsbSettings settled;

  /** The run directory of the last run, for tests and callers. */
  public Path runDirectory() {
    return mergedDir != null ? mergedDir : lifecycle.runDirectory();
  }

  /** How long clients other than client 0 wait for the table it creates. */
  static final int SCHEMA_WAIT_S = 600;

  /** The merged run of the last --merge, for tests and callers. */
  private Path mergedDir;

  @Override
  public Integer call() throws Exception {
    int exit = runOrMerge();
    return RunHistory.find().record(o.run.history, runDirectory(), exit, lifecycle.console()::line);
  }

  private int runOrMerge() throws Exception {
    Console console = lifecycle.console();
    if (o.merge != null) {
      mergedDir = RunMerge.run(o.merge.size(), (warn, stop) -> YcsbMerge.merge(o.merge, o.run.resultsRoot(home),
          o.includeIncomplete, warn, stop), console::line, lifecycle::interrupted);
      if (mergedDir == null) {
        return RunLifecycle.EXIT_INTERRUPTED;
      }
      return YcsbMerge.audit(mergedDir, console::line) ? 0 : 1;
    }
    if (o.includeIncomplete) {
      throw new UserError("--include-incomplete goes with --merge RUN_DIR…; leave it out of a run");
    }
    List<Path> files = WorkloadFiles.resolve(o.workload, o.files, home);
    YcsbSettings s = SettingSources.settle(o, files);
    settled = s;
    SettingsCheck.check(s, o);
    ServerTarget server = ServerTarget.choose(s.api(), s.hosts(), o.dbVersion, o.nodes).withSettings(o.dbSettings());
    SettingsCheck.checkOn(server, s, o, home);
    Properties props = s.properties(); // the run's own: the plan and the target complete them
    String workloadName = s.workloadName();
    if ((s.provenance().foreign() || o.dryRun) && !sampleApp) { // a sample app's line printed it first
      console.line("As ybbench: " + EquivalentCommand.of(s, o, nativeFlags(), server));
    }
    s.notes().forEach(n -> console.line("note: " + n));
    boolean doLoad = s.phase().loads();
    boolean doRun = s.phase().runs();
    YcsbPlan plan = YcsbPlan.of(o, s, props, server, doRun, console);
    long[] mine = plan.loadSlice();
    if (doLoad && mine[1] == 0) {
      throw new UserError("--clients " + o.clients + " is more than the " + props.getProperty("insertcount")
          + " records to load: client " + o.clientIndex + " would have none; use fewer clients or more --records");
    }
    if (doRun && Long.parseLong(props.getProperty("operationcount", "1000")) == 0 && s.duration() == 0) {
      throw new UserError("operationcount is 0 and --duration is 0: the run would never end; set one of them");
    }
    LoadCheckpoint.Saved earlier = o.resume == null ? null
        : LoadResume.earlier(o.resume, workloadName, parameters(s, props, mine), mine);
    if (o.dryRun) {
      plan.print(console, workloadName);
      return 0;
    }
    Map<String, Object> extra = new LinkedHashMap<>(Map.of("api", s.api().flag()));
    if (o.resume != null) {
      extra.put("resumed_from", o.resume.getFileName().toString());
    }
    if (!server.settings().isEmpty()) {
      extra.put("db_settings", new java.util.TreeMap<>(server.settings()));
    }
    if (o.clients > 1 || o.fleet != null) {
      // Which part of which fleet this is: --merge knows from it when a client is missing, and
      // fleet.sh finds each client's run by it.
      Map<String, Object> fleet = new LinkedHashMap<>();
      fleet.put("id", o.fleet);
      fleet.put("clients", o.clients);
      fleet.put("index", o.clientIndex);
      extra.put("fleet", fleet);
    }
    RunLifecycle.Spec spec = new RunLifecycle.Spec("ycsb", workloadName, o.run.withLabel(s.label()), home,
        () -> parameters(s, props, mine), extra, List.of(args));
    YcsbReport report = new YcsbReport(props, YcsbCommandLine.isYcsbs(args));
    return lifecycle.run(spec, () -> apiTarget = openTarget(s, server, props), run -> {
      run.auditTable(props.getProperty("table", "usertable"), o.clients);
      String create = s.createTable();
      if (o.resume != null || "never".equals(create)) {
        apiTarget.useExistingSchema(console::line); // the table the earlier part loaded into, or one made before
      } else if ("if-missing".equals(create)) {
        if (apiTarget.schemaReady(null)) {
          apiTarget.useExistingSchema(console::line);
        } else {
          apiTarget.createSchema(o.fleet, console::line, run::onStop);
        }
      } else if (s.phase() == Phase.CREATE || o.clientIndex == 0 && (doLoad || "always".equals(create))) {
        apiTarget.createSchema(o.fleet, console::line, run::onStop);
      } else if (doLoad) {
        apiTarget.awaitSchema(o.fleet, o.clientIndex, o.clients, SCHEMA_WAIT_S, run::interrupted, console::line);
      } else {
        apiTarget.useExistingSchema(console::line);
      }
      if (doLoad && !run.interrupted()) {
        Properties loadProps = (Properties) props.clone();
        loadProps.setProperty(YsqlConfig.BATCH_SIZE, Integer.toString(s.batchSize()));
        loadProps.setProperty(YcqlConfig.IN_FLIGHT, Integer.toString(s.batchSize()));
        loadProps.setProperty("insertstart", Long.toString(mine[0]));
        loadProps.setProperty("insertcount", Long.toString(mine[1]));
        console.line(String.format("Loading %d records%s with %d threads%s (%s)%s", mine[1], o.clients == 1 ? ""
            : String.format(" (keys %d … %d, client %d of %d)", mine[0], mine[0] + mine[1] - 1, o.clientIndex,
                o.clients), s.threads(), s.clientThreads().describe(), plan.loadWrites(),
            s.target() > 0 ? String.format(", paced to %.0f rows/s", s.target()) : ""));
        // Keys handed out per write of the checkpoint: at most this many (and those in flight) in doubt after a crash.
        int reserveAhead = (int) Math.min(1_000_000, Math.max(1_000L, 2L * s.threads() * s.batchSize()));
        LoadCheckpoint checkpoint = !plan.coreWorkload() ? null : earlier == null
            ? new LoadCheckpoint(run.directory().path(), mine[0], mine[0] + mine[1], mine[0], List.of(), reserveAhead,
                null)
            : LoadResume.resume(run, o.resume, earlier, loadProps, apiTarget::newBinding, reserveAhead);
        runPhase(run, Phase.LOAD, loadProps, List.of(plan.loadThreads(checkpoint == null ? mine[1]
            : checkpoint.toInsert())), 0, 0, checkpoint, s, report);
      }
      if (doRun && !run.interrupted()) {
        List<YcsbPhase.Threads> pools = plan.runPools();
        console.line("Running " + workloadName + " with " + String.join(" and ", pools.stream().map(p ->
            p.count() + " " + (p.pool() == Pool.MIX ? "threads" : p.pool().label()) + s.clientThreads().describe()
                + ": " + (p.operations() == 0 ? "unlimited" : Long.toString(p.operations())) + " " + p.unit()
                + (p.targetOps() > 0 ? String.format(" at %.0f ops/s", p.targetOps()) : "")).toList())
            + (s.duration() == 0 ? ", no time limit" : ", at most " + s.duration() + " s"));
        runPhase(run, Phase.RUN, props, pools, s.warmup(), s.duration(), null, s, report);
      }
      report.export();
    });
  }

  /** The flags as typed, for the equivalent command: all but the workload, -P, -p and --dry-run (a password hidden). */
  private List<String> nativeFlags() {
    List<String> out = new ArrayList<>();
    String[] ours = YcsbCommandLine.translate(args);
    picocli.CommandLine.Model.CommandSpec spec = new picocli.CommandLine(this).getCommandSpec();
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

  private ApiTarget openTarget(YcsbSettings s, ServerTarget server, Properties props) {
    Consumer<String> log = lifecycle.console()::line;
    return s.ycql() ? YcqlTarget.open(server, props, log) : YsqlTarget.open(server, s.threads(), props, log);
  }

  private void runPhase(Run run, Phase phase, Properties props, List<YcsbPhase.Threads> pools, long warmupSeconds,
      long maxSeconds, LoadCheckpoint checkpoint, YcsbSettings s, YcsbReport report) throws Exception {
    String name = phase.toString();
    YcsbPhase p = new YcsbPhase(phase, props, apiTarget::newBinding, run.console()::line, () -> run.beginPhase(name))
        .checkpointed(checkpoint).on(s.clientThreads());
    run.onStop(p::stop);
    YcsbPhase.Result r = p.execute(pools, warmupSeconds, maxSeconds, run.directory().latencyDir(), run.timeseries());
    run.console().line(report.text(r));
    if (r.warmup() != null) {
      run.keep(YcsbPhase.WARMUP, r.warmup());
    }
    run.record(name, r.summary());
  }

  private Map<String, String> parameters(YcsbSettings s, Properties props, long[] loadKeys) {
    Map<String, String> m = new TreeMap<>();
    props.stringPropertyNames().forEach(k -> m.put(k, props.getProperty(k)));
    if (o.clients > 1) {
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
