package dev.ybbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.analysis.history.Confirmation;
import dev.ybbench.analysis.history.HistoryRuns;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare.sh --history --confirm on hand-made runs: a history of ten runs 2.6 % apart, and a
 * candidate whose runs again are made here as the test says. A one-night dip is run again and
 * cleared; a real drop is confirmed on its second look; a run at the history's level is decided
 * on its first and run no more. A drop while the machine's probe dropped too says so.
 */
class ConfirmTest {
  /** The history's logs around ln 1000: their standard deviation is 0.0258. */
  private static final double[] HISTORY = {0, 0.04, -0.04, 0.02, -0.02, 0.03, -0.03, 0.01, -0.01, 0};

  @TempDir
  Path results;

  private Path db;
  private int counter;

  /** Whether the next runs started an embedded server (so that their build can run beside another). */
  private boolean embedded;

  /** The CPU probe the next runs record (units/s). */
  private double cpu = 1_000_000;

  /** A run of workloada at {@code throughput} ops/s, 60 s, of label {@code label}. */
  private Path run(String label, double throughput) throws Exception {
    Path dir = results.resolve(String.format("20260101T00%02d00Z_ycsb_workloada_PostgreSQL-17.11", counter++));
    Files.createDirectories(dir);
    ObjectNode info = RunDirectory.JSON.createObjectNode();
    info.put("bench", "ycsb").put("workload", "workloada").put("state", "complete");
    if (label != null) {
      info.put("label", label);
    }
    info.putObject("server").put("product", "PostgreSQL").put("version", "17.11").put("embedded", embedded);
    info.putObject("host").put("name", "host-1").put("cores", 2);
    info.putObject("parameters").put("recordcount", "1000").put("threadcount", "4");
    info.putArray("command").add("workloada");
    info.putObject("probe").put("cpu_units_per_s", cpu).put("loopback_rtt_us", 20.0);
    RunDirectory.JSON.writeValue(dir.resolve("run.json").toFile(), info);
    long n = (long) (throughput * 60);
    OperationResult read = new OperationResult(n, 0, Map.of(), 0, throughput,
        new LatencyPercentiles(n, null, 250L, null, 500L, 1000L, 2000L, null, null));
    RunSummary s = RunSummary.start("ycsb", "workloada", new ServerInfo("PostgreSQL", "17.11", ""))
        .withPhase("run", PhaseResult.ofOperations(Map.of("READ", read), 60, List.of())).withState("complete", null);
    RunDirectory.JSON.writeValue(dir.resolve("summary.json").toFile(), s);
    return dir;
  }

  @BeforeEach
  void history() throws Exception {
    history("history.db");
  }

  private void history(String file) throws Exception {
    db = results.resolve(file);
    for (double x : HISTORY) {
      assertEquals(0, HistoryRuns.record(db.toString(), run(null, 1000 * Math.exp(x)), 0, line -> { }));
    }
  }

  private record Outcome(int exitCode, String out, List<Double> rerun) {}

  /** compare.sh --history --confirm 4 --threshold 10 on {@code first}, its runs again at {@code again}. */
  private Outcome confirm(double first, double... again) throws Exception {
    List<Double> made = new ArrayList<>();
    return confirm(first, command -> {
      double next = again[made.size()];
      made.add(next);
      return next;
    }, made, List.of());
  }

