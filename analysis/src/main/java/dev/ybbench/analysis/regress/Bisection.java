package dev.ybbench.analysis.regress;

import dev.ybbench.analysis.Compare;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.Console;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * regress.sh --bisect: which of a list of builds, in release order, is the first whose headline
 * regresses, each step one decision in interleaved rounds, and the builds' servers, embedded or
 * deployed by --deploy-cmd.
 */
public final class Bisection {
  /** A build of a bisection: its name, and the flags its runs get (a versions file's, after the name). */
  record Build(String name, List<String> extra) {}

  /** One step: the baseline's side against the candidate's in rounds until decided; compare.sh's exit code. */
  interface Step {
    int decide(Regress.SuiteSide baseline, Regress.SuiteSide candidate) throws IOException, InterruptedException;
  }

  private final Console console;
  private final Deployment deployment;
  private final Step decide;
  private final IntSupplier runsStarted;
  private final Supplier<String> regressionLine;

  /**
   * @param deployment     deploys a build (--deploy-cmd), or null: the builds are embedded server versions
   * @param runsStarted    the runs started so far, for what the bisection cost
   * @param regressionLine the last comparison's regression line, or null
   */
  Bisection(Console console, Deployment deployment, Step decide, IntSupplier runsStarted,
      Supplier<String> regressionLine) {
    this.console = console;
    this.deployment = deployment;
    this.decide = decide;
    this.runsStarted = runsStarted;
    this.regressionLine = regressionLine;
  }

  /** --versions or --versions-file, in release order; at least three, each named once. */
  static List<Build> builds(String versions, Path versionsFile) throws IOException {
    if ((versions == null) == (versionsFile == null)) {
      throw new UserError("--bisect needs the builds in release order: --versions V1,V2,… or --versions-file FILE");
    }
    List<Build> out = new ArrayList<>();
    if (versions != null) {
      for (String v : versions.split(",")) {
        if (!v.isBlank()) {
          out.add(new Build(v.strip(), List.of()));
        }
      }
    } else {
      if (!Files.isRegularFile(versionsFile)) {
        throw new UserError("--versions-file " + versionsFile + " is not a file");
      }
      for (String line : Files.readAllLines(versionsFile, StandardCharsets.UTF_8)) {
        String l = line.replaceFirst("#.*", "").strip();
        if (!l.isEmpty()) {
          List<String> w = Regress.words(l);
          out.add(new Build(w.get(0), w.subList(1, w.size())));
        }
      }
    }
    if (out.size() < 3) {
      throw new UserError("--bisect needs at least three builds to search between (" + out.size() + " given); for two, "
          + "compare them: --baseline-version/--candidate-version");
    }
    if (out.stream().map(Build::name).distinct().count() < out.size()) {
      throw new UserError("--bisect: a build is named twice in " + out.stream().map(Build::name).toList());
    }
    return out;
  }

  /**
   * --bisect: the first build whose headline regresses against the last good one. The first and
   * last builds are compared first (no regression between them: nothing to find); then, while
   * builds lie between the last good and the first bad, the middle one is compared with the last
   * good: a regression makes it the first bad so far, a decided "not a regression" the last good.
   * Each step is one decision in interleaved rounds until decided within --budget; a step still
   * undecided ends the search with the range it narrowed to (exit 3). The first bad build is then
   * compared with the build just before it, if no step did, so that its where is printed.
   *
   * @param prefix    what every step's labels start with
   * @param workloads the suite's workloads a round, for what judging every build against the one before would cost
   */
  int search(List<Build> builds, String prefix, int repeat, int workloads) throws IOException, InterruptedException {
    int good = 0;
    int bad = builds.size() - 1;
    int step = 0;
    Set<String> compared = new HashSet<>();
    String badVerdict = null;
    int rc = step(builds, good, bad, ++step, prefix);
    compared.add(good + "-" + bad);
    if (rc != Compare.REGRESSION) {
      console.line(rc == 0 ? "No regression from " + builds.get(0).name() + " to " + builds.get(bad).name()
          + ": nothing to bisect (" + runsStarted.getAsInt() + " runs)" : "Undecided whether " + builds.get(bad).name()
          + " regresses against " + builds.get(0).name() + ": nothing bisected (" + runsStarted.getAsInt() + " runs)");
      return rc;
    }
    badVerdict = regressionLine.get();
    while (bad - good > 1) {
      int mid = (good + bad) / 2;
      rc = step(builds, good, mid, ++step, prefix);
      compared.add(good + "-" + mid);
      if (rc == Compare.REGRESSION) {
        bad = mid;
        badVerdict = regressionLine.get();
      } else if (rc == 0) {
        good = mid;
      } else {
        console.line("Undecided at " + builds.get(mid).name() + " against " + builds.get(good).name() + " (exit "
            + rc + "): the first bad build is one of " + builds.subList(good + 1, bad + 1).stream().map(Build::name)
            .toList() + " (" + runsStarted.getAsInt() + " runs); a larger --budget may decide it");
        return Compare.UNDECIDED;
      }
    }
    if (!compared.contains(good + "-" + bad)) {
      // The first bad was found against an earlier good: compare it with the build just before it.
      rc = step(builds, good, bad, ++step, prefix);
      if (rc != Compare.REGRESSION) {
        console.line("warning: " + builds.get(bad).name() + " regressed against an earlier build but not detectably "
            + "against " + builds.get(good).name() + " (exit " + rc + "): the change may be spread over both");
      } else {
        badVerdict = regressionLine.get();
      }
    }
    int everyPair = (builds.size() - 1) * repeat * workloads * 2;
    console.line("First bad build: " + builds.get(bad).name() + " (last good: " + builds.get(good).name() + "), "
        + step + " steps, " + runsStarted.getAsInt() + " runs; judging every build against the one before it would "
        + "take at least " + everyPair + " runs (" + (builds.size() - 1) + " steps of " + repeat + " rounds)");
    if (badVerdict != null) {
      console.line("  " + badVerdict);
    }
    return Compare.REGRESSION;
  }

  /** One step of a bisection: build {@code a} against build {@code b}, until decided. */
  private int step(List<Build> builds, int a, int b, int step, String prefix) throws IOException,
      InterruptedException {
    Build x = builds.get(a);
    Build y = builds.get(b);
    console.line("Step " + step + ": " + y.name() + " against " + x.name());
    Regress.SuiteSide baseline = new Regress.SuiteSide("baseline", prefix + "-step" + step + "-baseline-" + safe(x.name()),
        target(x), x.extra());
    Regress.SuiteSide candidate = new Regress.SuiteSide("candidate", prefix + "-step" + step + "-candidate-" + safe(y.name()),
        target(y), y.extra());
    return decide.decide(baseline, candidate);
  }

  /** A build's server flags: --db-version, or --hosts of what --deploy-cmd deployed for it. */
  private List<String> target(Build b) throws IOException, InterruptedException {
    return deployment == null ? List.of("--db-version", b.name()) : List.of("--hosts", deployment.hosts(b.name()));
  }

  private static String safe(String s) {
    return s.replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
