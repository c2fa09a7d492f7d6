package dev.ybbench.ycsb;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.FileTrees;
import dev.ybbench.harness.ServerTarget.Api;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.cli.ClassArchive;
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
import dev.ybbench.ycsb.cli.Phase;
import dev.ybbench.ycsb.cli.YcsbSettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
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
 * {@code run-scripts/fleet.sh --clients N WORKLOAD… [run_ycsb.sh options]}: N run_ycsb.sh
 * processes at once against one server, as many client machines would drive one cluster. Each
 * workload is planned here first, as run_ycsb.sh plans it, so bad input is refused before anything
 * starts; every client's load ends before any client's run phase begins; each client's run is
 * found by its run.json, and the runs are merged and audited in this process (docs/fleet.md).
 */
@Command(name = "fleet.sh", sortOptions = false, usageHelpAutoWidth = true,
    description = {
        "Runs N run_ycsb.sh clients at once against one server (--hosts, or one embedded server started here "
            + "for them all), then merges their runs into one and audits it against the server's own counts. "
            + "Several workloads run one after the other against the same server, so a workload that reads what "
            + "another loaded runs after it. Every other option is run_ycsb.sh's, given to each client "
            + "(./run_ycsb.sh --help).",
        ""},
    footer = {"",
        "Examples:",
        "  run-scripts/fleet.sh --clients 4 workloada --records 100000 --threads 4",
        "  run-scripts/fleet.sh --clients 4 sqlinserts sqlinserts-read",
        "  run-scripts/fleet.sh --clients 2 workloada --hosts 10.0.0.1,10.0.0.2 --dry-run"})
public final class FleetCommand implements Callable<Integer> {
  @Option(names = "--clients", paramLabel = "N", required = true,
      description = "client processes, each loading its slice of the keys and running the mix")
  int clients;

  @Option(names = "--hosts", paramLabel = "H[,H…]", description = "the cluster's nodes (default: one embedded "
      + "PostgreSQL, or Cassandra with --api ycql, started here for every client)")
  String hosts;

  @Option(names = "--api", paramLabel = "ysql|ycql", description = "overrides each workload's ybbench.api")
  String api;

  @Option(names = "--phase", paramLabel = "load|run|both", description = "overrides each workload's ybbench.phase")
  String phase;

  @Option(names = "--db-version", paramLabel = "V", description = "the embedded server's version (no --hosts)")
  String dbVersion;

  @Option(names = "--results-dir", paramLabel = "DIR", description = "where the clients' and the merged runs go "
      + "(default: results/)")
  Path resultsDir;

  @Option(names = "--history", paramLabel = "FILE|URL", description = "record the fleet's run (the merge of its "
      + "clients' runs, not each client's part) into a history of runs")
  String history;

  @Option(names = "--dry-run", description = "plan every workload and print each client's command; start nothing")
  boolean dryRun;

  @Option(names = "--verbose", description = "stack traces on errors")
  boolean verbose;

  /** Read by the scripts (run-scripts/common.sh), which install gnuplot before the JVM starts. */
  @Option(names = "--no-install", description = "do not install gnuplot for the charts when it is missing")
  boolean noInstall;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  /** The workloads, in order, and run_ycsb.sh's options, which every client gets. */
  @Parameters(paramLabel = "WORKLOAD… [run_ycsb.sh options]")
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

  public FleetCommand(Console console, Path home, ShutdownGuard guard) {
    this.console = console;
    this.home = home;
    this.guard = guard;
  }

