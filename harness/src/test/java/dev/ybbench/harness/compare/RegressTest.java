package dev.ybbench.harness.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * the looks until decided within a budget, and each refusal.
 */
class RegressTest {
  @TempDir
  Path home;

  /** What a regress command did: its exit code, output, the runs it started and the comparisons it made. */
  record Done(int exitCode, String out, List<List<String>> runs, List<List<String>> compares) {
    /** "baseline workloada", … in the order run. */
    List<String> order() {
      return runs.stream().map(r -> (r.stream().anyMatch(a -> a.contains("-baseline-")) ? "baseline " : "candidate ")
          + r.get(1)).toList();
    }
  }

  private Done regress(Deque<Integer> runCodes, Deque<Integer> compareCodes, long secondsPerRun, String... args)
      throws Exception {
    Files.createDirectories(home.resolve("workloads"));
    for (String w : RegressSuite.CORE_WORKLOADS) {
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
    Done d = regress("--suite", "ycsb-core", "--workloads", "workloada,workloadc", "--repeat", "2",
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
    assertTrue(label.matches("regress-\\d{8}T\\d{6}Z-ycsb-core-candidate-17"), label);
    assertEquals(List.of("HOME/run_ycsb.sh", "workloada", "--api", "ysql", "--db-version", "17", "--records", "20000",
        "--duration", "5", "--phase", "both", "--label", label, "--results-dir", "HOME/results", "--target", "500"),
        first);
    assertEquals(1, d.compares().size(), "one comparison after the rounds");
    assertEquals(List.of("--threshold", "5", "--results-dir", "HOME/results"), d.compares().get(0).subList(2, 6));
    assertTrue(d.compares().get(0).get(1).equals(label), d.compares().toString());
    assertTrue(d.out().startsWith("Suite ycsb-core: 2 rounds, the sides in a random order each round; labels "),
        d.out());

    Done again = regress("--suite", "ycsb-core", "--workloads", "workloada,workloadc", "--repeat", "2",
        "--baseline-version", "16", "--candidate-version", "17", "--seed", "7");
    assertEquals(d.order(), again.order(), "the same seed, the same order");
  }

  @Test
  void reusedDataOnHostsLoadsInTheFirstRoundOnlyAndTpccRunsItsTinyConfig() throws Exception {
    Done d = regress("--suite", "tpcc-small", "--repeat", "2", "--baseline-hosts", "a1,a2", "--candidate-hosts",
        "b1", "--reuse-data", "--seed", "1");
    assertEquals(0, d.exitCode(), d.out());
    assertEquals(4, d.runs().size());
    for (List<String> run : d.runs()) {
      boolean firstRound = d.runs().indexOf(run) < 2;
      assertEquals(List.of("HOME/run_tpcc.sh", "--config", "HOME/tpcc/config/tiny.xml"), run.subList(0, 3));
      assertEquals(firstRound, run.contains("--create"), run.toString());
      assertTrue(run.contains("a1,a2") || run.contains("b1"), run.toString());
      assertEquals("60", run.get(run.indexOf("--duration") + 1));
    }
  }

  @Test
  void untilDecidedLooksAfterEveryRoundWithinTheBudget() throws Exception {
    // 2 workloads x 2 sides x 10 s = 40 s a round; 200 s of budget: at most 5 rounds.
    Done d = regress(new ArrayDeque<>(), new ArrayDeque<>(List.of(3, 3, 0)), 10, "--suite", "ycql-core",
        "--workloads", "workloadb,workloadd", "--repeat", "2", "--until-decided", "--budget", "200s",
        "--baseline-version", "4.1", "--candidate-version", "5.0");
    assertEquals(0, d.exitCode(), d.out());
    assertTrue(d.out().contains("Until decided: 40 s a round, at most 5 rounds in the 200s budget"), d.out());
    assertEquals(List.of("--looks", "2-5"), d.compares().get(0).subList(6, 8));
    assertEquals(3, d.compares().size(), "looks after rounds 2, 3 and 4: decided at the third");
    assertEquals(4 * 4, d.runs().size());
    assertEquals("ycql", d.runs().get(0).get(3));

    Done spent = regress(new ArrayDeque<>(), new ArrayDeque<>(List.of(3, 3, 3, 3, 3)), 10, "--suite", "ycsb-core",
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
    Done stopped = regress(new ArrayDeque<>(List.of(0, 1)), new ArrayDeque<>(), 10, "--suite", "ycsb-core",
        "--workloads", "workloada", "--baseline-version", "16", "--candidate-version", "17");
    assertEquals(2, stopped.exitCode());
    assertEquals(2, stopped.runs().size(), "nothing after the failed run");
    assertTrue(stopped.out().contains("state: failed (why)"), stopped.out());
    assertTrue(stopped.out().contains("error: a run of the suite did not complete (exit 1); fix the cause, or pass "
        + "--include-incomplete"), stopped.out());
    assertTrue(stopped.compares().isEmpty());

    Done goesOn = regress(new ArrayDeque<>(List.of(0, 1)), new ArrayDeque<>(), 10, "--suite", "ycsb-core",
        "--workloads", "workloada", "--baseline-version", "16", "--candidate-version", "17", "--include-incomplete");
    assertEquals(0, goesOn.exitCode(), goesOn.out());
    assertEquals(6, goesOn.runs().size());
    assertTrue(goesOn.out().contains("warning: state: failed (why)"), goesOn.out());
    assertTrue(goesOn.compares().get(0).contains("--include-incomplete"));
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
        {"--suite", "ycsb-extra", "--baseline-version", "16", "--candidate-version", "17"},
        {"--suite", "ycsb-core", "--baseline-version", "16"},
        {"--suite", "ycsb-core", "--baseline-version", "16", "--candidate-version", "17", "--candidate-hosts", "h"},
        {"--suite", "ycsb-core"},
        {"--suite", "ycsb-core", "--baseline-version", "16", "--candidate-version", "17", "--budget", "soon"},
        {"--suite", "ycsb-core", "--baseline-version", "16", "--candidate-version", "17", "--repeat", "0"},
        {"--suite", "tpcc-small", "--baseline-version", "16", "--candidate-version", "17", "--workloads", "a"},
        {"--suite", "ycsb-core", "--baseline-version", "16", "--candidate-version", "17", "--workloads", "nope"},
        {"--baseline-label", "pg16"},
    };
    String[] said = {
        "error: --suite is missing: ycsb-core, ycql-core or tpcc-small",
        "error: unknown suite 'ycsb-extra': use ycsb-core, ycql-core or tpcc-small",
        "error: give both --baseline-version and --candidate-version",
        "error: give versions or hosts, not both",
        "error: name the two sides: --baseline-version/--candidate-version, --baseline-hosts/--candidate-hosts or "
            + "labels",
        "error: --budget must be a duration such as 20m, 1h or 900s, was 'soon'",
        "error: --repeat must be a whole number of at least 1, was '0'",
        "error: --workloads is for the YCSB suites; tpcc-small runs one configuration",
        "error: --workloads: no workload file workloads/nope",
        "error: give both --baseline-label and --candidate-label",
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
}
