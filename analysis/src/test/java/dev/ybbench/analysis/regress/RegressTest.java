package dev.ybbench.analysis.regress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.analysis.Compare;
import dev.ybbench.harness.results.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The regression suite's plan, with the benchmarks and the comparison replaced by recorders: the
 * runs of every round in a random order per workload (repeatable by --seed), their command lines,
 * the looks until decided within a budget, and each refusal. The suites are a test benchmark's
 * ({@link FakeBenchmark}), found in the registry as every benchmark's are; each benchmark's module
 * tests its own suites' arguments.
 */
class RegressTest {
  @TempDir
  Path home;

  /** What a regress command did: its exit code, output, the runs it started and the comparisons it made. */
  record Done(int exitCode, String out, List<List<String>> runs, List<List<String>> compares) {
    /** "baseline workloada", … in the order run. */
    List<String> order() {
      return runs.stream().map(r -> (r.stream().anyMatch(a -> a.contains("-baseline-")) ? "baseline " : "candidate ")
          + r.get(2)).toList();
    }
  }

  private Done regress(Deque<Integer> runCodes, Deque<Integer> compareCodes, long secondsPerRun, String... args)
      throws Exception {
    Files.createDirectories(home.resolve("workloads"));
    for (String w : FakeBenchmark.Core.WORKLOADS) {
      Files.writeString(home.resolve("workloads").resolve(w), "");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    List<List<String>> runs = new ArrayList<>();
    List<List<String>> compares = new ArrayList<>();
    long[] now = {0};
    Regress r = new Regress(new Console(print), home).with(cmd -> {
      runs.add(cmd.stream().map(a -> a.replace(home.toString(), "HOME")).toList());
      now[0] += secondsPerRun * 1_000_000_000L;
      int rc = runCodes.isEmpty() ? 0 : runCodes.pop();
      return new Regress.Outcome(rc, rc == 0 ? List.of() : List.of("Results: results/x", "state: failed (why)"));
    }, a -> {
      compares.add(a.stream().map(x -> x.replace(home.toString(), "HOME")).toList());
      return compareCodes.isEmpty() ? 0 : compareCodes.pop();
    }, () -> now[0]);
    int rc = r.execute(args, print);
    return new Done(rc, out.toString(StandardCharsets.UTF_8), runs, compares);
  }

  private Done regress(String... args) throws Exception {
    return regress(new ArrayDeque<>(), new ArrayDeque<>(), 10, args);
  }

  @Test
  void everyRoundRunsEachWorkloadOnBothSidesInTheSeedsOrderThenCompares() throws Exception {
    Done d = regress("--suite", "fake-core", "--workloads", "workloada,workloadc", "--repeat", "2",
        "--baseline-version", "16", "--candidate-version", "17", "--seed", "7", "--duration", "5",
        "--candidate-args", "--target 500");
    assertEquals(0, d.exitCode(), d.out());
    Random order = new Random(7);
    List<String> expected = new ArrayList<>();
    for (int round = 0; round < 2; round++) {
      for (String w : List.of("workloada", "workloadc")) {
        boolean baselineFirst = order.nextBoolean();
        expected.add((baselineFirst ? "baseline " : "candidate ") + w);
        expected.add((baselineFirst ? "candidate " : "baseline ") + w);
      }
    }
    assertEquals(expected, d.order());
    List<String> first = d.runs().get(d.order().indexOf("candidate workloada"));
    String label = first.get(first.indexOf("--label") + 1);
    assertTrue(label.matches("regress-\\d{8}T\\d{6}Z-fake-core-candidate-17"), label);
    assertEquals(List.of("HOME/ybbench", "fake", "workloada", "--db-version", "17", "--records", "20000",
        "--duration", "5", "--phase", "both", "--label", label, "--results-dir", "HOME/results", "--target", "500"),
        first, "the benchmark through ./ybbench, the suite's arguments, the side's");
    assertEquals(1, d.compares().size(), "one comparison after the rounds");
    assertEquals(List.of("--threshold", "5", "--results-dir", "HOME/results"), d.compares().get(0).subList(2, 6));
    assertTrue(d.compares().get(0).get(1).equals(label), d.compares().toString());
    assertTrue(d.out().startsWith("Suite fake-core: 2 rounds, the sides in a random order each round; labels "),
        d.out());

    Done again = regress("--suite", "fake-core", "--workloads", "workloada,workloadc", "--repeat", "2",
        "--baseline-version", "16", "--candidate-version", "17", "--seed", "7");
    assertEquals(d.order(), again.order(), "the same seed, the same order");
  }

  @Test
  void aSequencedSuiteRunsItsSequenceOnceASideEachRoundAndItsWorkloadsAloneWhenNamed() throws Exception {
    Done d = regress("--suite", "fake-seq", "--repeat", "2", "--baseline-version", "16", "--candidate-version", "17",
        "--seed", "7", "--duration", "5");
    assertEquals(0, d.exitCode(), d.out());
    Random order = new Random(7);
    List<String> expected = new ArrayList<>();
    for (int round = 0; round < 2; round++) {
      boolean baselineFirst = order.nextBoolean();
      expected.add((baselineFirst ? "baseline " : "candidate ") + "seq");
      expected.add((baselineFirst ? "candidate " : "baseline ") + "seq");
    }
    assertEquals(expected, d.order(), "one invocation a side a round, the sides in the seed's order");
    List<String> first = d.runs().get(d.order().indexOf("candidate seq"));
    assertEquals(List.of("HOME/ybbench", "fake", "seq", "--db-version", "17", "--records", "20000", "--duration", "5",
        "--label"), first.subList(0, 10));
    assertTrue(d.out().contains("[round 1, baseline] the fake-seq sequence (workloada, workloadb, workloadc, "
        + "workloadd)"), d.out());
    Done plan = regress("--suite", "fake-seq", "--baseline-version", "16", "--candidate-version", "17", "--dry-run");
    assertEquals(0, plan.exitCode(), plan.out());
    assertTrue(plan.out().contains("Suite fake-seq: 3 rounds of 8 runs, at least 3 min 00 s of phases"), plan.out());
    Done named = regress("--suite", "fake-seq", "--workloads", "workloadc", "--repeat", "1", "--baseline-version",
        "16", "--candidate-version", "17");
    assertEquals(List.of("workloadc", "workloadc"), named.runs().stream().map(r -> r.get(2)).toList());
    Done reused = regress("--suite", "fake-seq", "--baseline-hosts", "a1", "--candidate-hosts", "b1", "--reuse-data");
    assertEquals(2, reused.exitCode(), reused.out());
    assertTrue(reused.out().contains("--reuse-data runs later rounds over the first round's data; fake-seq runs its "
        + "sequence each round, with its own loads: give --workloads to run single workloads over reused data"),
        reused.out());
  }

  @Test
  void reusedDataOnHostsLoadsInTheFirstRoundOnly() throws Exception {
    Done d = regress("--suite", "fake-one", "--repeat", "2", "--baseline-hosts", "a1,a2", "--candidate-hosts",
        "b1", "--reuse-data", "--seed", "1");
    assertEquals(0, d.exitCode(), d.out());
    assertEquals(4, d.runs().size());
    for (List<String> run : d.runs()) {
      boolean firstRound = d.runs().indexOf(run) < 2;
      assertEquals(List.of("HOME/ybbench", "fake", "--config", "HOME/one.xml"), run.subList(0, 4));
      assertEquals(firstRound, run.contains("--create"), run.toString());
      assertTrue(run.contains("a1,a2") || run.contains("b1"), run.toString());
      assertEquals("60", run.get(run.indexOf("--duration") + 1));
    }
    assertTrue(d.out().contains("] the one configuration"), "a run named as its suite names it: " + d.out());
    String label = d.runs().get(0).get(d.runs().get(0).indexOf("--label") + 1);
    assertTrue(label.matches("regress-\\d{8}T\\d{6}Z-fake-one-(baseline|candidate)"), "two clusters: the side names the "
        + "label: " + label);
  }

  @Test
  void untilDecidedLooksAfterEveryRoundWithinTheBudget() throws Exception {
    // 2 workloads x 2 sides x 10 s = 40 s a round; 200 s of budget: at most 5 rounds.
    Done d = regress(new ArrayDeque<>(), new ArrayDeque<>(List.of(3, 3, 0)), 10, "--suite", "fake-core",
        "--workloads", "workloadb,workloadd", "--repeat", "2", "--until-decided", "--budget", "200s",
        "--baseline-version", "4.1", "--candidate-version", "5.0");
    assertEquals(0, d.exitCode(), d.out());
    assertTrue(d.out().contains("Until decided: 40 s a round, at most 5 rounds in the 200s budget"), d.out());
    assertEquals(List.of("--looks", "2-5"), d.compares().get(0).subList(6, 8));
    assertEquals(3, d.compares().size(), "looks after rounds 2, 3 and 4: decided at the third");
    assertEquals(4 * 4, d.runs().size());

    Done spent = regress(new ArrayDeque<>(), new ArrayDeque<>(List.of(3, 3, 3, 3, 3)), 10, "--suite", "fake-core",
        "--workloads", "workloadc", "--repeat", "1", "--until-decided", "--budget", "1m", "--baseline-version",
        "16", "--candidate-version", "17", "--undecided", "fail");
    // 20 s a round, 60 s: at most 3 rounds; the final look covers the rounds run.
    assertTrue(spent.out().contains("Budget spent after 3 rounds (60 s)"), spent.out());
    assertEquals(List.of("--undecided", "fail", "--looks", "1-3"),
        spent.compares().get(spent.compares().size() - 1).subList(6, 10));
    assertEquals(3, spent.exitCode(), "the comparison's code");
  }

  @Test
  void aRunThatDidNotCompleteStopsTheSuiteUnlessIncompleteRunsAreAccepted() throws Exception {
    Done stopped = regress(new ArrayDeque<>(List.of(0, 1)), new ArrayDeque<>(), 10, "--suite", "fake-core",
        "--workloads", "workloada", "--baseline-version", "16", "--candidate-version", "17");
    assertEquals(2, stopped.exitCode());
    assertEquals(2, stopped.runs().size(), "nothing after the failed run");
    assertTrue(stopped.out().contains("state: failed (why)"), stopped.out());
    assertTrue(stopped.out().contains("error: a run of the suite did not complete (exit 1); fix the cause, or pass "
        + "--include-incomplete"), stopped.out());
    assertTrue(stopped.compares().isEmpty());

    Done goesOn = regress(new ArrayDeque<>(List.of(0, 1)), new ArrayDeque<>(), 10, "--suite", "fake-core",
        "--workloads", "workloada", "--baseline-version", "16", "--candidate-version", "17", "--include-incomplete");
    assertEquals(0, goesOn.exitCode(), goesOn.out());
    assertEquals(6, goesOn.runs().size());
    assertTrue(goesOn.out().contains("warning: state: failed (why)"), goesOn.out());
    assertTrue(goesOn.compares().get(0).contains("--include-incomplete"));
  }

  /** Both sides' plans, by each benchmark's own dry run, and the suite's time; nothing runs. */
  @Test
  void aDryRunPrintsBothSidesPlansAndTheSuitesTime() throws Exception {
    Done d = regress("--suite", "fake-core", "--workloads", "workloada,workloadc", "--repeat", "3",
        "--baseline-version", "16", "--candidate-version", "17", "--duration", "40", "--dry-run");
    assertEquals(0, d.exitCode(), d.out());
    assertTrue(d.runs().isEmpty() && d.compares().isEmpty(), "nothing ran");
    List<String> lines = d.out().lines().toList();
    assertEquals("[baseline] workloada:", lines.get(0));
    assertEquals("Plan (nothing started):", lines.get(1));
    assertEquals("  target: fake 16, TLS off", lines.get(2));
    int candidate = lines.indexOf("[candidate] workloada, where its plan differs:");
    assertEquals("  target: fake 17, TLS off", lines.get(candidate + 1));
    assertTrue(lines.get(candidate + 2).startsWith("  command: ./run_fake.sh workloada --db-version 17 --records "
        + "20000 --duration 40 --phase both --label regress-"), lines.get(candidate + 2));
    assertFalse(lines.subList(candidate, lines.indexOf("[baseline] workloadc:")).contains("  database: fake as tester"),
        "a line both sides share is said once: " + d.out());
    // 3 rounds x 2 workloads x 2 sides x 40 s.
    assertEquals("Suite fake-core: 3 rounds of 4 runs, at least 8 min 00 s of phases, plus each run's load, whose "
        + "time only the runs can tell; nothing started", lines.get(lines.size() - 1));

    Done reused = regress("--suite", "fake-one", "--repeat", "2", "--baseline-hosts", "a1", "--candidate-hosts",
        "b1", "--reuse-data", "--until-decided", "--dry-run");
    assertEquals(0, reused.exitCode(), reused.out());
    assertTrue(reused.out().contains("  (rounds after the first only run, over the data the first loaded)"),
        reused.out());
    assertTrue(reused.out().strip().endsWith("Suite fake-one: 2 rounds of 2 runs, at least 4 min 00 s of phases, plus "
        + "each run's load, whose time only the runs can tell; then a round at a time until every headline is "
        + "decided, within the budget of 20m; nothing started"), reused.out());

    Done refused = regress("--suite", "fake-one", "--baseline-hosts", "a1", "--candidate-hosts", "refused",
        "--dry-run");
    assertEquals(2, refused.exitCode(), refused.out());
    assertEquals("error: the candidate's run of the one configuration: the fake refuses these hosts",
        refused.out().lines().filter(l -> l.startsWith("error:")).findFirst().orElse(refused.out()));
    Done labels = regress("--baseline-label", "a", "--candidate-label", "b", "--dry-run");
    assertEquals(2, labels.exitCode(), labels.out());
    Done bisect = regress("--suite", "fake-core", "--bisect", "--versions", "16,17", "--dry-run");
    assertEquals(2, bisect.exitCode(), bisect.out());
  }

  @Test
  void labelsAloneCompareWhatIsThere() throws Exception {
    Done d = regress("--baseline-label", "pg16", "--candidate-label", "pg17", "--gate", "p99");
    assertTrue(d.runs().isEmpty());
    assertEquals(List.of(List.of("pg16", "pg17", "--threshold", "5", "--results-dir", "HOME/results", "--gate",
        "p99")), d.compares());
  }

  @Test
  void badInputIsOneLineBeforeAnythingRuns() throws Exception {
    String[][] cases = {
        {"--baseline-version", "16", "--candidate-version", "17"},
        {"--suite", "fake-extra", "--baseline-version", "16", "--candidate-version", "17"},
        {"--suite", "fake-core", "--baseline-version", "16"},
        {"--suite", "fake-core", "--baseline-version", "16", "--candidate-version", "17", "--candidate-hosts", "h"},
        {"--suite", "fake-core"},
        {"--suite", "fake-core", "--baseline-version", "16", "--candidate-version", "17", "--budget", "soon"},
        {"--suite", "fake-core", "--baseline-version", "16", "--candidate-version", "17", "--repeat", "0"},
        {"--suite", "fake-one", "--baseline-version", "16", "--candidate-version", "17", "--workloads", "a"},
        {"--suite", "fake-core", "--baseline-version", "16", "--candidate-version", "17", "--workloads", "nope"},
        {"--baseline-label", "pg16"},
        // compare.sh's flags, refused before the suite runs rather than by compare.sh after it.
        {"--suite", "fake-core", "--baseline-version", "16", "--candidate-version", "17", "--threshold", "0"},
        {"--suite", "fake-core", "--baseline-version", "16", "--candidate-version", "17", "--gate", "p42"},
    };
    String[] said = {
        "error: --suite is missing: fake-core, fake-one or fake-seq",
        "error: unknown suite 'fake-extra': use fake-core, fake-one or fake-seq",
        "error: give both --baseline-version and --candidate-version",
        "error: give versions or hosts, not both",
        "error: name the two sides: --baseline-version/--candidate-version, --baseline-hosts/--candidate-hosts or "
            + "labels",
        "error: --budget must be a duration such as 20m, 1h or 900s, was 'soon'",
        "error: --repeat must be a whole number of at least 1, was '0'",
        "error: --workloads: fake-one runs one configuration; leave it out",
        "error: --workloads: no workload file workloads/nope",
        "error: give both --baseline-label and --candidate-label",
        "error: --threshold must be above 0 %, was 0.0",
        "error: --gate must be one of p50, p95, p99, p99.9, was p42",
    };
    for (int i = 0; i < cases.length; i++) {
      Done d = regress(cases[i]);
      assertEquals(2, d.exitCode(), String.join(" ", cases[i]));
      assertTrue(d.out().strip().equals(said[i]), "'" + d.out() + "' for " + String.join(" ", cases[i]));
      assertTrue(d.runs().isEmpty() && d.compares().isEmpty());
    }
    assertEquals(3600, Regress.seconds("1h"));
    assertEquals(1200, Regress.seconds("20m"));
    assertEquals(90, Regress.seconds("90s"));
    assertEquals(900, Regress.seconds("900"));
  }

  /** Builds whose label names a version at or after {@code firstBad} are slower than those before: regression. */
  private Done bisect(String firstBad, String... args) throws Exception {
    Files.createDirectories(home.resolve("workloads"));
    Files.writeString(home.resolve("workloads").resolve("workloadc"), "");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    List<List<String>> runs = new ArrayList<>();
    List<List<String>> compares = new ArrayList<>();
    Regress r = new Regress(new Console(print), home).with(cmd -> {
      runs.add(cmd.stream().map(a -> a.replace(home.toString(), "HOME")).toList());
      // A deploy command's last line: what its last echo prints.
      return new Regress.Outcome(0, cmd.get(0).equals("bash") ? List.of(cmd.get(2).replaceFirst(".*echo ", ""))
          : List.of());
    }, a -> {
      compares.add(a);
      String base = a.get(0).replaceFirst(".*-baseline-", "");
      String cand = a.get(1).replaceFirst(".*-candidate-", "");
      boolean before = Double.parseDouble(base) < Double.parseDouble(firstBad);
      boolean after = Double.parseDouble(cand) >= Double.parseDouble(firstBad);
      return before && after ? Compare.REGRESSION : 0;
    }, () -> 0);
    int rc = r.execute(args, print);
    return new Done(rc, out.toString(StandardCharsets.UTF_8), runs, compares);
  }

  @Test
  void bisectionFindsTheFirstBadBuildInAFewStepsAndComparesItWithTheOneBefore() throws Exception {
    String[] args = {"--suite", "fake-core", "--workloads", "workloadc", "--bisect", "--versions", "13,14,15,16,17",
        "--repeat", "2", "--seed", "3"};
    Done d = bisect("16", args);
    assertEquals(Compare.REGRESSION, d.exitCode(), d.out());
    // 17 against 13: bad; 15 against 13: good; 16 against 15: bad, and 15 is just before it.
    assertEquals(List.of("13/17", "13/15", "15/16"), d.compares().stream().map(a -> a.get(0).replaceFirst(
        ".*-baseline-", "") + "/" + a.get(1).replaceFirst(".*-candidate-", "")).toList());
    assertTrue(d.out().contains("First bad build: 16 (last good: 15), 3 steps, 12 runs; judging every build against "
        + "the one before it would take at least 16 runs (4 steps of 2 rounds)"), d.out());
    List<String> first = d.runs().get(0);
    assertEquals("--db-version", first.get(3), first.toString());
    assertTrue(first.get(first.indexOf("--label") + 1).matches("bisect-\\d{8}T\\d{6}Z-fake-core-step1-(baseline-13|"
        + "candidate-17)"), first.toString());
    // Each step is decided until decided: its comparisons are repeated looks.
    assertTrue(d.compares().get(0).contains("--looks"), d.compares().get(0).toString());

    // The first good one found last: 14 bad against 13, and already compared with 13 at its step.
    Done early = bisect("14", args);
    assertTrue(early.out().contains("First bad build: 14 (last good: 13), 3 steps"), early.out());

    Done none = bisect("99", args);
    assertEquals(0, none.exitCode(), none.out());
    assertTrue(none.out().contains("No regression from 13 to 17: nothing to bisect (4 runs)"), none.out());
  }

  @Test
  void aVersionsFileGivesEachBuildItsOwnFlagsAndADeployCommandItsHosts() throws Exception {
    Path file = home.resolve("builds.txt");
    Files.writeString(file, "# release order\n13\n14\n15 --db-setting enable_indexscan=off   # the change\n");
    Done d = bisect("15", "--suite", "fake-core", "--workloads", "workloadc", "--bisect", "--versions-file",
        file.toString(), "--repeat", "2", "--deploy-cmd", "echo deploying {version}; echo h{version}:5433");
    assertEquals(Compare.REGRESSION, d.exitCode(), d.out());
    List<String> deploys = d.runs().stream().filter(r -> r.get(0).equals("bash")).map(r -> r.get(2)).toList();
    assertEquals(List.of("echo deploying 13; echo h13:5433", "echo deploying 15; echo h15:5433",
        "echo deploying 14; echo h14:5433"), deploys, "once per build");
    List<String> fifteen = d.runs().stream().filter(r -> r.contains("--label") && r.get(r.indexOf("--label") + 1)
        .endsWith("-15")).findFirst().orElseThrow();
    assertEquals(List.of("--db-setting", "enable_indexscan=off"), fifteen.subList(fifteen.size() - 2,
        fifteen.size()));
    assertTrue(fifteen.contains("--hosts") && fifteen.get(fifteen.indexOf("--hosts") + 1).equals("h15:5433"),
        fifteen.toString());
  }

  @Test
  void aBisectionRefusesWhatItCannotSearch() throws Exception {
    String[][] cases = {
        {"--suite", "fake-core", "--bisect"},
        {"--suite", "fake-core", "--bisect", "--versions", "16,17"},
        {"--suite", "fake-core", "--bisect", "--versions", "15,16,15"},
        {"--suite", "fake-core", "--bisect", "--versions", "15,16,17", "--baseline-version", "15"},
        {"--suite", "fake-core", "--bisect", "--versions", "15,16,17", "--candidate-args", "--target 5"},
        {"--suite", "fake-core", "--versions", "15,16,17"},
        {"--suite", "fake-core", "--bisect", "--versions", "15,16,17", "--repeat", "1"},
    };
    String[] said = {
        "error: --bisect needs the builds in release order: --versions V1,V2,… or --versions-file FILE",
        "error: --bisect needs at least three builds to search between (2 given); for two, compare them: "
            + "--baseline-version/--candidate-version",
        "error: --bisect: a build is named twice in [15, 16, 15]",
        "error: --bisect takes its sides from --versions (or --versions-file), not from --baseline-*/--candidate-*",
        "error: --bisect runs every build alike: a build's own flags go after it in --versions-file, not in "
            + "--baseline-args/--candidate-args",
        "error: --versions, --versions-file and --deploy-cmd go with --bisect",
        "error: --bisect needs --repeat of at least 2 rounds a step (a step is decided on how its rounds differ), "
            + "was 1",
    };
    for (int i = 0; i < cases.length; i++) {
      Done d = regress(cases[i]);
      assertEquals(2, d.exitCode(), String.join(" ", cases[i]));
      assertEquals(said[i], d.out().strip(), String.join(" ", cases[i]));
    }
  }
}
