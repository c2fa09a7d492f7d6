package dev.ybbench.analysis;

import dev.ybbench.analysis.compare.Comparison;
import dev.ybbench.analysis.compare.ComparisonOptions;
import dev.ybbench.analysis.compare.MachineDrift;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.compare.RunMatching;
import dev.ybbench.analysis.compare.Verdict;
import dev.ybbench.analysis.history.AgainstHistory;
import dev.ybbench.analysis.history.Confirmation;
import dev.ybbench.analysis.history.HistoryStore;
import dev.ybbench.analysis.history.HistoryTrend;
import dev.ybbench.analysis.regress.Deployment;
import dev.ybbench.analysis.report.Report;
import dev.ybbench.analysis.report.VerdictLines;
import dev.ybbench.analysis.stats.SequentialLooks;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.cli.ShutdownGuard;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.StagedDirectory;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./compare.sh BASELINE CANDIDATE}: is the candidate slower, where, by how much. It fails
 * closed: exit code 0 only when every headline was decided and none is a regression; 1 a
 * regression; 2 the comparison could not be made; 3 a headline is undecided (more rounds needed),
 * unless {@code --undecided pass|fail} says what a pipeline wants instead.
 */
@Command(name = "compare.sh", sortOptions = false, usageHelpAutoWidth = true,
    description = {"Is the candidate slower than the baseline, where, and by how much? Each side is a run directory "
        + "or a label (--label) grouping repeated runs of one configuration. Every metric of every operation gets "
        + "the change candidate/baseline with a 95 %% interval (on the log scale, from the spread of the rounds, "
        + "interleaved runs paired by round, with each run's blocks of seconds as a floor) and a verdict: regression, "
        + "improvement, no change or inconclusive. The headline each run names (its throughput, or its "
        + "benchmark's own, such as tpmC; and --gate) decides the exit code; other rows are corrected for false "
        + "discoveries and flagged suspect.",
        "Exit code: 0 every headline decided and none a regression, 1 a headline regression, 2 the comparison "
            + "could not be made, 3 a headline undecided: run more rounds (or --undecided pass|fail).", ""},
    footer = {"", "Examples:", "  ./compare.sh results/<baseline run> results/<candidate run>",
        "  ./compare.sh pg16 pg17 --threshold 3 --gate p99",
        "  ./compare.sh --series pg13 pg14 pg15 pg16 pg17 pg18",
        "  ./compare.sh --history results/history.db results/<tonight's run>",
        "  ./compare.sh --history results/history.db --key BENCH/WORKLOAD",
        "  run-scripts/regress.sh --until-decided --budget 20m ...   (adds rounds until decided)"})
public final class Compare implements Callable<Integer> {
  /** Exit code: no headline is a regression, but one is not yet decided (run more rounds). */
  public static final int UNDECIDED = 3;
  /** Exit code: at least one headline is a regression. */
  public static final int REGRESSION = 1;
  /** Exit code: the comparison could not be made. */
  public static final int CANNOT_COMPARE = 2;

  @Parameters(paramLabel = "SIDE", arity = "0..*", description = "BASELINE CANDIDATE: each a run directory or a "
      + "label; with --series, two or more releases in order; with --history, the CANDIDATE alone")
  List<String> sides = List.of();

  @Option(names = "--history", paramLabel = "FILE|URL", description = "judge the CANDIDATE against the history of "
      + "its key (an SQLite file such as results/history.db, or a postgresql:// URL): the last runs of the key "
      + "on this machine since its last change point are the baseline, and how they differ from each other is "
      + "the noise one run is judged on. With --key and no CANDIDATE: the key's change points")
  String history;

  @Option(names = "--last", paramLabel = "N", description = "with --history: at most this many of the key's most "
      + "recent runs (default: " + DEFAULT_LAST + ")")
  Integer last;

  /** How many of a key's most recent runs a judgement takes by default. */
  static final int DEFAULT_LAST = 20;