  /** The fleet's runs, in order: each merged run (or the one client's run), for tests and callers. */
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
    // The words after the fleet's own options are run_ycsb.sh's: parsed below by its own options.
    CommandLine cl = new CommandLine(this).setUnmatchedOptionsArePositionalParams(true);
    return CommandLines.execute(cl, args, err, Console::clean, () -> verbose);
  }

  /** One workload as run_ycsb.sh settled it. */
  private record Planned(String workload, Api api, List<String> phases) {}

  @Override
  public Integer call() throws Exception {
    if (clients < 1) {
      throw new UserError("--clients " + clients + ": a fleet needs at least 1 client");
    }
    List<String> workloads = new ArrayList<>();
    List<String> pass = new ArrayList<>();
    split(workloads, pass);
    if (workloads.isEmpty()) {
      throw new UserError("name a workload, e.g. run-scripts/fleet.sh --clients 4 workloada");
    }
    Path results = resultsDir != null ? resultsDir : home.resolve("results");
    String fleetBase = "fleet-" + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern(
        "yyyyMMdd'T'HHmmss'Z'")) + "-" + ProcessHandle.current().pid();
    List<Planned> plans = new ArrayList<>();
    for (String w : workloads) {
      plans.add(plan(w, pass, fleetBase + "-" + (plans.size() + 1)));
    }
    Api fleetApi = plans.get(0).api();
    for (Planned p : plans) {
      if (p.api() != fleetApi) {
        throw new UserError(p.workload() + " is " + p.api().flag() + " and " + plans.get(0).workload() + " is "
            + fleetApi.flag() + ": one server per call, so one API");
      }
    }
    pass.addAll(List.of("--api", fleetApi.flag()));
    if (hosts == null && plans.get(0).phases().equals(List.of("run"))) {
      throw new UserError(plans.get(0).workload() + " runs over a table loaded earlier (phase run), and an "
          + "embedded server started here would be empty: name the workload that loads it first (e.g. sqlinserts "
          + "sqlinserts-read) or give --hosts");
    }
    if (hosts != null && dbVersion != null) {
      throw new UserError("--db-version picks the embedded server's version; with --hosts the cluster's is used, so "
          + "leave one out");
    }
    if (dryRun) {
      for (int n = 0; n < plans.size(); n++) {
        Planned p = plans.get(n);
        for (String ph : p.phases()) {
          List<String> each = clientArgs(p.workload(), ph, pass, hosts == null ? "<embedded server>" : hosts,
              fleetBase + "-" + (n + 1), 0, results);
          console.line("[" + ph + "] " + p.workload() + ": " + clientsWord() + " at once, each: ./run_ycsb.sh "
              + ShellWords.join(RunInfo.redactCommand(each, UnaryOperator.identity()))
              .replace("--client-index 0", "--client-index I"));
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

  /**
   * The words after the fleet's options: workloads, and run_ycsb.sh's options with their values
   * (an option's value is told from a workload by run_ycsb.sh's own option list).
   */
  private void split(List<String> workloads, List<String> pass) {
    Map<String, OptionSpec> runYcsb = new CommandLine(new YcsbCommand()).getCommandSpec().optionsMap();
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (!w.startsWith("-") || w.equals("-")) {
        workloads.add(w);
        continue;
      }
      String name = w.contains("=") ? w.substring(0, w.indexOf('=')) : w;
      if (OWN.contains(name)) {
        throw new UserError("fleet.sh sets " + name + " itself; give --clients N");
      }
      pass.add(w);
      OptionSpec option = runYcsb.get(name);
      if (option != null && option.arity().max() > 0 && !w.contains("=") && i + 1 < words.size()) {
        pass.add(words.get(++i));
      }
    }
  }

  /**
   * The workload planned as client 0 of the fleet would plan it (run_ycsb.sh --dry-run, in this
   * process): its API and phases, or its one-line refusal.
   */
  private Planned plan(String workload, List<String> pass, String fleet) {
    List<String> args = clientArgs(workload, null, pass, hosts != null ? hosts : "127.0.0.1", fleet, 0,
        Path.of("results"));
    if (api != null) {
      args.addAll(List.of("--api", api));
    }
    if (phase != null) {
      args.addAll(List.of("--phase", phase));
    }
    if (history != null) {
      args.addAll(List.of("--history", history));
    }
    args.add("--dry-run");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Runner planner = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), home);
    if (planner.execute(args.toArray(String[]::new), new PrintStream(err, true, StandardCharsets.UTF_8)) != 0) {
      String said = err.toString(StandardCharsets.UTF_8).strip().replaceFirst("^error: ", "");
      throw new UserError(workload + ": " + (said.isEmpty() ? "refused by run_ycsb.sh" : said));
    }
    YcsbSettings s = ((YcsbCommand) planner.command()).settings();
    if (s.phase() == Phase.CREATE) {
      throw new UserError("--phase create makes the table alone: run ./run_ycsb.sh " + workload + " --phase create, "
          + "then the fleet's load");
    }
    return new Planned(workload, s.api(), s.phase() == Phase.BOTH ? List.of("load", "run")
        : List.of(s.phase().toString()));
  }

  /** What client {@code index} is given: run_ycsb.sh's arguments for one phase of one workload. */
  private List<String> clientArgs(String workload, String phase, List<String> pass, String hosts, String fleet,
      int index, Path results) {
    List<String> args = new ArrayList<>(List.of(workload));
    args.addAll(pass);
    args.addAll(List.of("--hosts", hosts));
    if (phase != null) {
      args.addAll(List.of("--phase", phase));
    }
    args.addAll(List.of("--clients", Integer.toString(clients), "--client-index", Integer.toString(index), "--fleet",
        fleet, "--results-dir", results.toString(), "--no-install"));
    return args;
  }

  /** Every phase of every workload, in order; the first that fails ends the fleet (what follows would read it). */
  private int steps(List<Planned> plans, List<String> pass, String target, String fleetBase, Path results)
      throws Exception {
    Path logs = Files.createTempDirectory("ybbench-fleet-");
    try {
      for (int n = 0; n < plans.size(); n++) {
        Planned p = plans.get(n);
        // Each workload's table is its own fleet's: clients waiting for it must not take the one before.
        String fleet = fleetBase + "-" + (n + 1);
        for (String ph : p.phases()) {
          console.line("[" + ph + "] " + p.workload() + ": " + clientsWord() + " of fleet " + fleet + " against "
              + target + " …");
          int rc = step(p.workload(), ph, pass, target, fleet, results, logs);
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
   * Every client runs {@code phase} of the workload at once; then their runs are merged and
   * audited. Exit 1 when a client failed or a count differs, 130 after Ctrl-C.
   */
  private int step(String workload, String phase, List<String> pass, String target, String fleet, Path results,
      Path logs) throws Exception {
    if (guard.interrupted()) { // Ctrl-C while the server started or between phases: start no client
      console.line("Interrupted: no client of this phase started; nothing merged");
      return RunLifecycle.EXIT_INTERRUPTED;
    }
    List<Process> started = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      List<String> args = clientArgs(workload, phase, pass, target, fleet, i, results);
      Process process = new ProcessBuilder(clientCommand(args)).redirectErrorStream(true)
          .redirectOutput(logs.resolve(phase + "-" + i + ".log").toFile()).start();
      started.add(process);
      running.add(process);
    }
    boolean failed = false;
    List<Path> dirs = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      int rc = started.get(i).waitFor();
      running.remove(started.get(i));
      Path dir = runOf(results, fleet, i, phase);
      if (rc == 0 && dir == null) {
        console.line("error: client " + i + " of " + clients + " ended its " + phase + " phase but left no run "
            + "directory of fleet " + fleet + " in " + results);
        failed = true;
      } else if (rc != 0 && !guard.interrupted()) {
        console.line("error: client " + i + " of " + clients + " failed its " + phase + " phase (exit " + rc + ")"
            + (dir == null ? "" : ", " + dir) + "; the end of its log:");
        List<String> log = Files.readAllLines(logs.resolve(phase + "-" + i + ".log"));
        log.subList(Math.max(0, log.size() - LOG_TAIL), log.size()).forEach(console::line);
        failed = true;
      }
      dirs.add(dir);
    }
    if (guard.interrupted()) {
      console.line("Interrupted: each client kept what it measured; nothing merged");
      return RunLifecycle.EXIT_INTERRUPTED;
    }
    if (failed) {
      return RunLifecycle.EXIT_FAILED;
    }
    Path dir;
    if (clients == 1) {
      dir = dirs.get(0); // one client's run is the fleet's run: nothing to merge
      console.line("[" + phase + "] run: " + dir);
    } else {
      dir = RunMerge.run(clients, (warn, stop) -> YcsbMerge.merge(dirs, results, false, warn, stop), console::line,
          guard::interrupted);
      if (dir == null) {
        return RunLifecycle.EXIT_INTERRUPTED;
      }
    }
    merged.add(dir);
    int rc = YcsbMerge.audit(dir, console::line) ? 0 : 1;
    return RunHistory.find().record(history, dir, rc, console::line);
  }

  /**
   * A client: run_ycsb.sh's main on this JVM's class path, with this JVM's options (the client
   * JVM's defaults or YBBENCH_JAVA_OPTS, the class-data archive), as run_ycsb.sh of this build
   * would start it. A client records no class-data archive (a completed run_ycsb.sh run does).
   */
  private List<String> clientCommand(List<String> args) {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!option.startsWith("-D" + ClassArchive.PROPERTY + "=") && !option.equals("-XX:+RecordDynamicDumpInfo")
          && !option.startsWith("-agentlib:jdwp") && !option.startsWith("-Dybbench.home=")) {
        cmd.add(option);
      }
    }
    cmd.addAll(List.of("-Dybbench.home=" + home, "-cp", System.getProperty("java.class.path"),
        Runner.class.getName(), Ycsb.NAME));
    cmd.addAll(args);
    return cmd;
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

  /** The run directory a client of the fleet made for this phase, read from the runs' run.json; null if none. */
  static Path runOf(Path results, String fleet, int index, String phase) throws IOException {
    try (Stream<Path> dirs = Files.list(results)) {
      for (Path d : dirs.filter(Files::isDirectory).sorted().toList()) {
        Path runJson = d.resolve("run.json");
        if (!Files.isRegularFile(runJson)) {
          continue;
        }
        JsonNode run = RunDirectory.JSON.readTree(runJson.toFile());
        if (fleet.equals(run.at("/fleet/id").asText()) && run.at("/fleet/index").asInt(-1) == index
            && phase.equals(run.at("/parameters/ybbench.phase").asText())) {
          return d;
        }
      }
    }
    return null;
  }
}
