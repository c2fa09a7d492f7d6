package dev.ybbench.harness.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.FileTrees;
import dev.ybbench.harness.ServerTarget.Api;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Benchmark;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.Benchmarks;
import dev.ybbench.harness.benchmark.FleetSteps;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.cli.ShutdownGuard;
import dev.ybbench.harness.embedded.EmbeddedCassandra;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.run.RunHistory;
import dev.ybbench.harness.run.RunLifecycle;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code run-scripts/fleet.sh --clients N [--benchmark B] …}: N clients of a benchmark at once
 * against one server, as many client machines would drive one cluster. Each configuration is
 * planned here first, as its script plans it, so bad input is refused before anything starts;
 * the benchmark splits it into steps ({@link FleetSteps}: YCSB's load, then its run; TPC-C's
 * create, loads, works and check; sysbench's prepare, then its run), every client of a step
 * ending before the next starts; each client's run is found by its run.json, and a step's runs
 * are merged and audited in this process (docs/fleet.md).
 */
@Command(name = "fleet.sh", sortOptions = false, usageHelpAutoWidth = true,
    description = {
        "Runs N clients of a benchmark at once against one server (--hosts, or one embedded server started here "
            + "for them all), step by step as the benchmark splits its run (docs/fleet.md), then merges each "
            + "step's runs into one and audits it against the server's own counts. Several workloads run one after "
            + "the other against the same server, so a workload that reads what another loaded runs after it. "
            + "Every other option is the benchmark's, given to each client (./ybbench BENCHMARK --help).",
        ""},
    footer = {"",
        "Examples:",
        "  run-scripts/fleet.sh --clients 4 workloada --records 100000 --threads 4",
        "  run-scripts/fleet.sh --clients 4 sqlinserts sqlinserts-read",
        "  run-scripts/fleet.sh --clients 2 workloada --hosts 10.0.0.1,10.0.0.2 --dry-run",
        "  run-scripts/fleet.sh --benchmark NAME --clients 2 [its options]"})
public final class FleetCommand implements Callable<Integer> {
  @Option(names = "--benchmark", paramLabel = "NAME", description = "the benchmark its clients run, one that "
      + "./ybbench --help lists (run-scripts/fleet.sh names its default)")
  String benchmarkName;

  @Option(names = "--clients", paramLabel = "N", required = true,
      description = "client processes, each running its share (its slice of the keys or the warehouses, or its "
          + "threads on the same tables)")
  int clients;

  @Option(names = "--hosts", paramLabel = "H[,H…]", description = "the cluster's nodes (default: one embedded "
      + "PostgreSQL, or Cassandra for YCQL, started here for every client)")
  String hosts;

  @Option(names = "--api", paramLabel = "ysql|ycql", description = "overrides each workload's ybbench.api (a "
      + "benchmark that runs workload files)")
  String api;

  @Option(names = "--phase", paramLabel = "load|run|both", description = "overrides each workload's ybbench.phase "
      + "(a benchmark that runs workload files)")
  String phase;

  @Option(names = "--db-version", paramLabel = "V", description = "the embedded server's version (no --hosts)")
  String dbVersion;

  @Option(names = "--results-dir", paramLabel = "DIR", description = "where the clients' and the merged runs go "
      + "(default: results/)")
  Path resultsDir;

  @Option(names = "--history", paramLabel = "FILE|URL", description = "record the fleet's runs (each step's "
      + "merge, not each client's part) into a history of runs")
  String history;

  @Option(names = "--retry-clients", paramLabel = "N", defaultValue = "0", description = "resume a client that "
      + "dies in a step the benchmark can resume (a load or a prepare) up to N times, so that the step still ends "
      + "whole (default: ${DEFAULT-VALUE}: name the client and print the commands that resume it and merge)")
  int retryClients;

  @Option(names = "--dry-run", description = "plan every configuration and print each step's client command; "
      + "start nothing")
  boolean dryRun;

  @Option(names = "--verbose", description = "stack traces on errors")
  boolean verbose;

  /** Read by the scripts (run-scripts/common.sh), which install gnuplot before the JVM starts. */
  @Option(names = "--no-install", description = "do not install gnuplot for the charts when it is missing")
  boolean noInstall;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  /** YCSB's workloads, in order, and the benchmark's options, which every client gets. */
  @Parameters(paramLabel = "[WORKLOAD…] [the benchmark's options]")
  List<String> words = new ArrayList<>();

  /** The options fleet.sh sets for each client itself. */
  private static final Set<String> OWN = Set.of("--clients", "--client-index", "--fleet", "--merge");
  /** What a client's log shows of a failure. */
  private static final int LOG_TAIL = 15;

  private final Console console;
  private final Path home;
  private final ShutdownGuard guard;
  private final List<Process> running = new CopyOnWriteArrayList<>();
  private final List<Path> merged = new ArrayList<>();
  /** The embedded server, once started: stopped by the last resort should Ctrl-C's stop hang. */
  private volatile AutoCloseable server;
  private Benchmark benchmark;

  public FleetCommand(Console console, Path home, ShutdownGuard guard) {
    this.console = console;
    this.home = home;
    this.guard = guard;
  }

  /** The fleet's runs, in order: each step's merged run (or the one client's run), for tests and callers. */
  public List<Path> runs() {
    return List.copyOf(merged);
  }

  public static void main(String[] args) {
    Console console = new Console(System.out);
    FleetCommand[] fleet = new FleetCommand[1];
    // Ctrl-C reaches the clients too (one process group); SIGTERM to this process alone is passed
    // on. Either way each client writes what it measured; the server stops once they are done.
    ShutdownGuard guard = new ShutdownGuard(() -> {
      console.line(ShutdownGuard.STOPPING);
      fleet[0].running.forEach(Process::destroy);
    }, () -> fleet[0].stopServer(), Duration.ofSeconds(60));
    fleet[0] = new FleetCommand(console, Path.of(System.getProperty("ybbench.home", ".")), guard);
    guard.runMain(() -> {
      try {
        return fleet[0].execute(args, System.err);
      } finally {
        guard.finished();
      }
    });
  }

  /** Parses and runs; returns the exit code. Errors are one line on {@code err}. */
  public int execute(String[] args, PrintStream err) {
    // The words after the fleet's own options are the benchmark's: parsed below by its own options.
    CommandLine cl = new CommandLine(this).setUnmatchedOptionsArePositionalParams(true);
    return CommandLines.execute(cl, args, err, Console::clean, () -> verbose);
  }

  /** One configuration as client 0's dry run planned it: its name (null: the benchmark's one), API and steps. */
  private record Planned(String name, Api api, List<FleetSteps.Step> steps) {}

  @Override
  public Integer call() throws Exception {
    String driven = String.join(", ", Benchmarks.all().stream().filter(b -> b.fleet() != null)
        .map(Benchmark::name).toList());
    if (benchmarkName == null) {
      throw new UserError("name the benchmark: --benchmark " + driven.replace(", ", "|"));
    }
    benchmark = Benchmarks.find(benchmarkName);
    if (benchmark == null || benchmark.fleet() == null) {
      throw new UserError("--benchmark " + benchmarkName + ": fleet.sh drives " + driven);
    }
    if (clients < 1) {
      throw new UserError("--clients " + clients + ": a fleet needs at least 1 client");
    }
    if (retryClients < 0) {
      throw new UserError("--retry-clients must be 0 or more, was " + retryClients);
    }
    FleetSteps fleetSteps = benchmark.fleet();
    List<String> configurations = new ArrayList<>();
    List<String> pass = new ArrayList<>();
    split(fleetSteps.configurations(), configurations, pass);
    if (fleetSteps.configurations() && configurations.isEmpty()) {
      throw new UserError("name a workload, e.g. run-scripts/fleet.sh --clients 4 workloada");
    }
    if (!fleetSteps.configurations()) {
      configurations.add(null); // the benchmark's words are all in pass
    }
    if (hosts != null && dbVersion != null) {
      throw new UserError("--db-version picks the embedded server's version; with --hosts the cluster's is used, so "
          + "leave one out");
    }
    Path results = resultsDir != null ? resultsDir : home.resolve("results");
    String fleetBase = "fleet-" + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern(
        "yyyyMMdd'T'HHmmss'Z'")) + "-" + ProcessHandle.current().pid();
    List<Planned> plans = new ArrayList<>();
    for (String c : configurations) {
      plans.add(plan(c, pass, fleetBase + "-" + (plans.size() + 1), plans.isEmpty()));
    }
    Api fleetApi = plans.get(0).api();
    for (Planned p : plans) {
      if (p.api() != fleetApi) {
        throw new UserError(p.name() + " is " + p.api().flag() + " and " + plans.get(0).name() + " is "
            + fleetApi.flag() + ": one server per call, so one API");
      }
    }
    if (fleetSteps.configurations()) {
      pass.addAll(List.of("--api", fleetApi.flag()));
    }
    if (dryRun) {
      for (int n = 0; n < plans.size(); n++) {
        Planned p = plans.get(n);
        for (FleetSteps.Step step : p.steps()) {
          List<String> each = clientArgs(p.name(), step, pass, hosts == null ? "<embedded server>" : hosts,
              fleetId(fleetBase, n, step), 0, results);
          console.line("[" + step.name() + "] " + describe(p) + ": " + (step.alone() ? "client 0 alone"
              : clientsWord() + " at once, each") + ": ./" + benchmark.script() + " "
              + ShellWords.join(RunInfo.redactCommand(each, UnaryOperator.identity()))
              .replace("--client-index 0", step.alone() ? "--client-index 0" : "--client-index I"));
        }
      }
      console.line("Dry run: nothing started");
      return 0;
    }
    Files.createDirectories(results);
    if (hosts != null) {
      return steps(plans, pass, hosts, fleetBase, results);
    }
    if (fleetApi == Api.YCQL) {
      try (EmbeddedCassandra server = EmbeddedCassandra.start(dbVersion, 1, console::line)) {
        this.server = server;
        console.line("Embedded server Cassandra " + server.version() + " on " + server.hostList() + ", for "
            + clientsWord());
        return steps(plans, pass, server.hostList(), fleetBase, results);
      }
    }
    // Each client's threads and its one connection for the server's view, with room to spare.
    try (EmbeddedPostgres server = EmbeddedPostgres.start(dbVersion, clients * 40 + 20, console::line)) {
      this.server = server;
      console.line("Embedded server PostgreSQL " + server.version() + " on " + server.hostPort() + ", for "
          + clientsWord());
      List<String> withUser = new ArrayList<>(pass);
      if (!pass.contains("--user")) {
        withUser.addAll(List.of("--user", server.user()));
      }
      return steps(plans, withUser, server.hostPort(), fleetBase, results);
    }
  }

  /** A step's clients share one fleet id: what their merge checks, and YCSB's table mark. */
  private static String fleetId(String base, int configuration, FleetSteps.Step step) {
    return base + "-" + (configuration + 1) + "-" + step.name();
  }

  private String describe(Planned p) {
    return p.name() != null ? p.name() : benchmark.name();
  }

  /**
   * The words after the fleet's options: configurations (where the benchmark takes them), and the
   * benchmark's options with their values (an option's value told from a configuration by the
   * benchmark's own option list).
   */
  private void split(boolean takesConfigurations, List<String> configurations, List<String> pass) {
    Map<String, OptionSpec> options = new CommandLine(benchmark.command()).getCommandSpec().optionsMap();
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (!w.startsWith("-") || w.equals("-")) {
        (takesConfigurations ? configurations : pass).add(w);
        continue;
      }
      String name = w.contains("=") ? w.substring(0, w.indexOf('=')) : w;
      if (OWN.contains(name)) {
        throw new UserError("fleet.sh sets " + name + " itself; give --clients N");
      }
      pass.add(w);
      OptionSpec option = options.get(name);
      if (option != null && option.arity().max() > 0 && !w.contains("=") && i + 1 < words.size()) {
        pass.add(words.get(++i));
      }
    }
  }

  /**
   * The configuration planned as its script plans it (its --dry-run, in this process), split into
   * steps by the benchmark; then each step's command as client 0 will run it, planned too, so
   * that what a client would refuse is refused here, in its one line, before anything starts.
   */
  private Planned plan(String configuration, List<String> pass, String fleet, boolean first) {
    List<String> args = new ArrayList<>();
    if (configuration != null) {
      args.add(configuration);
    }
    args.addAll(pass);
    args.addAll(List.of("--hosts", hosts != null ? hosts : "127.0.0.1", "--results-dir", "results", "--no-install"));
    if (api != null) {
      args.addAll(List.of("--api", api));
    }
    if (phase != null) {
      args.addAll(List.of("--phase", phase));
    }
    BenchmarkCommand planned = dryRun(configuration, args);
    FleetSteps fleetSteps = benchmark.fleet();
    String needsData = fleetSteps.needsData(planned);
    if (hosts == null && first && needsData != null) { // a later one may read what the first loads
      throw new UserError(needsData);
    }
    Api planApi = fleetSteps.api(planned);
    List<FleetSteps.Step> steps = fleetSteps.steps(planned, clients);
    List<String> each = new ArrayList<>(pass);
    if (fleetSteps.configurations()) {
      each.addAll(List.of("--api", planApi.flag()));
    }
    for (FleetSteps.Step step : steps) {
      List<String> client = clientArgs(configuration, step, each, hosts != null ? hosts : "127.0.0.1", fleet + "-"
          + step.name(), 0, Path.of("results"));
      if (history != null) {
        client.addAll(List.of("--history", history));
      }
      dryRun(configuration, client);
    }
    return new Planned(configuration, planApi, steps);
  }

  /** The benchmark's dry run of {@code args}: its command as parsed, or its refusal as this command's. */
  private BenchmarkCommand dryRun(String configuration, List<String> args) {
    try {
      return Runner.dryRun(benchmark, home, args).command();
    } catch (UserError e) {
      throw new UserError((configuration != null ? configuration + ": " : "") + e.getMessage());
    }
  }

  /** What client {@code index} is given for one step of one configuration. */
  private List<String> clientArgs(String configuration, FleetSteps.Step step, List<String> pass, String hosts,
      String fleet, int index, Path results) {
    List<String> args = new ArrayList<>();
    if (configuration != null) {
      args.add(configuration);
    }
    args.addAll(pass);
    args.addAll(List.of("--hosts", hosts));
    args.addAll(step.args().apply(index));
    args.addAll(List.of("--clients", Integer.toString(step.alone() ? 1 : clients), "--client-index",
        Integer.toString(index), "--fleet", fleet, "--results-dir", results.toString(), "--no-install"));
    return args;
  }

  /** Every step of every configuration, in order; the first that fails ends the fleet (what follows would read it). */
  private int steps(List<Planned> plans, List<String> pass, String target, String fleetBase, Path results)
      throws Exception {
    Path logs = Files.createTempDirectory("ybbench-fleet-");
    try {
      for (int n = 0; n < plans.size(); n++) {
        Planned p = plans.get(n);
        for (FleetSteps.Step step : p.steps()) {
          String fleet = fleetId(fleetBase, n, step);
          console.line("[" + step.name() + "] " + describe(p) + ": " + (step.alone() ? "client 0 alone"
              : clientsWord()) + " of fleet " + fleet + " against " + target + " …");
          int rc = step(p.name(), step, pass, target, fleet, results, logs);
          if (rc != 0) {
            return rc;
          }
        }
      }
      return 0;
    } finally {
      FileTrees.delete(logs);
    }
  }

  /**
   * The step's clients at once; then their runs, merged and audited where the step merges. Exit 1
   * when a client failed or a count differs, 130 after Ctrl-C.
   */
  private int step(String configuration, FleetSteps.Step step, List<String> pass, String target, String fleet,
      Path results, Path logs) throws Exception {
    if (guard.interrupted()) { // Ctrl-C while the server started or between steps: start no client
      console.line("Interrupted: no client of this step started; nothing merged");
      return RunLifecycle.EXIT_INTERRUPTED;
    }
    int count = step.alone() ? 1 : clients;
    String name = step.name();
    List<Process> started = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      started.add(start(clientArgs(configuration, step, pass, target, fleet, i, results), logs, name, i));
    }
    boolean failed = false;
    List<Path> dirs = new ArrayList<>();
    List<String> resumes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int rc = started.get(i).waitFor();
      running.remove(started.get(i));
      Path dir = runOf(results, fleet, i);
      // A client that died in a step its benchmark can resume is resumed, up to --retry-clients times.
      for (int retry = 1; rc != 0 && !guard.interrupted() && dir != null && retry <= retryClients
          && benchmark.fleet().resume(step, dir) != null; retry++) {
        console.line("[" + name + "] client " + i + " of " + count + " died (exit " + rc + "), " + dir + ": resuming it ("
            + retry + " of " + retryClients + ")");
        List<String> args = clientArgs(configuration, step, pass, target, fleet, i, results);
        args.addAll(benchmark.fleet().resume(step, dir));
        Process again = start(args, logs, name, i);
        rc = again.waitFor();
        running.remove(again);
        dir = runOf(results, fleet, i);
      }
      if (rc == 0 && dir == null) {
        console.line("error: client " + i + " of " + count + " ended its " + name + " phase but left no run "
            + "directory of fleet " + fleet + " in " + results);
        failed = true;
      } else if (rc != 0 && !guard.interrupted()) {
        console.line("error: client " + i + " of " + count + " failed its " + name + " phase (exit " + rc + ")"
            + (dir == null ? "" : ", " + dir) + "; the end of its log:");
        List<String> log = Files.readAllLines(logs.resolve(name + "-" + i + ".log"));
        log.subList(Math.max(0, log.size() - LOG_TAIL), log.size()).forEach(console::line);
        failed = true;
        List<String> resume = dir == null ? null : benchmark.fleet().resume(step, dir);
        if (resume != null) {
          List<String> args = clientArgs(configuration, step, pass, target, fleet, i, results);
          args.addAll(resume);
          resumes.add("./" + benchmark.script() + " " + ShellWords.join(RunInfo.redactCommand(args,
              UnaryOperator.identity())));
        }
      }
      dirs.add(dir);
    }
    if (!resumes.isEmpty() && !guard.interrupted()) {
      // What recovers the step by hand: each dead client resumed, then the step's runs merged.
      console.line("To recover this step, resume " + (resumes.size() == 1 ? "the client" : "each client") + " (or run "
          + "fleet.sh with --retry-clients 1):");
      resumes.forEach(r -> console.line("  " + r));
      if (step.merged() && count > 1) {
        console.line("then merge every client's run, each resumed one in place of the run it resumes:");
        console.line("  ./" + benchmark.script() + " --merge " + ShellWords.join(dirs.stream().map(d -> d == null
            ? "RUN_DIR" : d.toString()).toList()) + " --results-dir " + ShellWords.quote(results.toString()));
      }
    }
    if (guard.interrupted()) {
      console.line("Interrupted: each client kept what it measured; nothing merged");
      return RunLifecycle.EXIT_INTERRUPTED;
    }
    if (failed) {
      return RunLifecycle.EXIT_FAILED;
    }
    if (!step.merged() || count == 1) {
      dirs.forEach(d -> console.line("[" + name + "] run: " + d)); // each run stands for itself
      if (!step.merged()) {
        return 0;
      }
    }
    Path dir;
    BenchmarkCommand command = benchmark.command();
    if (count == 1) {
      dir = dirs.get(0); // one client's run is the step's run: nothing to merge
    } else {
      dir = RunMerge.run(count, (warn, stop) -> command.merge(dirs, results, false, warn, stop), console::line,
          guard::interrupted);
      if (dir == null) {
        return RunLifecycle.EXIT_INTERRUPTED;
      }
    }
    merged.add(dir);
    int rc = command.audit(dir, console::line) ? 0 : 1;
    return RunHistory.find().record(history, dir, rc, console::line);
  }

  /** Starts a client of the step, its output in the step's log for that client. */
  private Process start(List<String> args, Path logs, String step, int index) throws IOException {
    Process process = new ProcessBuilder(Runner.inNewJvm(home, benchmark, args)).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(step + "-" + index + ".log").toFile())).start();
    running.add(process);
    return process;
  }

  private String clientsWord() {
    return clients + (clients == 1 ? " client" : " clients");
  }

  private void stopServer() {
    try {
      if (server != null) {
        server.close();
      }
    } catch (Exception e) {
      console.line("warning: the embedded server did not stop: " + e.getMessage());
    }
  }

  /**
   * The run directory client {@code index} of the fleet made, read from the runs' run.json; the
   * latest where it was resumed (the resume names the run it continues); null if none.
   */
  public static Path runOf(Path results, String fleet, int index) throws IOException {
    Path found = null;
    String latest = "";
    try (Stream<Path> dirs = Files.list(results)) {
      for (Path d : dirs.filter(Files::isDirectory).sorted().toList()) {
        Path runJson = d.resolve("run.json");
        if (!Files.isRegularFile(runJson)) {
          continue;
        }
        JsonNode run = RunDirectory.JSON.readTree(runJson.toFile());
        String started = run.path("started").asText("");
        if (fleet.equals(run.at("/fleet/id").asText()) && run.at("/fleet/index").asInt(-1) == index
            && (found == null || started.compareTo(latest) > 0)) {
          found = d;
          latest = started;
        }
      }
    }
    return found;
  }
}