  @Option(names = "--confirm", paramLabel = "N", description = "with --history: while a workload's headline is a "
      + "regression or undecided against the history, run that workload again (its last run's command, as its "
      + "run.json records it) up to N more times and judge all its runs together; every look is counted, so the "
      + "verdict holds at 95 %% over them all (Pocock); says how many runs it took")
  Integer confirm;

  @Option(names = "--control-rounds", paramLabel = "R", description = "with --confirm: a "
      + "regression it ends with is re-judged against the previous build in R interleaved rounds, paired by round, "
      + "where that build can run beside the candidate (its history run started an embedded server, or "
      + "--baseline-hosts); 0: never (default: " + DEFAULT_CONTROL_ROUNDS + ")")
  Integer controlRounds;

  static final int DEFAULT_CONTROL_ROUNDS = 3;

  @Option(names = "--baseline-hosts", paramLabel = "H[,H…]", description = "with --confirm: the previous build's "
      + "nodes, for the control rounds of a history run made with --hosts")
  String baselineHosts;

  @Option(names = "--deploy-cmd", paramLabel = "CMD", description = "with --confirm, in place of --baseline-hosts: "
      + "a shell command that deploys the previous build for the control rounds, {version} replaced by its server "
      + "version as the history recorded it, and prints its hosts (host[:port],…) on its last line (as regress.sh "
      + "--bisect's)")
  String deployCmd;

  @Option(names = "--key", paramLabel = "KEY", description = "with --history: list the change points of this key's "
      + "series (a key as history.sh list prints it, or its workload, BENCH/WORKLOAD, when one key has it)")
  String key;

  @Option(names = "--series", description = "follow each workload's headline across the releases given, in order: "
      + "each release's level with its interval, each step judged, and the series' change points (E-divisive "
      + "means); writes series.md, series.json and a chart per workload")
  boolean series;

  @Option(names = "--looks", paramLabel = "FIRST-LAST", description = "this comparison is one of repeated looks "
      + "after every round from FIRST to LAST (regress.sh --until-decided): headline intervals widen so that all "
      + "the looks together keep 95 %% (Pocock's repeated confidence intervals); exit 3 while a headline is "
      + "inconclusive before round LAST")
  String looks;

  @Mixin
  ComparisonOptions cmp = new ComparisonOptions();

  @Option(names = "--allow-env-diff", description = "compare runs from different machines, core counts or JDKs "
      + "(refused by default: the difference would be the machine's as much as the release's)")
  boolean allowEnvDiff;

  @Option(names = "--out", paramLabel = "DIR", description = "the comparison directory (default: "
      + "results/compare/<time>_<baseline>_vs_<candidate>)")
  Path out;

  @Option(names = "--verbose", description = "stack traces on errors")
  boolean verbose;

  /** Read by the scripts (run-scripts/common.sh), which install gnuplot before the JVM starts. */
  @Option(names = "--no-install", description = "do not install gnuplot for the charts when it is missing (as root "
      + "with apt the scripts install it once, and say so)")
  boolean noInstall;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  /** What a comparison stopped by Ctrl-C says: its directory is not written at all. */
  static final String INTERRUPTED = "Interrupted: no comparison written";

  private final Console console;
  private final Path home;
  private final BooleanSupplier stopped;
  private Path reportDir;

  public Compare(Console console, Path home) {
    this(console, home, () -> false);
  }

  /** {@code stopped}: Ctrl-C has arrived; the comparison ends at its next step and writes nothing. */
  public Compare(Console console, Path home, BooleanSupplier stopped) {
    this.console = console;
    this.home = home;
    this.stopped = stopped;
  }

  public static void main(String[] args) {
    Console console = new Console(System.out);
    ShutdownGuard guard = new ShutdownGuard(() -> console.line(ShutdownGuard.STOPPING), () -> { },
        Duration.ofSeconds(5));
    Compare c = new Compare(console, Path.of(System.getProperty("ybbench.home", ".")),
        guard::interrupted);
    guard.runMain(() -> {
      try {
        return c.execute(args, System.err);
      } finally {
        guard.finished();
      }
    });
  }

