package dev.ybbench.analysis.regress;

import dev.ybbench.analysis.Compare;
import dev.ybbench.analysis.compare.ComparisonOptions;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Benchmark;
import dev.ybbench.harness.benchmark.Benchmarks;
import dev.ybbench.harness.benchmark.Outline;
import dev.ybbench.harness.benchmark.Runner.DryRun;
import dev.ybbench.harness.benchmark.Suite;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.cli.ShutdownGuard;
import dev.ybbench.harness.results.Console;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code run-scripts/regress.sh}: a suite of benchmarks against a baseline and a candidate in
 * interleaved rounds, each round running every workload once on each side in a random order
 * (randomized multiple interleaved trials, Abedi &amp; Brecht, ICPE 2017), so that drift on a noisy
 * machine hits both sides alike and the comparison can pair them by round; then {@link Compare}.
 * With --until-decided, after the first rounds it looks after every round and stops once every
 * headline is decided or the budget is spent, the looks accounted for (compare's --looks).
 * --bisect searches a list of builds step by step ({@link Bisection}), each step decided the same
 * way; every run is a process of its own ({@link BenchmarkProcess}).
 */
@Command(name = "regress.sh", sortOptions = false, usageHelpAutoWidth = true,
    description = {"Runs a suite against a baseline and a candidate in interleaved rounds (every workload once on "
        + "each side per round, the sides in a random order), then compares them with compare.sh.",
        Regress.SUITES,
        "Sides, one pair of: --baseline-version/--candidate-version (embedded servers: PostgreSQL 11-18, "
            + "Cassandra 4.1/5.0), --baseline-hosts/--candidate-hosts (two YugabyteDB clusters), "
            + "--baseline-label/--candidate-label (runs already in results/: nothing is run).",
        "--bisect --versions V1,…,Vn: the first build whose headline regresses against the last good one, each "
            + "step decided in interleaved rounds; exit 1 when one is found, 0 when the last is no slower than the "
            + "first, 3 when a step stays undecided.",
        "Exit code: compare.sh's (0 every headline decided and none a regression, 1 regression, 2 could not "
            + "compare, 3 a headline undecided); with --until-decided a budget spent before every headline was "
            + "decided is said, and is exit 3 unless --undecided says otherwise.", ""},
    footer = {"", "Examples:",
        "  run-scripts/regress.sh --suite " + Regress.SUITE + " \\",
        "      --baseline-version 16 --candidate-version 17 --repeat 3",
        "  run-scripts/regress.sh --suite " + Regress.SUITE + " \\",
        "      --baseline-hosts a1,a2,a3 --candidate-hosts b1,b2,b3 \\",
        "      --until-decided --budget 1h --reuse-data",
        "  run-scripts/regress.sh --suite " + Regress.SUITE + " --workloads " + Regress.WORKLOAD + " \\",
        "      --bisect --versions 13,14,15,16,17",
        "  run-scripts/regress.sh --suite " + Regress.SUITE + " --bisect \\",
        "      --versions-file builds.txt --deploy-cmd 'deploy-cluster.sh {version}'"})
public final class Regress implements Callable<Integer> {
  @Option(names = "--suite", paramLabel = "SUITE", description = "the suite to run (Suites, above)")
  String suiteName;

  @Option(names = "--repeat", paramLabel = "N", defaultValue = "3", description = "rounds (default: "
      + "${DEFAULT-VALUE}); with --until-decided, the rounds before the first look")
  int repeat;

  @Option(names = "--until-decided", description = "after --repeat rounds, compare after every round and stop once "
      + "every headline verdict is decided or the budget is spent (repeated looks are accounted for)")
  boolean untilDecided;

  @Option(names = "--budget", paramLabel = "T", defaultValue = "20m", description = "machine time for "
      + "--until-decided, e.g. 20m, 1h, 900s (default: ${DEFAULT-VALUE})")
  String budget;

  @Option(names = "--workloads", paramLabel = "LIST", description = "only these of the suite's workloads or tests, "
      + "one or several separated by commas (the suite may take others it can run, e.g. another workload file)")
  String workloads;

  @Option(names = "--bisect", description = "find the first of --versions (or --versions-file) whose headline "
      + "regresses against the last good one: the first and last are compared, then the middle of the range "
      + "still open against its last good version, each step decided in interleaved rounds until decided "
      + "within --budget (the looks accounted for)")
  boolean bisect;

  @Option(names = "--versions", paramLabel = "V1,V2,…", description = "with --bisect: the builds in release order, "
      + "embedded server versions (e.g. 13,14,15,16,17), or what --deploy-cmd deploys")
  String versions;

  @Option(names = "--versions-file", paramLabel = "FILE", description = "with --bisect: one build a line in release "
      + "order, each with more flags for its runs after it (e.g. '16 --db-setting enable_indexscan=off'); "
      + "# starts a comment")
  Path versionsFile;

  @Option(names = "--deploy-cmd", paramLabel = "CMD", description = "with --bisect: a shell command that deploys a "
      + "cluster of build {version} (or finds one) and prints its hosts (host[:port],…) on its last line; run once "
      + "per build the bisection needs. Without it the builds are embedded server versions")
  String deployCmd;

  @Option(names = "--baseline-version", paramLabel = "V", description = "the baseline's embedded server version")
  String baseVersion;

  @Option(names = "--candidate-version", paramLabel = "V", description = "the candidate's embedded server version")
  String candVersion;

  @Option(names = "--baseline-hosts", paramLabel = "H", description = "the baseline cluster (host[:port],…)")
  String baseHosts;

  @Option(names = "--candidate-hosts", paramLabel = "H", description = "the candidate cluster (host[:port],…)")
  String candHosts;

  @Option(names = "--baseline-label", paramLabel = "L", description = "runs already in results/ under this label")
  String baseLabel;

  @Option(names = "--candidate-label", paramLabel = "L", description = "runs already in results/ under this label")
  String candLabel;

  @Option(names = "--baseline-args", paramLabel = "ARGS", defaultValue = "", description = "more flags for the "
      + "baseline's runs (split on spaces)")
  String baseArgs;

  @Option(names = "--candidate-args", paramLabel = "ARGS", defaultValue = "", description = "more flags for the "
      + "candidate's runs, e.g. \"--target 5000\" to throttle it")
  String candArgs;

  @Option(names = "--seed", paramLabel = "N", description = "the random order of sides per round, repeatable "
      + "(default: random)")
  Long seed;

  @Option(names = "--duration", paramLabel = "S", description = "seconds per run (default: the suite's)")
  Integer duration;

  @Option(names = "--records", paramLabel = "N", defaultValue = "20000", description = "the size of the data each "
      + "run loads, as the suite counts it (records, or rows over its tables) (default: ${DEFAULT-VALUE})")
  long records;

  @Option(names = "--reuse-data", description = "with hosts: load once per side, then only run (embedded servers "
      + "start empty)")
  boolean reuseData;

  @Option(names = "--dry-run", description = "print both sides' plan of every run of the suite (what each "
      + "touches and for how long) and the suite's time, and start nothing")
  boolean dryRun;

  @Mixin
  ComparisonOptions cmp = new ComparisonOptions();

  /** Read by the scripts too (run-scripts/common.sh), which install gnuplot before the JVM starts. */
  @Option(names = "--no-install", description = "do not install gnuplot for the charts when it is missing (passed "
      + "on to every run and the comparison)")
  boolean noInstall;

  @Option(names = "--verbose", description = "stack traces on errors")
  boolean verbose;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  /** Runs one benchmark command line; its exit code and its output's last lines. */
  public interface Runner {
    Outcome run(List<String> command) throws IOException, InterruptedException;
  }

  public record Outcome(int exitCode, List<String> lastLines) {}

  /** compare.sh with these arguments; its exit code. */
  public interface Comparer {
    int compare(List<String> args);
  }

  private final Console console;
  private final Path home;
  private Runner runner = BenchmarkProcess::run;
  private LongSupplier clock = System::nanoTime;
  private PrintStream err = System.err;
  private Comparer comparer;

  public Regress(Console console, Path home) {
    this.console = console;
    this.home = home;
    this.comparer = args -> {
      Compare c = new Compare(console, home);
      int rc = c.execute(args.toArray(String[]::new), err);
      lastAnswer = c.answer();
      return rc;
    };
  }

  /** The verdict lines of the last comparison made (none before one, or with a test's comparer). */
  private List<String> lastAnswer = List.of();
  /** Runs started so far, for what a bisection cost. */
  private int runsStarted;

  /**
   * For tests: run the benchmarks with {@code runner} (e.g. in this JVM) and compare with
   * {@code comparer}, timed by {@code clock} (ns).
   */
  Regress with(Runner runner, Comparer comparer, LongSupplier clock) {
    this.runner = runner;
    this.comparer = comparer;
    this.clock = clock;
    return this;
  }

  /** For tests of real runs: each benchmark command run by {@code runner} (e.g. in this JVM), compared as usual. */
  public Regress runningWith(Runner runner) {
    this.runner = runner;
    return this;
  }

  public static void main(String[] args) {
    Regress r = new Regress(new Console(System.out), Path.of(System.getProperty("ybbench.home", ".")));
    System.exit(r.execute(args, System.err));
  }

  public int execute(String[] args, PrintStream err) {
    this.err = err;
    CommandLine cl = new CommandLine(this);
    List<String> description = new ArrayList<>(List.of(cl.getCommandSpec().usageMessage().description()));
    description.set(description.indexOf(SUITES), "Suites: " + String.join(", ", suites().stream()
        .map(f -> f.suite().name() + " (" + f.suite().summary() + ")").toList()) + ".");
    cl.getCommandSpec().usageMessage().description(description.toArray(String[]::new));
    // The examples name a suite and a workload of the registry's, not of a benchmark named here.
    Suite example = suites().isEmpty() ? null : suites().get(0).suite();
    String suite = example == null ? "SUITE" : example.name();
    String workload = example == null ? "WORKLOAD" : example.workloads().get(example.workloads().size() / 2);
    cl.getCommandSpec().usageMessage().footer(Arrays.stream(cl.getCommandSpec().usageMessage().footer())
        .map(l -> l.replace(SUITE, suite).replace(WORKLOAD, workload)).toArray(String[]::new));
    return CommandLines.execute(cl, args, err, Console::clean, () -> verbose);
  }

  /** Stand-ins in the usage's examples for the first registered suite and one of its workloads. */
  static final String SUITE = "<suite>";
  static final String WORKLOAD = "<workload>";

  /** Where the usage lists the suites, which the registered benchmarks name. */
  static final String SUITES = "Suites: every benchmark's (./ybbench --help lists the benchmarks).";

  /** A suite and the benchmark that runs it. */
  private record Found(Benchmark benchmark, Suite suite) {}

  /** Every registered benchmark's suites. */
  private static List<Found> suites() {
    return Benchmarks.all().stream().flatMap(b -> b.suites().stream().map(s -> new Found(b, s))).toList();
  }

  /** --suite, from the registered benchmarks. */
  private static Found suite(String name) {
    List<String> names = suites().stream().map(f -> f.suite().name()).toList();
    String all = names.size() < 2 ? String.join("", names)
        : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    if (name == null) {
      throw new UserError("--suite is missing: " + all);
    }
    return suites().stream().filter(f -> f.suite().name().equals(name)).findFirst().orElseThrow(() ->
        new UserError("unknown suite '" + name + "': use " + all));
  }

  @Override
  public Integer call() throws Exception {
    cmp.check();
    Path results = cmp.results(home);
    if (bisect) {
      if (dryRun) {
        throw new UserError("--dry-run plans a baseline against a candidate; a bisection's steps depend on what each "
            + "finds: plan its first step with --baseline-version FIRST --candidate-version LAST");
      }
      return bisect(results);
    }
    if (versions != null || versionsFile != null || deployCmd != null) {
      throw new UserError("--versions, --versions-file and --deploy-cmd go with --bisect");
    }
    if (baseLabel != null || candLabel != null) {
      if (baseLabel == null || candLabel == null) {
        throw new UserError("give both --baseline-label and --candidate-label");
      }
      if (dryRun) {
        throw new UserError("--dry-run plans runs; --baseline-label and --candidate-label compare runs already made: "
            + "leave --dry-run out");
      }
      return compare(baseLabel, candLabel, results, null);
    }
    Found suite = suite(suiteName);
    if (repeat < 1) {
      throw new UserError("--repeat must be a whole number of at least 1, was '" + repeat + "'");
    }
    long budgetS = seconds(budget);
    List<String> list = workloads(suite);
    if (reuseData && sequenced(suite)) {
      throw new UserError("--reuse-data runs later rounds over the first round's data; " + suite.suite().name()
          + " runs its sequence each round, with its own loads: give --workloads to run single workloads over "
          + "reused data");
    }
    List<String> baseTarget;
    List<String> candTarget;
    String baseName;
    String candName;
    if (baseVersion != null || candVersion != null) {
      if (baseVersion == null || candVersion == null) {
        throw new UserError("give both --baseline-version and --candidate-version");
      }
      if (baseHosts != null || candHosts != null) {
        throw new UserError("give versions or hosts, not both");
      }
      baseTarget = List.of("--db-version", baseVersion);
      candTarget = List.of("--db-version", candVersion);
      baseName = baseVersion;
      candName = candVersion;
    } else if (baseHosts != null && candHosts != null) {
      baseTarget = List.of("--hosts", baseHosts);
      candTarget = List.of("--hosts", candHosts);
      baseName = null; // two clusters: the side's name is the label's end
      candName = null;
    } else {
      throw new UserError("name the two sides: --baseline-version/--candidate-version, "
          + "--baseline-hosts/--candidate-hosts or labels");
    }
    String prefix = "regress-" + stamp() + "-" + suite.suite().name();
    SuiteSide baseline = new SuiteSide("baseline", prefix + "-baseline" + (baseName == null ? "" : "-" + baseName),
        baseTarget, words(baseArgs));
    SuiteSide candidate = new SuiteSide("candidate", prefix + "-candidate" + (candName == null ? "" : "-" + candName),
        candTarget, words(candArgs));
    if (dryRun) {
      return plan(suite, list, baseline, candidate, results);
    }
    console.line("Suite " + suite.suite().name() + ": " + repeat + " rounds" + (untilDecided ? ", then one more at a time until "
        + "decided (budget " + budget + ");" : ",") + " the sides in a random order each round; labels "
        + baseline.label + " and " + candidate.label);
    return decide(suite, list, baseline, candidate, seed != null ? new Random(seed) : new Random(), results,
        budgetS, untilDecided);
  }

  private static String stamp() {
    return DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(Instant.now());
  }

  /** --repeat rounds, then (untilDecided) one more at a time until compare.sh decides or the budget is spent. */
  private int decide(Found suite, List<String> list, SuiteSide baseline, SuiteSide candidate, Random order,
      Path results, long budgetS, boolean untilDecided) throws IOException, InterruptedException {
    long start = clock.getAsLong();
    int rep = 0;
    while (rep < repeat) {
      round(suite, list, ++rep, baseline, candidate, order, results);
    }
    if (!untilDecided) {
      return compare(baseline.label, candidate.label, results, null);
    }
    // Adaptive rounds: the last round a budget allows is planned from the rounds so far, and every
    // look after round --repeat widens its intervals for all the planned looks (compare --looks).
    long perRound = elapsedS(start) / repeat;
    int last = (int) Math.max(repeat, budgetS / Math.max(1, perRound));
    console.line("Until decided: " + perRound + " s a round, at most " + last + " rounds in the " + budget + " budget");
    while (true) {
      int rc = compare(baseline.label, candidate.label, results, repeat + "-" + last);
      if (rc != Compare.UNDECIDED) {
        return rc;
      }
      if (rep >= last || elapsedS(start) + perRound > budgetS) {
        console.line("Budget spent after " + rep + " rounds (" + elapsedS(start) + " s): the headlines above marked "
            + "inconclusive are undecided; the final look:");
        return compare(baseline.label, candidate.label, results, repeat + "-" + rep);
      }
      round(suite, list, ++rep, baseline, candidate, order, results);
    }
  }

  /** --bisect: refuses what it cannot search, then hands the builds to {@link Bisection}. */
  private int bisect(Path results) throws IOException, InterruptedException {
    if (baseVersion != null || candVersion != null || baseHosts != null || candHosts != null || baseLabel != null
        || candLabel != null) {
      throw new UserError("--bisect takes its sides from --versions (or --versions-file), not from --baseline-*/"
          + "--candidate-*");
    }
    if (!baseArgs.isBlank() || !candArgs.isBlank()) {
      throw new UserError("--bisect runs every build alike: a build's own flags go after it in --versions-file, not "
          + "in --baseline-args/--candidate-args");
    }
    Found suite = suite(suiteName);
    if (repeat < 2) {
      throw new UserError("--bisect needs --repeat of at least 2 rounds a step (a step is decided on how its rounds "
          + "differ), was " + repeat);
    }
    long budgetS = seconds(budget);
    List<String> list = workloads(suite);
    List<Bisection.Build> builds = Bisection.builds(versions, versionsFile);
    String prefix = "bisect-" + stamp() + "-" + suite.suite().name();
    Random order = seed != null ? new Random(seed) : new Random();
    console.line("Bisect " + suite.suite().name() + " over " + builds.size() + " builds (" + builds.stream()
        .map(Bisection.Build::name).collect(java.util.stream.Collectors.joining(", ")) + "): each step " + repeat
        + " rounds, then one more at a time until decided (budget " + budget + " a step)");
    return new Bisection(console, deployCmd == null ? null : new Deployment(console, runner, deployCmd), (baseline, candidate) -> decide(suite, list, baseline, candidate,
        order, results, budgetS, true), () -> runsStarted, this::firstLine).search(builds, prefix, repeat, list.size());
  }

  /** The last comparison's regression line, where included, or null. */
  private String firstLine() {
    return lastAnswer.stream().filter(l -> l.startsWith("REGRESSION")).findFirst().orElse(null);
  }

  /** One side of the comparison: its name, the label its runs carry, its server, its extra flags. */
  record SuiteSide(String name, String label, List<String> target, List<String> extra) {}

  /**
   * Every workload once on each side, the two sides in a random order per workload; or, for a suite
   * that runs its workloads as one sequence (YCSB's core), the sequence once on each side, the sides
   * in a random order.
   */
  private void round(Found suite, List<String> list, int rep, SuiteSide baseline, SuiteSide candidate, Random order,
      Path results) throws IOException, InterruptedException {
    for (String w : sequenced(suite) ? java.util.Collections.<String>singletonList(null) : list) {
      boolean baselineFirst = order.nextBoolean();
      one(suite, baselineFirst ? baseline : candidate, w, rep, results);
      one(suite, baselineFirst ? candidate : baseline, w, rep, results);
    }
  }

  /** Whether the suite's workloads run as one sequence a side: its own, not --workloads. */
  private boolean sequenced(Found suite) {
    return workloads == null && suite.suite().sequence(home, List.of(), duration, records) != null;
  }

  /** How a round's line names a run: its workload, or (null) the suite's sequence. */
  private static String describe(Found suite, String workload) {
    return workload == null ? "the " + suite.suite().name() + " sequence (" + String.join(", ",
        suite.suite().workloads()) + ")" : suite.suite().describe(workload);
  }

  /**
   * --dry-run: each workload's plan as the benchmark's own dry run prints it, the baseline's whole
   * and the candidate's lines that differ from it (the first round's; with --reuse-data on hosts
   * later rounds only run), then the rounds' time added up.
   */
  private int plan(Found suite, List<String> list, SuiteSide baseline, SuiteSide candidate, Path results) {
    double first = 0;
    double later = 0;
    java.util.Set<String> untimed = new java.util.LinkedHashSet<>();
    List<String> planned = sequenced(suite) ? java.util.Collections.singletonList(null) : list;
    for (String w : planned) {
      List<String> shown = null;
      for (SuiteSide side : List.of(baseline, candidate)) {
        DryRun round1 = planOne(suite, side, w, 1, results);
        DryRun next = reuseData && side.target.get(0).equals("--hosts") ? planOne(suite, side, w, 2, results)
            : round1;
        if (shown == null) {
          console.line("[" + side.name + "] " + describe(suite, w) + ":");
          round1.lines().forEach(console::line);
          shown = round1.lines();
        } else {
          List<String> base = shown;
          console.line("[" + side.name + "] " + describe(suite, w) + ", where its plan differs:");
          round1.lines().stream().filter(l -> !base.contains(l)).forEach(console::line);
        }
        if (next != round1) {
          console.line("  (rounds after the first only run, over the data the first loaded)");
        }
        first += round1.outline().knownSeconds();
        later += next.outline().knownSeconds();
        untimed.addAll(round1.outline().untimed());
        untimed.addAll(next.outline().untimed());
      }
    }
    int runs = 2 * list.size();
    double total = first + (repeat - 1) * later;
    console.line("Suite " + suite.suite().name() + ": " + repeat + (repeat == 1 ? " round" : " rounds") + " of " + runs
        + " runs, at least " + Outline.seconds(total) + " of phases" + (untimed.isEmpty() ? "" : ", plus each run's "
        + String.join(" and ", untimed) + ", whose time only the runs can tell") + (untilDecided ? "; then a round at a "
        + "time until every headline is decided, within the budget of " + budget : "") + "; nothing started");
    return 0;
  }

  /** One run's plan, by the benchmark's own dry run; its refusal as this command's. */
  private DryRun planOne(Found suite, SuiteSide side, String workload, int rep, Path results) {
    try {
      return dev.ybbench.harness.benchmark.Runner.dryRun(suite.benchmark(), home, args(suite, side, workload, rep, results));
    } catch (UserError e) {
      throw new UserError("the " + side.name + "'s run of " + describe(suite, workload) + ": " + e.getMessage());
    }
  }

  /** A run's arguments to its benchmark: the suite's for the workload (null: its sequence) and side, the label, the results. */
  private List<String> args(Found suite, SuiteSide side, String workload, int rep, Path results) {
    // With --reuse-data against hosts, the first round loads and later rounds only run.
    boolean runOnly = reuseData && rep > 1 && side.target.get(0).equals("--hosts");
    List<String> args = new ArrayList<>(workload == null ? suite.suite().sequence(home, side.target, duration, records)
        : suite.suite().args(home, workload, side.target, runOnly, duration, records));
    args.addAll(List.of("--label", side.label, "--results-dir", results.toString()));
    if (noInstall) {
      args.add("--no-install");
    }
    args.addAll(side.extra);
    return args;
  }

  /** One run of one workload (or of TPC-C, or of a suite's sequence) against one side. */
  private void one(Found suite, SuiteSide side, String workload, int rep, Path results)
      throws IOException, InterruptedException {
    console.line("[round " + rep + ", " + side.name + "] " + describe(suite, workload));
    // Through the registry: ./ybbench BENCHMARK and the suite's arguments, in a process of its own.
    List<String> cmd = new ArrayList<>(List.of(home.resolve("ybbench").toString(), suite.benchmark().name()));
    cmd.addAll(args(suite, side, workload, rep, results));
    runsStarted += workload == null ? suite.suite().workloads().size() : 1; // a sequence is its workloads' runs
    Outcome o = runner.run(cmd);
    if (o.exitCode() == 0) {
      return;
    }
    // A run that did not complete measured nothing that could stand for its side.
    if (cmp.includeIncomplete && (o.exitCode() == 1 || o.exitCode() == ShutdownGuard.EXIT_INTERRUPTED)) {
      console.line("warning: " + (o.lastLines().isEmpty() ? "a run did not complete"
          : o.lastLines().get(o.lastLines().size() - 1)));
      return;
    }
    o.lastLines().forEach(console::line);
    throw new UserError("a run of the suite did not complete (exit " + o.exitCode() + "); fix the cause, or pass "
        + "--include-incomplete");
  }

  /** compare.sh on the two labels, with this command's comparison flags; its exit code. */
  private int compare(String baseline, String candidate, Path results, String looks) {
    List<String> a = new ArrayList<>(List.of(baseline, candidate));
    a.addAll(cmp.args(results));
    if (looks != null) {
      a.addAll(List.of("--looks", looks));
    }
    if (noInstall) {
      a.add("--no-install");
    }
    return comparer.compare(a);
  }

  private List<String> workloads(Found suite) {
    return workloads == null ? suite.suite().workloads()
        : suite.suite().workloads(words(workloads.replace(',', ' ')), home);
  }

  private static final Pattern DURATION = Pattern.compile("([0-9]+)(s|m|h)?");

  /** A budget in seconds: 20m, 1h, 90s or plain seconds. */
  static long seconds(String budget) {
    Matcher m = DURATION.matcher(budget);
    if (!m.matches()) {
      throw new UserError("--budget must be a duration such as 20m, 1h or 900s, was '" + budget + "'");
    }
    long n = Long.parseLong(m.group(1));
    return "h".equals(m.group(2)) ? n * 3600 : "m".equals(m.group(2)) ? n * 60 : n;
  }

  static List<String> words(String s) {
    return Arrays.stream(s.strip().split("\\s+")).filter(w -> !w.isEmpty()).toList();
  }

  private long elapsedS(long start) {
    return (clock.getAsLong() - start) / 1_000_000_000L;
  }

}