  /**
   * The same, each run again (or control round) at what {@code at} says of its command, and
   * {@code more} flags after compare.sh's.
   */
  private Outcome confirm(double first, java.util.function.ToDoubleFunction<Confirmation.Command> at,
      List<Double> made, List<String> more) throws Exception {
    run("night", first);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Compare c = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), results)
        .rerunningWith(command -> {
          List<String> a = command.args();
          int label = a.lastIndexOf("--label");
          return run(label < 0 ? null : a.get(label + 1), at.applyAsDouble(command));
        });
    List<String> args = new ArrayList<>(List.of("--history", db.toString(), "--confirm", "4", "--threshold", "10",
        "night", "--results-dir", results.toString()));
    args.addAll(more);
    int rc = c.execute(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    System.out.println(text);
    return new Outcome(rc, text, made);
  }

  @Test
  void aRunAgainIsItsCommandNeitherConfirmedNorRecordedAgain() throws Exception {
    ObjectNode info = RunDirectory.JSON.createObjectNode().put("bench", "ycsb");
    info.putArray("command").add("workloadc").add("--history").add("h.db").add("--confirm=3").add("--label")
        .add("night");
    Confirmation.Command c = Confirmation.command(info, "run-1");
    assertEquals(List.of("workloadc", "--label", "night"), c.args());
    assertEquals(List.of("workloadc", "--label", "control-night", "--hosts", "10.0.0.9"),
        c.forControl("control-night", "10.0.0.9").args());
    info.withArray("command").add("--password").add("***");
    assertEquals("--confirm runs run-1 again, but its command gave a password, which run.json does not keep: give it "
        + "in the environment (YSQL_PASSWORD, YCQL_PASSWORD) for its runs", org.junit.jupiter.api.Assertions
        .assertThrows(dev.ybbench.harness.UserError.class, () -> Confirmation.command(info, "run-1")).getMessage());
  }

  @Test
  void aOneNightDipIsRunAgainAndNotCalledARegression() throws Exception {
    Outcome o = confirm(860, 1000, 1000, 1000, 1000);
    assertTrue(o.out().startsWith("[confirm] look 1 of 5: ycsb/workloada regression -14.0 %; running "), o.out());
    // Look 2 (−7.3 %) and look 3 (−4.9 %) are undecided; at look 4 the four runs are within ±10 %.
    assertTrue(o.out().contains("[confirm] look 3 of 5: ycsb/workloada inconclusive -4.9 %; running "), o.out());
    assertEquals(0, o.exitCode(), o.out());
    assertEquals(List.of(1000.0, 1000.0, 1000.0), o.rerun());
    assertTrue(o.out().contains("confirmation: look 4 of at most 5, 4 runs of the candidate; each look at 98.4 % so "
        + "that all 5 hold 95 %"), o.out());
  }

  @Test
  void aRealDropIsConfirmedOnItsSecondLook() throws Exception {
    Outcome o = confirm(700, 705, 700, 700, 700);
    assertEquals(Compare.REGRESSION, o.exitCode(), o.out());
    assertEquals(List.of(705.0), o.rerun(), "one run again confirmed it");
    assertTrue(o.out().contains("confirmation: look 2 of at most 5, 2 runs of the candidate"), o.out());
    assertTrue(o.out().contains("control: ycsb/workloada's previous build (17.11) ran on nodes of its own, which "
        + "cannot run beside the candidate here: give them with --baseline-hosts (or --deploy-cmd), or run "
        + "regress.sh"), o.out());
    // Runs one after another cannot tell the build from the machine; the probe held, and it says what can.
    assertTrue(o.out().contains("note: judged against runs made before it, one after another: a slowdown of this "
        + "machine or cluster during the candidate's runs cannot be ruled out (its probe did not move; runs "
        + "interleaved with the previous build can: regress.sh)"), o.out());
  }

  /** Values a control round's runs take, by side, in turn. */
  private static java.util.function.ToDoubleFunction<Confirmation.Command> rounds(double[] again, double[] previous,
      double[] control) {
    int[] next = new int[3];
    return command -> {
      String label = command.args().get(command.args().lastIndexOf("--label") + 1);
      int side = label.endsWith("-previous") ? 1 : label.startsWith("control-") ? 2 : 0;
      double[] values = side == 0 ? again : side == 1 ? previous : control;
      return values[next[side]++];
    };
  }

  @Test
  void aMachineDipIsToldFromTheBuildByTheControl() throws Exception {
    embedded = true;
    history("embedded.db");
    // The machine dipped all night: the candidate's runs, and the previous build's beside them.
    Outcome o = confirm(860, rounds(new double[] {858, 862, 860, 861}, new double[] {859, 861, 860},
        new double[] {860, 858, 862}), new ArrayList<>(), List.of());
    assertTrue(o.out().contains("[control] round 1 of 3: night against its previous build 17.11, previous first"),
        o.out());
    assertTrue(o.out().contains("[control] round 2 of 3: night against its previous build 17.11, candidate first"),
        o.out());
    assertTrue(o.out().contains("control: 3 interleaved rounds against the previous build, judged paired by round:"),
        o.out());
    assertEquals(0, o.exitCode(), o.out());
    // Their commands record nothing in the history and carry labels of their own.
    assertTrue(Files.list(results).anyMatch(d -> d.getFileName().toString().contains("_ycsb_")
        && readLabel(d).equals("control-night-previous")), "the previous build's control runs");
  }

  @Test
  void thePreviousBuildOfNodesOfItsOwnIsDeployedForTheControl() throws Exception {
    List<List<String>> previous = new ArrayList<>();
    java.util.function.ToDoubleFunction<Confirmation.Command> values = rounds(new double[] {858, 862, 860, 861},
        new double[] {859, 861, 860}, new double[] {860, 858, 862});
    Outcome o = confirm(860, command -> {
      if (command.args().contains("control-night-previous")) {
        previous.add(command.args());
      }
      return values.applyAsDouble(command);
    }, new ArrayList<>(), List.of("--deploy-cmd", "echo deploying {version} >&2; echo 10.0.0.7:5433"));
    // Deployed once, for the three rounds; its printed hosts are the previous build's.
    assertEquals(1, o.out().split("Deploying 17.11: echo deploying 17.11 >&2; echo 10.0.0.7:5433", -1).length - 1,
        o.out());
    assertEquals(3, previous.size(), o.out());
    previous.forEach(a -> assertEquals("10.0.0.7:5433", a.get(a.indexOf("--hosts") + 1), a.toString()));
    assertEquals(0, o.exitCode(), o.out());
    // A command that prints no hosts stops the control, naming itself.
    Outcome failed = confirm(860, rounds(new double[] {858, 862, 860, 861}, new double[0], new double[0]),
        new ArrayList<>(), List.of("--deploy-cmd", "exit 3"));
    assertEquals(2, failed.exitCode(), failed.out());
    assertTrue(failed.out().contains("error: --deploy-cmd for 17.11 exited 3 and printed no hosts; it must print the "
        + "cluster's hosts (host[:port],…) on its last line"), failed.out());
  }

  @Test
  void aRealRegressionSurvivesTheControl() throws Exception {
    embedded = true;
    history("embedded.db");
    Outcome o = confirm(700, rounds(new double[] {705, 700, 700, 700}, new double[] {1000, 1004, 998},
        new double[] {702, 699, 701}), new ArrayList<>(), List.of());
    assertTrue(o.out().contains("control: 3 interleaved rounds against the previous build"), o.out());
    assertEquals(Compare.REGRESSION, o.exitCode(), o.out());
    // --control-rounds 0: the history's verdict stands, no round run.
    embedded = true;
    Outcome none = confirm(700, rounds(new double[] {705, 700}, new double[0], new double[0]), new ArrayList<>(),
        List.of("--control-rounds", "0"));
    assertEquals(Compare.REGRESSION, none.exitCode(), none.out());
    assertTrue(!none.out().contains("[control]"), none.out());
  }

  private static String readLabel(Path dir) {
    try {
      return RunDirectory.JSON.readTree(dir.resolve("run.json").toFile()).path("label").asText("");
    } catch (java.io.IOException e) {
      return "";
    }
  }

  @Test
  void aRunSlowerWhileTheMachinesProbeIsSlowerSaysSo() throws Exception {
    cpu = 850_000;
    run("dip", 860);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), results).execute(
        new String[] {"--history", db.toString(), "--threshold", "10", "dip", "--results-dir", results.toString()},
        new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(Compare.REGRESSION, rc, text);
    assertTrue(text.contains("note: ycsb/workloada throughput (ops/s) -14.0 %, and the client machine moved too: its "
        + "CPU probe -15.0 %, loopback round trip +0.0 % in the candidate's runs against the baseline's; a machine "
        + "slowdown during these runs cannot be ruled out"), text);
    // The same run on a machine whose probe held: no such note.
    cpu = 1_000_000;
    run("steady", 860);
    out.reset();
    new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), results).execute(new String[] {
        "--history", db.toString(), "--threshold", "10", "steady", "--results-dir", results.toString()},
        new PrintStream(out, true, StandardCharsets.UTF_8));
    assertTrue(!out.toString(StandardCharsets.UTF_8).contains("client machine moved"), out.toString());
  }

  @Test
  void aDipTheHistorysLastRunsShareIsTheLevelJudgedAgainst() throws Exception {
    for (double x : new double[] {-0.15, -0.16, -0.14}) {
      HistoryRuns.record(db.toString(), run(null, 1000 * Math.exp(x)), 0, line -> { });
    }
    run("in-the-dip", 1000 * Math.exp(-0.15));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), results).execute(
        new String[] {"--history", db.toString(), "--threshold", "10", "in-the-dip", "--results-dir",
            results.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    // Against the ten before the dip it would be −14 %: a regression. Against the level the machine is at, none.
    assertTrue(rc == 0 || rc == Compare.UNDECIDED, text);
    assertTrue(text.contains("history: ycsb/workloada@"), text);
    assertTrue(text.contains("'s last 3 runs sit -13.9 % from the 10 before them, a shift too recent for a change "
        + "point: judged against the level of those 3, with the spread of all 13 runs each around its own level"),
        text);
    Matcher m = Pattern.compile("throughput \\(ops/s\\) ([-+][0-9.]+) %").matcher(text);
    assertTrue(m.find(), text);
    assertEquals(0.0, Double.parseDouble(m.group(1)), 1.5, text);
  }

  @Test
  void aRunAtTheHistorysLevelIsDecidedAtOnce() throws Exception {
    Outcome o = confirm(1000);
    assertEquals(0, o.exitCode(), o.out());
    assertEquals(List.of(), o.rerun());
    assertTrue(o.out().contains("confirmation: look 1 of at most 5, 1 run of the candidate"), o.out());
  }
}