  public int execute(String[] args, PrintStream err) {
    return CommandLines.execute(this, args, err, Console::clean, () -> verbose);
  }

  public Path reportDirectory() {
    return reportDir;
  }

  /** The verdict lines of the last comparison, as printed first (none before one). */
  public List<String> answer() {
    return answer;
  }

  private List<String> answer = List.of();

  @Override
  public Integer call() throws IOException {
    try {
      return compare();
    } catch (StagedDirectory.Stopped s) {
      console.line(INTERRUPTED);
      return ShutdownGuard.EXIT_INTERRUPTED;
    }
  }

  private int compare() throws IOException {
    cmp.check();
    Path root = cmp.results(home);
    if (series) {
      if (history != null) {
        throw new UserError("--series follows labels of runs at hand; for a key's series in the history use "
            + "--history DB --key KEY");
      }
      return series(root);
    }
    if (history != null) {
      return againstHistory(root);
    }
    if (key != null || last != null || confirm != null || controlFlag() != null) {
      throw new UserError((key != null ? "--key" : last != null ? "--last" : confirm != null ? "--confirm"
          : controlFlag()) + " goes with --history FILE|URL");
    }
    if (sides.size() != 2) {
      throw new UserError("compare.sh takes two sides, BASELINE and CANDIDATE (" + sides.size() + " given); to follow "
          + "more releases in order, add --series; to judge one run against its history, --history FILE|URL");
    }
    RunGroup b = RunGroup.resolve(sides.get(0), root, cmp.includeIncomplete);
    RunGroup c = RunGroup.resolve(sides.get(1), root, cmp.includeIncomplete);
    return compare(root, b, c, List.of());
  }

  /** The first control option given (they go with --confirm), or null. */
  private String controlFlag() {
    return controlRounds != null ? "--control-rounds" : baselineHosts != null ? "--baseline-hosts"
        : deployCmd != null ? "--deploy-cmd" : null;
  }

  /** --history: the candidate against its key's history, or (--key, no candidate) the key's change points. */
  private int againstHistory(Path root) throws IOException {
    if (looks != null) {
      throw new UserError("--looks is for interleaved rounds (regress.sh), not for a judgement against a history");
    }
    if (last != null && last < 2) {
      throw new UserError("--last must be at least 2 runs, was " + last);
    }
    if (key != null && !sides.isEmpty()) {
      throw new UserError("--key lists a key's change points and takes no run; to judge a run, give it without --key");
    }
    if (key != null && (cmp.gate != null || cmp.undecided != null || last != null || confirm != null)) {
      throw new UserError("--key lists a key's change points: --gate, --undecided, --last and --confirm are for "
          + "judging a run");
    }
    if (key == null && sides.size() != 1) {
      throw new UserError("with --history, give the CANDIDATE alone (a run directory or a label), " + sides.size()
          + " given; or --key KEY for a key's change points");
    }
    if (controlFlag() != null && confirm == null) {
      throw new UserError(controlFlag() + " goes with --confirm N: the control re-judges the regression a "
          + "confirmation ends with");
    }
    if (baselineHosts != null && deployCmd != null) {
      throw new UserError("--baseline-hosts and --deploy-cmd both name the previous build's nodes: give one");
    }
    if (key == null && confirm != null) {
      return confirmed(root, RunGroup.resolve(sides.get(0), root, cmp.includeIncomplete));
    }
    try (HistoryStore store = HistoryStore.open(history)) {
      if (key != null) {
        HistoryTrend.lines(store, key, cmp.threshold).forEach(console::line);
        return 0;
      }
      RunGroup c = RunGroup.resolve(sides.get(0), root, cmp.includeIncomplete);
      AgainstHistory.Baseline b = AgainstHistory.of(store, c, last != null ? last : DEFAULT_LAST, allowEnvDiff);
      return compare(root, b, c, b.notes(), 0.95);
    }
  }

