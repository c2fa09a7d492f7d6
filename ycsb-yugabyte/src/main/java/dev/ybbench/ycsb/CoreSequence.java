package dev.ybbench.ycsb;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.BenchmarkCommand.Outcome;
import dev.ybbench.harness.benchmark.Context;
import dev.ybbench.harness.benchmark.Outline;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.ycsb.cli.YcsbSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code ./run_ycsb.sh core}: YCSB's core workloads in the order YCSB's wiki gives ("Running the
 * workloads"): workload A's load, then A, B, C, F and D over it; then the data deleted, E's load and
 * E — since D and E insert, and E's scans read what D left. Each workload is a run directory of its
 * own, made by a run of this script in a process of its own with the sequence's flags; one server
 * for them all, so that the runs after a load read what it wrote (the embedded one started here
 * once). Ends with one table of the six.
 */
final class CoreSequence {
  /** The word that asks for it in place of a workload. */
  static final String WORD = "core";

  /** One run of the sequence: its workload and whether it loads first (dropping what was there). */
  record Step(String workload, boolean loads) {
    String phase() {
      return loads ? "both" : "run";
    }
  }

  /** YCSB's order: one load for A, B, C, F, D; another for E. */
  static final List<Step> STEPS = List.of(new Step("workloada", true), new Step("workloadb", false),
      new Step("workloadc", false), new Step("workloadf", false), new Step("workloadd", false),
      new Step("workloade", true));

  /** Flags that would change what the sequence is, each refused by name with what to do instead. */
  private static final List<String[]> REFUSED = List.of(
      new String[] {"-P", "the sequence runs workloads/workloada … workloade; set a property with -p NAME=VALUE"},
      new String[] {"--phase", "the sequence loads twice and runs six times; run one workload for one phase"},
      new String[] {"--create-table", "each load drops and creates the table, each run uses it"},
      new String[] {"--resume", "resume the one run that died: ./run_ycsb.sh WORKLOAD --resume RUN_DIR"},
      new String[] {"--confirm", "judge each run with compare.sh --history --confirm RUN_DIR"},
      new String[] {"--clients", "run one workload per fleet: run-scripts/fleet.sh --clients N WORKLOAD"},
      new String[] {"--client-index", "run one workload per fleet: run-scripts/fleet.sh --clients N WORKLOAD"},
      new String[] {"--fleet", "run one workload per fleet: run-scripts/fleet.sh --clients N WORKLOAD"},
      new String[] {"--merge", "merge one workload's clients: ./run_ycsb.sh --merge RUN_DIR…"});

  /** The flags of the embedded server: the sequence starts it once, its runs connect to it. */
  private static final Set<String> SERVER_FLAGS = Set.of("--db-version", "--db-setting", "--nodes");

  private final Path home;
  private final Console console;
  private final List<String> given;
  private final CommandLine.Model.CommandSpec spec = new CommandLine(new YcsbCommand()).getCommandSpec();

  /** @param given the command line as typed, "core" among its words */
  CoreSequence(Path home, Console console, List<String> given) {
    this.home = home;
    this.console = console;
    this.given = given;
  }

  /** The command line without "core" and --dry-run: what every run of the sequence is given, beside its workload. */
  List<String> shared() {
    List<String> out = new ArrayList<>();
    boolean dropped = false;
    for (int i = 0; i < given.size(); i++) {
      String a = given.get(i);
      OptionSpec option = option(a);
      if (a.equals("--dry-run")) {
        continue;
      }
      if (option != null) {
        out.add(a);
        if (option.arity().max() > 0 && !a.contains("=") && i + 1 < given.size()) {
          out.add(given.get(++i));
        }
      } else if (!dropped && a.equals(WORD)) {
        dropped = true;
      } else {
        out.add(a);
      }
    }
    return out;
  }

  /** Each refused flag's line, before anything is planned. */
  void refuse() {
    for (String a : shared()) {
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      for (String[] r : REFUSED) {
        if (r[0].equals(name)) {
          throw new UserError(r[0] + " does not go with core: " + r[1]);
        }
      }
    }
  }

  /** A step's command line as the dry run shows it. */
  private List<String> shown(Step step) {
    if (embedded == null) {
      return planned(step);
    }
    return running(step, new Started("<embedded server>", embedded.user(), embedded.rf()));
  }

  /** A step's command line as typed: the sequence's flags (the server's among them), its workload and phase. */
  List<String> planned(Step step) {
    List<String> a = new ArrayList<>(List.of(step.workload()));
    a.addAll(shared());
    a.addAll(List.of("--phase", step.phase()));
    return a;
  }

  /**
   * A step's command line as it runs: on a server the sequence started, its nodes in place of the
   * embedded server's flags, with the user and replication factor the embedded server's run would
   * have had.
   */
  List<String> running(Step step, Started started) {
    if (started == null) {
      return planned(step);
    }
    List<String> a = new ArrayList<>(List.of(step.workload()));
    List<String> own = without(shared(), SERVER_FLAGS);
    a.addAll(own);
    a.addAll(List.of("--hosts", started.hosts()));
    if (started.user() != null && !has(own, "--user")) {
      a.addAll(List.of("--user", started.user()));
    }
    if (started.rf() != null && !has(own, "--rf")) {
      a.addAll(List.of("--rf", Integer.toString(started.rf())));
    }
    a.addAll(List.of("--phase", step.phase()));
    return a;
  }

  /** The embedded server the sequence started: its nodes, and what a run on it would have taken by default. */
  record Started(String hosts, String user, Integer rf) {}

  /**
   * Every step planned by its own dry run, so that what a run would refuse is refused before
   * anything starts: the first as typed (which refuses a bad server flag), then, on an embedded
   * server, each as it will run there (on its nodes, {@link #PLANNED_HOSTS} standing in).
   */
  List<Runner.DryRun> plan() {
    refuse();
    asTyped = dryRun(STEPS.get(0), planned(STEPS.get(0)));
    YcsbCommand first = (YcsbCommand) asTyped.command();
    YcsbSettings s = first.settings();
    server = ServerTarget.choose(s.api(), s.hosts(), first.options().server.dbVersion, first.options().nodes)
        .withSettings(first.options().server.dbSettings());
    embedded = server.embedded() ? new Started(PLANNED_HOSTS, s.ycql() ? null : EmbeddedPostgres.SUPERUSER,
        s.ycql() ? Math.min(3, server.nodes()) : null) : null;
    List<Runner.DryRun> plans = new ArrayList<>();
    for (Step step : STEPS) {
      plans.add(embedded == null && step == STEPS.get(0) ? asTyped : dryRun(step, running(step, embedded)));
    }
    return plans;
  }

  /** The embedded server's stand-in while planning. */
  private static final String PLANNED_HOSTS = "127.0.0.1";
  /** The first step's plan as typed (on an embedded server, the server's start is in it). */
  private Runner.DryRun asTyped;
  /** The server as the first step chose it: the embedded one is started once, here. */
  private ServerTarget server;
  /** The embedded server as planned (its nodes stand-ins), or null for hosts given. */
  private Started embedded;

  private Runner.DryRun dryRun(Step step, List<String> args) {
    try {
      return Runner.dryRun(new Ycsb(), home, args);
    } catch (UserError e) {
      throw new UserError(step.workload() + " in the core sequence: " + e.getMessage());
    }
  }

  /** --dry-run: the sequence, its loads and its time, then the first run's plan as every run's. */
  Outcome dryRun(List<Runner.DryRun> plans) {
    YcsbSettings first = ((YcsbCommand) asTyped.command()).settings();
    console.line("Plan (nothing started): YCSB's core sequence over " + first.api().flag().toUpperCase(
        java.util.Locale.ROOT) + ", in YCSB's order, " + STEPS.size() + " runs on " + loads() + " loads");
    console.line("  server: " + (embedded != null ? "one embedded server, started before the first run and stopped "
        + "after the last (its nodes in each run's --hosts)" : "the hosts given"));
    double known = 0;
    Set<String> untimed = new java.util.LinkedHashSet<>();
    int load = 0;
    for (int i = 0; i < STEPS.size(); i++) {
      Step step = STEPS.get(i);
      Outline outline = plans.get(i).outline();
      known += outline.knownSeconds();
      untimed.addAll(outline.untimed());
      String over = step.loads() ? "load " + ++load + " (drops and creates the table, loads "
          + first.records() + " records), then runs" : "runs over load " + load;
      String phases = String.join(", ", outline.phases().stream().map(p -> p.name() + " " + p.time()).toList());
      console.line("  " + (i + 1) + ". " + step.workload() + ": " + over + " (" + phases + ")");
      console.line("     " + Outline.command("run_ycsb.sh", shown(step)));
    }
    console.line("  wall_time: at least " + Outline.seconds(known) + (untimed.isEmpty() ? "" : ", plus the "
        + load + " loads, whose time only the runs can tell") + ", beside each run's start");
    console.line("  then: one table of the " + STEPS.size() + " runs (ops/s, p50 and p99 per operation, errors)");
    console.line("Each run's plan, as the first one's:");
    asTyped.lines().stream().filter(l -> !l.startsWith("Plan (")).forEach(console::line);
    return new Outcome(RunLifecycle.EXIT_COMPLETE, null, outline(plans));
  }

  /** The sequence in one outline: the first run's, with every run's phases, each named after its workload. */
  private Outline outline(List<Runner.DryRun> plans) {
    Outline o = asTyped.outline();
    List<Outline.Phase> phases = new ArrayList<>();
    for (int i = 0; i < STEPS.size(); i++) {
      for (Outline.Phase p : plans.get(i).outline().phases()) {
        phases.add(new Outline.Phase(STEPS.get(i).workload() + "." + p.name(), p.what(), p.seconds(), p.estimate()));
      }
    }
    return new Outline(o.target(), o.tls(), o.database(), o.tables(), o.connections(), o.reads(), phases,
        Outline.command("run_ycsb.sh", given));
  }

  private static int loads() {
    return (int) STEPS.stream().filter(Step::loads).count();
  }

  /**
   * Runs the sequence: the embedded server started once (unless hosts were given), each step in a
   * process of its own, its output shown as it comes; the first that does not complete ends it.
   */
  Outcome run(Context context) throws IOException, InterruptedException {
    YcsbSettings s = ((YcsbCommand) asTyped.command()).settings();
    AtomicReference<Process> running = new AtomicReference<>();
    context.onStop().accept(() -> {
      Process p = running.get();
      if (p != null) {
        // SIGTERM, its output still read (Process.destroy would close it): it writes what it measured,
        // marked interrupted, as it does on the Ctrl-C that reached it already.
        p.toHandle().destroy();
      }
    });
    List<CoreTable.Done> done = new ArrayList<>();
    int exit = RunLifecycle.EXIT_COMPLETE;
    try {
      Started started = null;
      if (embedded != null) {
        // Each run's threads and its readings' connections, with room to spare.
        HostList hosts = server.start(s.threads() + 20, console::line);
        started = new Started(hosts.toString(), server.embeddedUser(), s.ycql() ? Math.min(3, server.nodes()) : null);
      }
      for (Step step : STEPS) {
        if (context.stopped().getAsBoolean()) {
          exit = RunLifecycle.EXIT_INTERRUPTED;
          break;
        }
        List<String> args = running(step, started);
        console.line("[core " + (done.size() + 1) + "/" + STEPS.size() + "] ./run_ycsb.sh "
            + ShellWords.join(RunInfo.redactCommand(args, Console::clean)));
        CoreTable.Done ran = runOne(step, args, running);
        done.add(ran);
        int rc = ran.exit();
        if (rc != RunLifecycle.EXIT_COMPLETE) {
          exit = rc == RunLifecycle.EXIT_INTERRUPTED || context.stopped().getAsBoolean()
              ? RunLifecycle.EXIT_INTERRUPTED : RunLifecycle.EXIT_FAILED;
          if (exit == RunLifecycle.EXIT_FAILED && done.size() < STEPS.size()) {
            console.line("core: " + step.workload() + " did not complete (exit " + rc + "); the sequence stops here, "
                + "since what follows reads what it left");
          }
          break;
        }
      }
    } finally {
      server.close();
    }
    CoreTable.lines(s.api().flag(), done, STEPS.size()).forEach(console::line);
    return new Outcome(exit, null);
  }

  /** One step in a JVM of its own (as fleet.sh's clients), its lines passed on; its run directory from "Results: ". */
  private CoreTable.Done runOne(Step step, List<String> args, AtomicReference<Process> running)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(Runner.inNewJvm(home, new Ycsb(), args)).redirectErrorStream(true);
    Process p = pb.start();
    running.set(p);
    Path dir = null;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = out.readLine()) != null; ) {
        console.line(line);
        if (line.startsWith("Results: ")) {
          dir = Path.of(line.substring("Results: ".length()).strip());
        }
      }
      return new CoreTable.Done(step.workload(), dir, p.waitFor());
    } finally {
      running.set(null);
    }
  }

  private OptionSpec option(String word) {
    if (!word.startsWith("-")) {
      return null;
    }
    return spec.findOption(word.contains("=") ? word.substring(0, word.indexOf('=')) : word);
  }

  /** {@code args} without the flags named (and their values). */
  private List<String> without(List<String> args, Set<String> names) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      OptionSpec option = option(a);
      boolean valued = option != null && option.arity().max() > 0 && !a.contains("=");
      if (option != null && java.util.Arrays.stream(option.names()).anyMatch(names::contains)) {
        i += valued ? 1 : 0;
        continue;
      }
      out.add(a);
      if (valued && i + 1 < args.size()) {
        out.add(args.get(++i));
      }
    }
    return out;
  }

  private boolean has(List<String> args, String name) {
    return args.stream().anyMatch(a -> a.equals(name) || a.startsWith(name + "="));
  }
}
