package dev.ybbench.harness.benchmark;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.ClassArchive;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.run.RunHistory;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.run.RunOptions;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * The one runner under every benchmark's script ({@code ./run_ycsb.sh}, {@code ./run_tpcc.sh} …)
 * and {@code ./ybbench BENCHMARK}: the command line (another tool's translated first), a merge of
 * clients' runs, a dry run, or a run in the {@link RunLifecycle}; then the history and the exit
 * code. What a benchmark does is its {@link BenchmarkCommand}'s; the order of things and what they
 * print are the same for all.
 */
public final class Runner implements Callable<Integer> {
  private final Benchmark benchmark;
  private final BenchmarkCommand command;
  private final Path home;
  private final RunLifecycle lifecycle;
  private List<String> args = List.of();
  /** The command line as run.json records it. */
  private List<String> recorded = List.of();
  /** A merge's or another action's run directory (a run's is the lifecycle's). */
  private Path written;
  /** The outline a dry run printed, or null. */
  private Outline planned;

  public Runner(Benchmark benchmark, Console console, Path home) {
    this.benchmark = benchmark;
    this.command = benchmark.command();
    this.home = home;
    this.lifecycle = new RunLifecycle(console);
  }

  /**
   * {@code java … Runner BENCHMARK [options]}: the benchmark named first, from the registry; the
   * name its usage gives comes with {@code -Dybbench.script} (./ybbench's "ybbench ycsb"). For
   * scripts, a line each: {@code --list} prints every benchmark's name, {@code --packages} the Debian
   * packages they run, {@code --archive-run NAME} the arguments of its class-data archive's run.
   */
  public static void main(String[] args) {
    Path home = Path.of(System.getProperty("ybbench.home", "."));
    if (args.length == 1 && args[0].equals("--list")) {
      Benchmarks.all().forEach(b -> System.out.println(b.name()));
      return;
    }
    if (args.length == 1 && args[0].equals("--packages")) {
      Benchmarks.all().stream().flatMap(b -> b.packages().stream()).distinct().forEach(System.out::println);
      return;
    }
    if (args.length == 2 && args[0].equals("--archive-run") && Benchmarks.find(args[1]) != null) {
      Benchmarks.find(args[1]).archiveRun(home).forEach(System.out::println);
      return;
    }
    Benchmark b = args.length == 0 ? null : Benchmarks.find(args[0]);
    if (b == null) {
      System.exit(Benchmarks.usage(args.length == 0 ? null : args[0], System.out, System.err));
    }
    Runner runner = new Runner(b, new Console(System.out), home);
    String[] rest = List.of(args).subList(1, args.length).toArray(String[]::new);
    runner.lifecycle.main(() -> runner.execute(rest, System.err));
  }

  /**
   * Translates, parses and runs; returns the exit code. Errors are one line on {@code err}: exit
   * 2 for bad input, before anything starts.
   */
  public int execute(String[] given, PrintStream err) {
    try {
      try {
        BenchmarkCommand.Translation t = command.translate(List.of(given), lifecycle.console()::line);
        args = t.args();
        recorded = t.recorded();
      } catch (UserError e) {
        err.println("error: " + Console.clean(e.getMessage()));
        return RunLifecycle.EXIT_BAD_INPUT;
      }
      CommandLine cl = new CommandLine(command);
      cl.setCommandName(System.getProperty("ybbench.script", benchmark.script()));
      // picocli parses into the benchmark's command; what runs is this runner.
      cl.setExecutionStrategy(parsed -> {
        Integer help = CommandLine.executeHelpRequest(parsed);
        if (help != null) {
          return help;
        }
        try {
          return call();
        } catch (Exception e) {
          throw new CommandLine.ExecutionException(cl, String.valueOf(e.getMessage()), e);
        }
      });
      return CommandLines.execute(cl, args.toArray(String[]::new), err, Console::clean,
          () -> command.output().verbose);
    } finally {
      lifecycle.finished();
    }
  }

  /** The benchmark's command, as parsed (for tests and callers that read its settings). */
  public BenchmarkCommand command() {
    return command;
  }

  /** The run directory of the last run, merge or other action; null when none was written. */
  public Path runDirectory() {
    return written != null ? written : lifecycle.runDirectory();
  }

  /**
   * What a dry run of {@code args} printed, its outline and its command as parsed, for a caller
   * that plans runs of its own (regress.sh's rounds, fleet.sh's clients).
   */
  public record DryRun(List<String> lines, Outline outline, BenchmarkCommand command) {}

  /**
   * {@code benchmark}'s dry run of {@code args}, in this process, printing nothing.
   *
   * @throws UserError the benchmark's refusal, its one line without "error: "
   */
  public static DryRun dryRun(Benchmark benchmark, Path home, List<String> args) {
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    java.io.ByteArrayOutputStream refused = new java.io.ByteArrayOutputStream();
    Runner r = new Runner(benchmark, new Console(new PrintStream(printed, true, StandardCharsets.UTF_8)), home);
    List<String> dry = new java.util.ArrayList<>(args);
    dry.add("--dry-run");
    if (r.execute(dry.toArray(String[]::new), new PrintStream(refused, true, StandardCharsets.UTF_8)) != 0
        || r.planned == null) {
      String said = refused.toString(StandardCharsets.UTF_8).strip().replaceFirst("^error: ", "");
      throw new UserError(said.isEmpty() ? "refused by " + benchmark.script() : said);
    }
    return new DryRun(printed.toString(StandardCharsets.UTF_8).lines().toList(), r.planned, r.command);
  }

  /**
   * The command that runs {@code benchmark} with {@code args} in a JVM of its own: this runner on
   * this JVM's class path, with this JVM's options (the script's defaults or YBBENCH_JAVA_OPTS),
   * as its script of this build would start it, for fleet.sh's clients and a confirmation's runs
   * again. It records no class-data archive (a completed script's run does).
   */
  public static List<String> inNewJvm(Path home, Benchmark benchmark, List<String> args) {
    List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString()));
    for (String option : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (!option.startsWith("-D" + ClassArchive.PROPERTY + "=") && !option.equals("-XX:+RecordDynamicDumpInfo")
          && !option.startsWith("-agentlib:jdwp") && !option.startsWith("-Dybbench.home=")) {
        cmd.add(option);
      }
    }
    cmd.addAll(List.of("-Dybbench.home=" + home, "-cp", System.getProperty("java.class.path"),
        Runner.class.getName(), benchmark.name()));
    cmd.addAll(args);
    return cmd;
  }

  /** The names every benchmark's own flags must leave alone, for a translation that keeps them. */
  public static java.util.Set<String> flags(BenchmarkCommand command) {
    java.util.Set<String> names = new java.util.HashSet<>();
    new CommandLine(command).getCommandSpec().options().forEach(o -> names.addAll(List.of(o.names())));
    return names;
  }

  @Override
  public Integer call() throws Exception {
    int exit = runMergeOrOther();
    RunOptions out = command.output();
    exit = RunHistory.find().record(out.history, runDirectory(), exit, lifecycle.console()::line);
    if (out.confirm != null && exit == RunLifecycle.EXIT_COMPLETE && !out.dryRun && runDirectory() != null) {
      // The run is one night's candidate: judged against its history, and run again while undecided.
      exit = RunHistory.find().confirm(out.history, runDirectory(), out.confirm, home, lifecycle.console()::line);
    }
    return exit;
  }

  private int runMergeOrOther() throws Exception {
    RunOptions out = command.output();
    MergeOptions merging = command.merging();
    Console console = lifecycle.console();
    if (merging.merge != null) {
      command.checkMerge();
      if (out.confirm != null) {
        throw new UserError("--confirm runs a run again; a merge cannot be: judge the merged run with compare.sh "
            + "--history, and its clients' runs again with fleet.sh");
      }
      if (out.dryRun) {
        throw new UserError("--dry-run plans a run; --merge runs nothing to plan: leave --dry-run out");
      }
      written = RunMerge.run(merging.merge.size(), (warn, stop) -> command.merge(merging.merge,
          out.resultsRoot(home), merging.includeIncomplete, warn, stop), console::line, lifecycle::interrupted);
      if (written == null) {
        return RunLifecycle.EXIT_INTERRUPTED;
      }
      return command.audit(written, console::line) ? RunLifecycle.EXIT_COMPLETE : RunLifecycle.EXIT_FAILED;
    }
    if (merging.includeIncomplete) {
      throw new UserError("--include-incomplete goes with --merge RUN_DIR…; leave it out of a run");
    }
    Context context = new Context(home, console, recorded, lifecycle::onStop, lifecycle::interrupted);
    BenchmarkCommand.Outcome other = command.instead(context);
    if (other != null) {
      written = other.runDirectory();
      planned = other.planned();
      return other.exitCode();
    }
    Plan plan = command.plan(context);
    RunDirectory.checkWritable(plan.output().resultsRoot(home), !out.dryRun);
    plan.output().limits(); // what the run refuses before it starts, refused by the dry run too
    if (out.dryRun) {
      planned = plan.outline();
      console.line("Plan (nothing started):");
      planned.lines(plan.output(), benchmark.script(), args).forEach(l -> console.line("  " + l));
      plan.settings().forEach((k, v) -> console.line("  " + k + ": " + v));
      return RunLifecycle.EXIT_COMPLETE;
    }
    plan.prepare(console::line);
    RunLifecycle.Spec spec = new RunLifecycle.Spec(benchmark.name(), plan.workload(), plan.output(), home,
        plan::parameters, plan.extra(), recorded);
    return lifecycle.run(spec, () -> plan.open(console::line), plan::run);
  }
}