  /** For tests: run a candidate's run again with {@code rerun} (e.g. in this JVM) rather than by its script. */
  public Compare rerunningWith(Confirmation.Rerun rerun) {
    this.rerun = rerun;
    return this;
  }

  private Confirmation.Rerun rerun;

  /**
   * --confirm N: look, and while a headline is a regression or undecided, run its workload again
   * and look once more, up to N times; the last look is reported as any comparison is. A
   * regression it ends with is then re-judged against the previous build in interleaved rounds,
   * where that build can run beside the candidate ({@link #control}).
   */
  private int confirmed(Path root, RunGroup candidate) throws IOException {
    if (confirm < 1 || confirm > Comparison.MAX_ROUNDS) {
      throw new UserError("--confirm must be between 1 and " + Comparison.MAX_ROUNDS + " more runs, was " + confirm);
    }
    int rounds = controlRounds != null ? controlRounds : DEFAULT_CONTROL_ROUNDS;
    if (rounds < 0 || rounds > Comparison.MAX_ROUNDS) {
      throw new UserError("--control-rounds must be between 0 and " + Comparison.MAX_ROUNDS + ", was " + rounds);
    }
    int lastLook = confirm + 1;
    double confidence = SequentialLooks.perLookConfidence(1, lastLook, 0.95);
    Confirmation.Rerun again = rerun != null ? rerun : Confirmation.byRunner(home, console::line);
    RunGroup c = candidate;
    for (int look = 1; ; look++) {
      AgainstHistory.Baseline b;
      // Open only while read: a run again records itself into the same history (SQLite: one writer).
      try (HistoryStore store = HistoryStore.open(history)) {
        b = AgainstHistory.of(store, c, last != null ? last : DEFAULT_LAST, allowEnvDiff);
      }
      StagedDirectory.checkpoint(stopped);
      Comparison.Result result = Comparison.compare(b.side(), c,
          new Comparison.Options(cmp.threshold, cmp.gate, confidence, allowEnvDiff, true, b.earlierLevel()));
      List<Path> runAgain = Confirmation.toRunAgain(result.rows(), c);
      if (look == lastLook || runAgain.isEmpty() || Confirmation.settled(result.rows(), look)) {
        List<String> notes = new ArrayList<>(b.notes());
        notes.add(String.format(Locale.ROOT, "confirmation: look %d of at most %d, %d run%s of the candidate; each "
            + "look at %.1f %% so that all %d hold 95 %%", look, lastLook, c.directories(),
            c.directories() == 1 ? "" : "s", confidence * 100, lastLook));
        int judged = compare(root, b, c, notes, confidence);
        return judged == REGRESSION ? control(root, result.rows(), b.side(), c, again, rounds) : judged;
      }
      List<Confirmation.Command> commands = runAgain.stream().map(Confirmation::command).toList();
      if (rerun == null) {
        commands.forEach(Confirmation.Command::benchmark); // each refused, if it must be, before any runs
      }
      List<RunGroup.Run> runs = new ArrayList<>(c.runs());
      for (Confirmation.Command command : commands) {
        console.line(String.format(Locale.ROOT, "[confirm] look %d of %d: %s; running %s again", look, lastLook,
            said(result.rows(), c, command.from()), command.from()));
        runs.addAll(RunGroup.works(runOnce(again, command)));
      }
      c = new RunGroup(c.name(), runs);
    }
  }

  private Deployment deployment;

  /** The previous build's hosts, deployed by --deploy-cmd (once per version). */
  private String deployed(String version) throws IOException {
    if (deployment == null) {
      deployment = Deployment.byShell(console, deployCmd);
    }
    try {
      return deployment.hosts(version);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while --deploy-cmd deployed " + version, e);
    }
  }

  /** {@code command} run by {@code again}: its run, complete, or a refusal that ends the comparison. */
  private RunGroup.Run runOnce(Confirmation.Rerun again, Confirmation.Command command) throws IOException {
    StagedDirectory.checkpoint(stopped);
    Path dir;
    try {
      dir = again.run(command);
    } catch (UserError | IOException | StagedDirectory.Stopped e) {
      throw e;
    } catch (Exception e) {
      throw new UserError("--confirm: running " + command.from() + " again failed: " + e.getMessage());
    }
    RunGroup.Run read = RunGroup.read(dir);
    if (!RunInfo.COMPLETE.equals(read.summary().state())) {
      throw new UserError("--confirm: the run again of " + command.from() + " is " + read.summary().state() + " ("
          + dir + "); nothing more to judge");
    }
    console.line("[confirm] " + dir);
    return read;
  }

  /**
   * A regression against the history may be the machine's: runs one after another cannot tell.
   * Where the previous build can run beside the candidate — its last run in the history started an
   * embedded server, or --baseline-hosts names its nodes — each regressed workload is run
   * {@code --control-rounds} times more on either side, interleaved (sides alternated, as
   * regress.sh's rounds), and judged paired by round, which cancels what the machine did to both;
   * that verdict is the exit code's. Where it cannot, the regression stands and the line says why.
   */
  private int control(Path root, List<Comparison.Row> rows, RunGroup historySide, RunGroup c,
      Confirmation.Rerun again, int controlRounds) throws IOException {
    if (controlRounds == 0) {
      return REGRESSION;
    }
    List<ControlPair> pairs = new ArrayList<>();
    boolean undecidedElsewhere = false;
    for (Comparison.Row row : rows) {
      if (!row.headline() || row.verdict() != Verdict.REGRESSION) {
        undecidedElsewhere |= row.headline() && row.verdict() == Verdict.INCONCLUSIVE;
        continue;
      }
      RunGroup.Run previous = latest(historySide, row.key());
      RunGroup.Run now = latest(c, row.key());
      String version = previous.info().at("/server/version").asText();
      boolean embedded = previous.info().at("/server/embedded").asBoolean(false);
      if (!embedded && baselineHosts == null && deployCmd == null) {
        console.line("control: " + row.key() + "'s previous build (" + version + ") ran on nodes of its own, which "
            + "cannot run beside the candidate here: give them with --baseline-hosts (or --deploy-cmd), or run "
            + "regress.sh, to tell the build from the machine");
        return REGRESSION;
      }
      String hosts = embedded ? null : baselineHosts != null ? baselineHosts : deployed(version);
      ControlPair pair = new ControlPair(Confirmation.command(previous.info(), previous.dir().getFileName()
          .toString()).forControl("control-" + safe(c.name()) + "-previous", hosts),
          Confirmation.command(now.dir()).forControl("control-" + safe(c.name()), null), version);
      if (rerun == null) {
        pair.previous().benchmark(); // each refused, if it must be, before any runs
        pair.candidate().benchmark();
      }
      pairs.add(pair);
    }
    if (pairs.isEmpty()) {
      return REGRESSION; // no headline is a regression: an undecided one failed the gate (--undecided fail)
    }
    List<RunGroup.Run> before = new ArrayList<>();
    List<RunGroup.Run> after = new ArrayList<>();
    for (int round = 1; round <= controlRounds; round++) {
      boolean previousFirst = round % 2 == 1;
      for (ControlPair pair : pairs) {
        console.line(String.format(Locale.ROOT, "[control] round %d of %d: %s against its previous build %s, %s",
            round, controlRounds, c.name(), pair.version(), previousFirst ? "previous first" : "candidate first"));
        // Sides alternated: what the machine does at a round's start or end falls on each side alike.
        for (boolean previousSide : previousFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
          RunGroup.Run run = runOnce(again, previousSide ? pair.previous() : pair.candidate());
          String ran = run.info().at("/server/version").asText();
          if (previousSide && !ran.equals(pair.version())) {
            throw new UserError("--confirm: the previous build's command now runs " + ran + ", not " + pair.version()
                + " (" + run.dir() + "); it cannot stand for that build: judge with regress.sh");
          }
          (previousSide ? before : after).addAll(RunGroup.works(run));
        }
      }
    }
    console.line("");
    console.line("control: " + controlRounds + " interleaved round" + (controlRounds == 1 ? "" : "s") + " against "
        + "the previous build, judged paired by round:");
    int judged = compare(root, new RunGroup("previous-build", before), new RunGroup(c.name(), after), List.of(),
        0.95, false, Set.of(), null);
    return judged == 0 && undecidedElsewhere ? UNDECIDED : judged;
  }

  /** A regressed workload's control: the previous build's command and the candidate's, and that build's version. */
  private record ControlPair(Confirmation.Command previous, Confirmation.Command candidate, String version) {}

  /** The latest of a side's runs of workload {@code key}. */
  private static RunGroup.Run latest(RunGroup side, String key) {
    return side.runs().stream().filter(r -> (r.bench() + "/" + r.workload()).equals(key))
        .max(java.util.Comparator.comparing(RunGroup.Run::started)).orElseThrow();
  }

  /** "ycsb/workloadc REGRESSION −12.3 %": the headline verdict of the workload of {@code c}'s run {@code run}. */
  private static String said(List<Comparison.Row> rows, RunGroup c, String run) {
    RunGroup.Run r = c.runs().stream().filter(x -> x.dir().getFileName().toString().equals(run)).findFirst()
        .orElseThrow();
    String key = r.bench() + "/" + r.workload();
    return rows.stream().filter(row -> row.headline() && row.key().equals(key)).map(row -> String.format(Locale.ROOT,
        "%s %s %+.1f %%", key, row.verdict(), row.change().change())).findFirst().orElse(key);
  }

  private int compare(Path root, RunGroup b, RunGroup c, List<String> notes) throws IOException {
    int[] looked = looks == null ? null : looks(looks);
    double confidence = looked == null ? 0.95 : SequentialLooks.perLookConfidence(looked[0], looked[1], 0.95);
    return compare(root, b, c, notes, confidence, false, Set.of(), looked);
  }

  /** The candidate against its history: their runs share a spread. */
  private int compare(Path root, AgainstHistory.Baseline b, RunGroup c, List<String> notes, double confidence)
      throws IOException {
    return compare(root, b.side(), c, notes, confidence, true, b.earlierLevel(), null);
  }

  /**
   * @param history      the baseline is the candidate's history: their runs share a spread
   * @param earlierLevel of the history's runs, those at a level it has lately left
   * @param looked       the rounds of regress.sh's looks, first and last, or null
   */
  private int compare(Path root, RunGroup b, RunGroup c, List<String> notes, double confidence, boolean history,
      Set<Path> earlierLevel, int[] looked) throws IOException {
    StagedDirectory.checkpoint(stopped);
    Comparison.Result result = Comparison.compare(b, c,
        new Comparison.Options(cmp.threshold, cmp.gate, confidence, allowEnvDiff, history, earlierLevel));
    StagedDirectory.checkpoint(stopped);
    List<Comparison.Row> rows = result.rows();
    reportDir = outDir(root, safe(b.name()) + "_vs_" + safe(c.name()));
    Report report = new Report(b, c, result, cmp.threshold, cmp.gate);
    answer = report.verdictLines();
    answer.forEach(console::line);
    notes.forEach(console::line);
    report.notes().forEach(console::line);
    // The machine against the baseline's level judged: a history's present one.
    List<String> drift = MachineDrift.notes(rows, new RunGroup(b.name(), b.runs().stream()
        .filter(r -> !earlierLevel.contains(r.dir())).toList()), c);
    drift.forEach(console::line);
    if (history && drift.isEmpty() && rows.stream().anyMatch(r -> r.headline() && r.verdict() == Verdict.REGRESSION)) {
      // What a judgement against runs made before cannot rule out, said where it matters.
      console.line("note: judged against runs made before it, one after another: a slowdown of this machine or "
          + "cluster during the candidate's runs cannot be ruled out (its probe did not move; runs interleaved with "
          + "the previous build can: regress.sh)");
    }
    if (!history && result.workloads().values().stream().anyMatch(m -> RunMatching.sequential(m.baseline(),
        m.candidate()))) {
      // Before and after an upgrade of one cluster: what more runs can and cannot settle.
      console.line("note: every run of one side came before every run of the other (as before and after an upgrade): "
          + "a drift of the machine or cluster between the two halves moves the result as the change would. More "
          + "runs a side narrow the noise, not the drift; a history of the baseline's runs (--history) shows how far "
          + "it drifts on its own, and interleaved runs on two clusters (regress.sh) cancel it");
    }
    result.warnings().forEach(w -> console.line("warning: " + w));
    if (b.directories() == 1 && c.directories() == 1) {
      console.line("warning: " + b.name() + " and " + c.name() + " have a single run each: nothing says how runs "
          + "differ, so nothing is decided; repeat runs under one --label (regress.sh interleaves them), or judge "
          + "the candidate against a history of the baseline's runs (--history)");
    }
    console.line("");
    console.line(report.markdownTable());
    String chartsWarning;
    try (StagedDirectory staged = StagedDirectory.forTarget(reportDir, stopped)) {
      chartsWarning = report.write(staged.path(), staged::checkpoint);
      staged.commit();
    }
    if (chartsWarning != null) {
      console.line("warning: " + chartsWarning);
    }
    long regressions = rows.stream().filter(r -> r.verdict() == Verdict.REGRESSION).count();
    long unlike = rows.stream().filter(r -> r.headline() && r.verdict() == Verdict.NOT_COMPARABLE).count();
    long undecided = rows.stream().filter(r -> r.headline() && r.verdict() == Verdict.INCONCLUSIVE).count();
    boolean interim = looked != null && rounds(rows) < looked[1];
    int exit = regressions > 0 ? REGRESSION : unlike > 0 ? CANNOT_COMPARE : undecided == 0 ? 0
        : interim || cmp.undecided == null ? UNDECIDED : cmp.undecided.equals("pass") ? 0 : REGRESSION;
    console.line(String.format(Locale.ROOT, "%d regression%s, %d headline%s undecided (threshold %.1f %%): %s; "
            + "report: %s", regressions, regressions == 1 ? "" : "s", undecided, undecided == 1 ? "" : "s",
        cmp.threshold, outcome(exit, unlike, undecided, rows), reportDir.resolve("report.html")));
    return exit;
  }

  /** What the exit code says, in words, e.g. "UNDECIDED, exit 3: about 52 more rounds would likely decide". */
  private String outcome(int exit, long unlike, long undecided, List<Comparison.Row> rows) {
    if (exit == REGRESSION && undecided > 0 && rows.stream().noneMatch(r -> r.verdict() == Verdict.REGRESSION)) {
      return "FAIL, exit 1 (--undecided fail)";
    }
    if (exit == REGRESSION) {
      return "REGRESSION, exit 1";
    }
    if (exit == CANNOT_COMPARE) {
      return String.format(Locale.ROOT, "CANNOT COMPARE, exit 2: %d gating row%s measured different quantities on "
          + "the two sides (see above)", unlike, unlike == 1 ? "" : "s");
    }
    if (undecided == 0) {
      return "PASS, exit 0";
    }
    List<Comparison.Row> single = rows.stream().filter(r -> r.headline() && r.verdict() == Verdict.INCONCLUSIVE
        && VerdictLines.whatDecidesSingleRuns(r, cmp.threshold) != null).toList();
    if (!single.isEmpty() && single.size() == undecided) {
      Comparison.Row worst = single.stream().max(java.util.Comparator.comparing(Comparison.Row::roundsToDecide))
          .orElseThrow();
      String more = VerdictLines.whatDecidesSingleRuns(worst, cmp.threshold);
      return exit == 0 ? "PASS, exit 0 (--undecided pass; " + more + ")" : "UNDECIDED, exit 3: " + more;
    }
    int now = rounds(rows);
    OptionalInt planned = rows.stream().filter(r -> r.headline() && r.roundsToDecide() != null)
        .mapToInt(Comparison.Row::roundsToDecide).max();
    int needed = planned.orElse(Comparison.MAX_ROUNDS);
    String more = planned.isEmpty() ? "repeat the runs (nothing yet says how they vary)"
        : needed >= Comparison.MAX_ROUNDS ? "more than " + Comparison.MAX_ROUNDS + " rounds would be needed"
        : "about " + Math.max(1, needed - now) + " more round" + (needed - now == 1 ? "" : "s") + " would likely "
            + "decide";
    return exit == 0 ? "PASS, exit 0 (--undecided pass; " + more + ")" : "UNDECIDED, exit 3: " + more;
  }

  /** --series: the trends on the terminal and in the series directory; exit 0 (it answers no yes/no question). */
  private int series(Path root) throws IOException {
    if (looks != null || cmp.gate != null || confirm != null || controlRounds != null || baselineHosts != null) {
      throw new UserError("--looks, --gate, --confirm, --control-rounds and --baseline-hosts are for judging a "
          + "candidate, not for --series");
    }
    if (sides.size() < 2) {
      throw new UserError("--series follows two or more releases in order (" + sides.size() + " given)");
    }
    List<RunGroup> all = sides.stream().map(s -> RunGroup.resolve(s, root, cmp.includeIncomplete)).toList();
    StagedDirectory.checkpoint(stopped);
    List<SeriesCommand.Trend> trends = SeriesCommand.of(all, cmp.threshold, allowEnvDiff);
    StagedDirectory.checkpoint(stopped);
    trends.forEach(t -> SeriesCommand.lines(t).forEach(console::line));
    reportDir = outDir(root, "series_" + safe(all.get(0).name()) + "_to_" + safe(all.get(all.size() - 1).name()));
    String warning;
    try (StagedDirectory staged = StagedDirectory.forTarget(reportDir, stopped)) {
      warning = SeriesCommand.write(staged.path(), trends, staged::checkpoint);
      staged.commit();
    }
    if (warning != null) {
      console.line("warning: " + warning);
    }
    console.line("series: " + reportDir.resolve("series.md"));
    return 0;
  }

  /** --out, else results/compare/<UTC time>_<what>; written whole at the end ({@link StagedDirectory}). */
  private Path outDir(Path root, String what) {
    return out != null ? out : root.resolve("compare").resolve(DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
        .withZone(ZoneOffset.UTC).format(Instant.now()) + "_" + what);
  }

  private static final Pattern LOOKS = Pattern.compile("(\\d{1,6})-(\\d{1,6})");

  /** "3-12": looks after rounds 3 to 12. */
  private static int[] looks(String spec) {
    Matcher m = LOOKS.matcher(spec);
    if (!m.matches() || Integer.parseInt(m.group(1)) < 1 || Integer.parseInt(m.group(2)) < Integer.parseInt(
        m.group(1)) || Integer.parseInt(m.group(2)) > Comparison.MAX_ROUNDS) {
      throw new UserError("--looks must be FIRST-LAST rounds with 1 <= FIRST <= LAST <= " + Comparison.MAX_ROUNDS
          + ", e.g. 3-12; was " + spec);
    }
    return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
  }

  /** The rounds run for the headlines (the fewest, when workloads differ), a round set aside included. */
  private static int rounds(List<Comparison.Row> rows) {
    return rows.stream().filter(Comparison.Row::headline).mapToInt(r -> Math.min(
        r.change().baselineRuns() + (r.change().asideBaseline() >= 0 ? 1 : 0),
        r.change().candidateRuns() + (r.change().asideCandidate() >= 0 ? 1 : 0))).min().orElse(0);
  }

  private static String safe(String s) {
    return s.replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
