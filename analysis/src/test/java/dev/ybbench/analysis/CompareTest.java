package dev.ybbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.cli.ShutdownGuard;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.testing.CtrlC;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.xml.parsers.DocumentBuilderFactory;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** compare.sh on synthetic result directories with known values. */
class CompareTest {
  /** The operations TPC-C's headline counts. */
  private static final List<String> NEW_ORDERS = List.of("NewOrder", "NewOrderRollback");

  @TempDir
  Path results;

  private int counter;

  /** A run directory holding the results contract's two JSON files and a timeseries. */
  private Path run(String label, String workload, String version, double throughput, long p99,
      Map<String, String> params) throws Exception {
    return run(label, workload, version, throughput, p99, params, "complete", null);
  }

  private Path run(String label, String workload, String version, double throughput, long p99,
      Map<String, String> params, String state, String reason) throws Exception {
    return run(label, workload, version, throughput, p99, params, state, reason, "host-1");
  }

  private Path run(String label, String workload, String version, double throughput, long p99,
      Map<String, String> params, String state, String reason, String host) throws Exception {
    return run(label, workload, version, throughput, p99, params, state, reason, host, null);
  }

  /**
   * What a run records of its layers: the client's CPU per operation and busy share, the server's
   * mean time of the one statement (one call per operation), retries and 40001 errors per 100 operations.
   */
  private record Layers(double clientUsPerOp, double busyPct, double statementMeanUs, double retriesPct,
      double conflictPct, Map<String, Double> waits, Map<String, Double> workPerCall) {
    Layers(double clientUsPerOp, double busyPct, double statementMeanUs, double retriesPct, double conflictPct) {
      this(clientUsPerOp, busyPct, statementMeanUs, retriesPct, conflictPct, null, null);
    }
  }

  private Path run(String label, String workload, String version, double throughput, long p99,
      Map<String, String> params, String state, String reason, String host, Layers layers) throws Exception {
    Path dir = results.resolve(String.format("20260101T0000%02dZ_ycsb_%s_PostgreSQL-%s", counter++, workload, version));
    Files.createDirectories(dir);
    ObjectNode info = RunDirectory.JSON.createObjectNode();
    info.put("bench", "ycsb").put("workload", workload).put("label", label).put("state", state);
    info.putObject("server").put("product", "PostgreSQL").put("version", version);
    info.putObject("host").put("name", host).put("cores", 2);
    ObjectNode p = info.putObject("parameters");
    p.put("recordcount", "1000").put("threadcount", "4").put("ysql.hosts", "127.0.0.1:" + (5000 + counter));
    params.forEach(p::put);
    RunDirectory.JSON.writeValue(dir.resolve("run.json").toFile(), info);
    long n = (long) (throughput * 60);
    long conflicts = layers == null ? 0 : Math.round(n * layers.conflictPct() / 100);
    OperationResult read = new OperationResult(n, conflicts, conflicts == 0 ? Map.of() : Map.of("sqlstate-40001",
        conflicts), layers == null ? 0 : Math.round(n * layers.retriesPct() / 100), throughput,
        new LatencyPercentiles(n, null, p99 / 4, null, p99 / 2, p99, p99 * 2, null, null));
    PhaseResult phase = PhaseResult.ofOperations(Map.of("READ", read), 60, List.of());
    if (layers != null) {
      double timeMs = n * layers.statementMeanUs() / 1000;
      phase = phase.toBuilder().client(PhaseResult.ClientSide.of(n * layers.clientUsPerOp() / 1e6, n, 2,
          layers.busyPct(), null)).server(new PhaseResult.ServerSide(n, n, 0.0, null, null, List.of(
          new PhaseResult.Statement("SELECT * FROM usertable WHERE ycsb_key = $1", n, n, timeMs,
              layers.statementMeanUs(), 3 * n, 0L, null, null, null, layers.workPerCall(), layers.waits())))).build();
    }
    if (params.containsKey("ybbench.target_ops")) { // as a run under --target records it
      phase = phase.toBuilder().latencyFrom(PhaseResult.INTENDED_START).build();
    }
    RunSummary s = RunSummary.start("ycsb", workload, new ServerInfo("PostgreSQL", version, ""))
        .withPhase("run", phase)
        .withState(state, reason);
    RunDirectory.JSON.writeValue(dir.resolve("summary.json").toFile(), s);
    Files.writeString(dir.resolve("timeseries.csv"), "phase,elapsed_s,throughput_ops,p50_us,p95_us,p99_us,errors,retries\n"
        + "run,1.0," + throughput + ",1,2,3,0,0\nrun,2.0," + throughput + ",1,2,3,0,0\n");
    return dir;
  }

  private record Outcome(int exitCode, String out, String err, Path report) {}

  private Outcome compare(String... args) {
    return compare(() -> false, args);
  }

  /** {@code stopped}: whether Ctrl-C has arrived, asked at each step. */
  private Outcome compare(BooleanSupplier stopped, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Compare c = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), results, stopped);
    String[] all = new String[args.length + 2];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "--results-dir";
    all[args.length + 1] = results.toString();
    int rc = c.execute(all, new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
        c.reportDirectory());
  }

  private void repeated(String label, String version, double[] throughput, long[] p99) throws Exception {
    for (int i = 0; i < throughput.length; i++) {
      run(label, "workloada", version, throughput[i], p99[i], Map.of());
    }
  }

  @Test
  void aThirtyPercentThroughputDropIsARegressionAndTheAnswerComesFirst() throws Exception {
    repeated("a", "16.15", new double[] {1000, 1010, 990}, new long[] {900, 900, 900});
    repeated("b", "17.11", new double[] {700, 707, 693}, new long[] {900, 900, 900});
    Outcome o = compare("a", "b");
    assertEquals(1, o.exitCode(), o.err() + o.out());
    assertTrue(o.out().startsWith("REGRESSION   ycsb/workloada throughput (ops/s) -30.0 % (95 % interval -3"),
        o.out());
    assertTrue(o.out().contains("3 runs a side)"), o.out());
    // The same drop per operation does not gate: it is flagged.
    assertTrue(o.out().contains("suspect      ycsb/workloada READ throughput (ops/s) -30.0 %"), o.out());
    assertTrue(o.out().contains("| workloada | ALL | throughput (ops/s) ★ | 1000 | 700 | -30.0 % |"), o.out());
    assertTrue(o.out().contains("1 regression, 0 headlines undecided"), o.out());
    // a's runs all came first, as before and after an upgrade: the drift between the halves is named.
    assertTrue(o.out().contains("note: every run of one side came before every run of the other (as before and "
        + "after an upgrade): a drift of the machine or cluster between the two halves moves the result as the "
        + "change would."), o.out());
    assertTrue(Files.exists(o.report().resolve("report.md")));
    String html = Files.readString(o.report().resolve("report.html"));
    assertTrue(html.contains("16.15") && html.contains("17.11") && !html.contains("http"), html);
    assertTrue(html.indexOf("REGRESSION") < html.indexOf("<table>") && html.indexOf("<table>") < html.indexOf(
        "<details>"), "the answer, then the table, then the parameters");
    var json = RunDirectory.JSON.readTree(o.report().resolve("comparison.json").toFile());
    assertEquals("regression", json.at("/rows/0/verdict").asText());
    assertTrue(json.at("/rows/0/headline").asBoolean());
    if (gnuplotInstalled()) {
      for (String svg : new String[] {"throughput-workloada.svg", "p99-workloada.svg", "over-time-workloada.svg"}) {
        File f = o.report().resolve(svg).toFile();
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(f); // valid XML
        String text = Files.readString(f.toPath());
        assertTrue(text.contains("16.15") && text.contains("17.11"), svg + " lacks the version labels");
      }
      assertTrue(Files.readString(o.report().resolve("throughput-workloada.svg")).contains("-30.0%"),
          "the change printed over the bars");
    }
  }

  @Test
  void aLatencyRiseGatesOnlyWhenAskedFor() throws Exception {
    repeated("a", "16.15", new double[] {1000, 1010, 990}, new long[] {1000, 1010, 990});
    repeated("b", "17.11", new double[] {1000, 1010, 990}, new long[] {1300, 1313, 1287});
    Outcome o = compare("a", "b");
    assertEquals(0, o.exitCode(), o.out());
    assertTrue(o.out().contains("suspect      ycsb/workloada READ p99 (µs) +30.0 %"), o.out());
    Outcome gated = compare("a", "b", "--gate", "p99");
    assertEquals(1, gated.exitCode(), gated.out());
    assertTrue(gated.out().startsWith("REGRESSION   ycsb/workloada READ p99 (µs) +30.0 %"), gated.out());
    assertEquals(2, compare("a", "b", "--gate", "p98").exitCode());
  }

  /**
   * A candidate throttled under --target measures latency from each operation's intended start;
   * the unpaced baseline from the actual start: not the same quantity, so never tested or flagged.
   */
  @Test
  void latencyFromDifferentOriginsIsShownButNotTested() throws Exception {
    repeated("a", "16.15", new double[] {1000, 1010, 990}, new long[] {900, 910, 890});
    for (double t : new double[] {900, 905, 895}) {
      run("b", "workloada", "17.11", t, 9_000_000, Map.of("ybbench.target_ops", "900"));
    }
    Outcome o = compare("a", "b");
    assertEquals(1, o.exitCode(), o.out());
    assertTrue(o.out().startsWith("REGRESSION   ycsb/workloada throughput (ops/s) -10.0 %"), o.out());
    assertTrue(o.out().lines().findFirst().orElseThrow().contains("; only the candidate ran under a target: its "
        + "throughput is what the target allowed, not what it could do"), o.out());
    assertTrue(o.out().lines().noneMatch(l -> l.startsWith("suspect") && l.contains("(µs)")),
        "no latency row flagged: " + o.out());
    assertTrue(o.out().contains("note: ycsb/workloada latency rows not comparable: the baseline's latency is measured "
        + "from the actual start, the candidate's from the intended start"), o.out());
    assertTrue(o.out().matches("(?s).*\\| workloada \\| READ \\| p99 \\(µs\\), from actual vs intended start \\| 900 "
        + "\\| 9000000 \\| [^|]+ \\| [^|]+ \\| not comparable \\|.*"), o.out());
    var json = RunDirectory.JSON.readTree(o.report().resolve("comparison.json").toFile());
    for (var row : json.get("rows")) {
      if (row.get("metric").asText().endsWith("(µs)")) {
        assertEquals("not comparable", row.get("verdict").asText(), row.toString());
        assertTrue(row.get("q").isNull(), "not counted among the tests: " + row);
      }
    }
    // Gating on a latency measured differently on each side cannot be done: exit 2, fail closed.
    for (double t : new double[] {1000, 1010, 990}) {
      run("c", "workloada", "17.11", t, 900, Map.of("ybbench.target_ops", "1000"));
    }
    Outcome gated = compare("a", "c", "--gate", "p99");
    assertEquals(Compare.CANNOT_COMPARE, gated.exitCode(), gated.out());
    assertTrue(gated.out().contains("CANNOT COMPARE, exit 2"), gated.out());
  }

  private void layered(String label, String version, double[] throughput, Layers... layers) throws Exception {
    for (int i = 0; i < throughput.length; i++) {
      run(label, "workloadc", version, throughput[i], 900, Map.of(), "complete", null, "host-1", layers[i]);
    }
  }

  /** A client that burns twice the CPU per operation at 95 % of its cores, the server's statement unchanged. */
  @Test
  void aClientBoundCandidateIsTracedToTheClient() throws Exception {
    layered("a", "17.11", new double[] {1000, 1010, 990}, new Layers(10, 40, 20, 0, 0), new Layers(10.2, 41, 20.2, 0,
        0), new Layers(9.8, 39, 19.8, 0, 0));
    layered("b", "17.11", new double[] {700, 707, 693}, new Layers(20, 95, 20.1, 0, 0), new Layers(20.4, 96, 19.9, 0,
        0), new Layers(19.6, 94, 20, 0, 0));
    Outcome o = compare("a", "b");
    assertEquals(1, o.exitCode(), o.out());
    String first = o.out().lines().findFirst().orElseThrow();
    assertTrue(first.endsWith(" — where: client CPU per op +100.0 %, busy 95 % of its cores (was 40 %); server time "
        + "per op unchanged"), first);
  }

  private static Layers waited(double meanUs, Map<String, Double> waits, double blocksRead) {
    return new Layers(10, 40, meanUs, 0, 0, waits, Map.of("shared_blks_read", blocksRead, "wal_records", 1.0));
  }

  /**
   * A statement held up behind a lock: its mean ten times longer, and its samples, a few on CPU
   * and on WAL before, mostly waiting on another transaction; its work per call the same.
   */
  @Test
  void aSlowerStatementIsTracedToWhatItWaitedOn() throws Exception {
    layered("a", "17.11", new double[] {1000, 1010, 990},
        waited(50, Map.of("CPU", 40.0, "LWLock:WALWrite", 58.0, "Lock:transactionid", 2.0), 0.5),
        waited(51, Map.of("CPU", 42.0, "LWLock:WALWrite", 55.0, "Lock:transactionid", 3.0), 0.5),
        waited(49, Map.of("CPU", 39.0, "LWLock:WALWrite", 60.0, "Lock:transactionid", 1.0), 0.5));
    layered("b", "17.11", new double[] {500, 505, 495},
        waited(500, Map.of("CPU", 10.0, "LWLock:WALWrite", 30.0, "Lock:transactionid", 60.0), 0.5),
        waited(505, Map.of("CPU", 11.0, "LWLock:WALWrite", 31.0, "Lock:transactionid", 58.0), 0.5),
        waited(495, Map.of("CPU", 9.0, "LWLock:WALWrite", 29.0, "Lock:transactionid", 62.0), 0.5));
    Outcome o = compare("a", "b");
    assertEquals(1, o.exitCode(), o.out());
    String first = o.out().lines().findFirst().orElseThrow();
    assertTrue(first.contains("(SELECT * FROM usertable WHERE ycsb_key = $1: 100 % of it, mean +900.1 %; "
        + "Lock:transactionid 2 % → 60 % of its samples)"), first);
    String md = Files.readString(o.report().resolve("report.md"));
    assertTrue(md.contains("| statement | SELECT * FROM usertable WHERE ycsb_key = $1 | wait Lock:transactionid (% of "
        + "samples) | 2.00 | 60.00 | +58.00 pp |"), md);
    // Each side's profile as a stacked bar, 50 characters, the most sampled on the candidate first.
    assertTrue(md.contains("Wait profile (share of its samples): `SELECT * FROM usertable WHERE ycsb_key = $1`\n\n"
        + "```text\nbaseline   A" + "B".repeat(29) + "C".repeat(20) + "\ncandidate  " + "A".repeat(30) + "B".repeat(15)
        + "C".repeat(5) + "\nA Lock:transactionid 2 % → 60 %, B LWLock:WALWrite 58 % → 30 %, C CPU 40 % → 10 %\n```"),
        md);
    String html = Files.readString(o.report().resolve("report.html"));
    assertTrue(html.contains("<div style=\"width:60.0%;background:#d62728\" title=\"Lock:transactionid 60 %\"></div>"),
        html);
  }

  /** A statement slower per call because it reads ten times the blocks, its waits the same. */
  @Test
  void aSlowerStatementIsTracedToItsWorkPerCall() throws Exception {
    Map<String, Double> same = Map.of("CPU", 90.0, "IO:DataFileRead", 10.0);
    layered("a", "17.11", new double[] {1000, 1010, 990}, waited(50, same, 1.0), waited(51, same, 1.02),
        waited(49, same, 0.98));
    layered("b", "17.11", new double[] {500, 505, 495}, waited(500, same, 10.0), waited(505, same, 10.2),
        waited(495, same, 9.8));
    String first = compare("a", "b").out().lines().findFirst().orElseThrow();
    assertTrue(first.contains("mean +900.1 %; shared_blks_read per call 1 → 10)"), first);
  }

  /** The same build: nothing beneath is looked at, since no statement's time moved. */
  @Test
  void anUnchangedStatementNamesNothingBeneath() throws Exception {
    Map<String, Double> w = Map.of("CPU", 40.0, "LWLock:WALWrite", 60.0);
    layered("a", "17.11", new double[] {1000, 1010, 990}, waited(50, w, 0.5), waited(51, w, 0.5),
        waited(49, w, 0.5));
    layered("b", "17.11", new double[] {1001, 1009, 991}, waited(50, w, 0.5), waited(51, w, 0.5),
        waited(49, w, 0.5));
    Outcome o = compare("a", "b");
    assertTrue(o.out().lines().noneMatch(l -> l.contains("of its samples") || l.contains("per call")), o.out());
    String md = Files.readString(o.report().resolve("report.md"));
    assertFalse(md.contains("wait CPU"), md);
  }

  /** More conflicts: the candidate retried 5 % of its operations and failed 1 % with 40001. */
  @Test
  void aCandidateThatConflictsMoreIsTracedToItsRetriesByClass() throws Exception {
    layered("a", "17.11", new double[] {1000, 1010, 990}, new Layers(10, 40, 20, 0.1, 0), new Layers(10.2, 41, 20.2,
        0.11, 0), new Layers(9.8, 39, 19.8, 0.09, 0));
    layered("b", "17.11", new double[] {800, 808, 792}, new Layers(10, 32, 20, 5, 1), new Layers(10.2, 33, 20.2, 5.2,
        1.02), new Layers(9.8, 31, 19.8, 4.8, 0.98));
    Outcome o = compare("a", "b");
    assertEquals(1, o.exitCode(), o.out());
    String first = o.out().lines().findFirst().orElseThrow();
    // Errors are a share of the attempts that ended (successes and errors): 1 in 101.
    assertTrue(first.contains(" — where: retries +4.90 pp of ops, errors sqlstate-40001 +0.99 pp of ops"), first);
    assertTrue(first.contains("server time per op unchanged, client CPU per op unchanged"), first);
    String md = Files.readString(o.report().resolve("report.md"));
    assertTrue(md.contains("| conflicts |  | errors sqlstate-40001 (% of ops) | 0.00 | 0.99 | +0.99 pp |"), md);
  }

  @Test
  void aTwoPercentChangeIsNoChange() throws Exception {
    repeated("a", "16.15", new double[] {1000, 1010, 990}, new long[] {1000, 1000, 1000});
    repeated("b", "17.11", new double[] {1020, 1030, 1010}, new long[] {1000, 1000, 1000});
    Outcome o = compare("a", "b");
    assertEquals(0, o.exitCode(), o.out());
    assertTrue(o.out().startsWith("NO CHANGE    ycsb/workloada throughput (ops/s) +2.0 % (within ±5.0 %: 90 % "
        + "interval +0.3 % … +3.8 %, two one-sided tests; 3 runs a side)"), o.out());
    // se 0.00809 over Welch df 4.0: t(0.95, 4) = 2.132, so ± 1.72 % around ln 1.02.
    assertTrue(o.out().contains("| workloada | READ | throughput (ops/s) | 1000 | 1020 | +2.0 % |"), o.out());
    assertTrue(o.out().contains("0 regressions, 0 headlines undecided"), o.out());
  }

  @Test
  void aWideSpreadIsInconclusiveAndSaysHowManyMoreRounds() throws Exception {
    repeated("a", "16.15", new double[] {900, 1000, 1100}, new long[] {1000, 1000, 1000});
    repeated("b", "17.11", new double[] {850, 950, 1050}, new long[] {1000, 1000, 1000});
    Outcome o = compare("a", "b");
    assertEquals(Compare.UNDECIDED, o.exitCode(), "undecided is not a pass: " + o.out());
    assertTrue(o.out().contains("0 regressions, 1 headline undecided (threshold 5.0 %): UNDECIDED, exit 3: about 69 "
        + "more rounds would likely decide; report: "), o.out());
    Outcome pass = compare("a", "b", "--undecided", "pass");
    assertEquals(0, pass.exitCode(), pass.out());
    assertTrue(pass.out().contains("PASS, exit 0 (--undecided pass; about 69 more rounds would likely decide)"),
        pass.out());
    assertEquals(1, compare("a", "b", "--undecided", "fail").exitCode());
    Outcome bad = compare("a", "b", "--undecided", "maybe");
    assertEquals(2, bad.exitCode());
    assertTrue(bad.err().contains("--undecided must be pass or fail, was maybe"), bad.err());
    // Logs' sd 0.1005 and 0.1056 over 3 runs a side: se 0.0842, Welch df 3.99.
    assertTrue(o.out().startsWith("INCONCLUSIVE ycsb/workloada throughput (ops/s) -5.0 % (95 % interval -24.8 % … "
        + "+20.0 %; 3 runs a side); about 69 more rounds (72 in all)"), o.out());
    assertTrue(o.out().matches("(?s).*; about \\d+ more rounds \\(\\d+ in all\\) would likely decide a 5.0 % change "
        + "at the noise seen \\(\\d+\\.\\d % per round\\).*"), o.out());
  }

  @Test
  void aVeryWideSpreadStaysAboveMinusOneHundredPercent() throws Exception {
    repeated("a", "16.15", new double[] {600, 1000, 1400}, new long[] {1000, 1000, 1000});
    repeated("b", "17.11", new double[] {500, 900, 1300}, new long[] {1000, 1000, 1000});
    Outcome o = compare("a", "b");
    // Logs' variances / 3 a side: se 0.3716, Welch df 3.94; on the log scale the low end is -68.6 %, not -100.7 %.
    assertTrue(o.out().startsWith("INCONCLUSIVE ycsb/workloada throughput (ops/s) -11.4 % (95 % interval -68.6 % "
        + "… +150.2 %; 3 runs a side); the noise seen (90.3 % per round) would take more than 1000 rounds"), o.out());
    assertTrue(o.out().contains("warning: a's runs of ycsb/workloada differ by up to 133.3 %"), o.out());
  }

  @Test
  void interleavedRunsArePairedByRound() throws Exception {
    // Rounds drift by 20 %; within each the candidate is 10 % slower: paired, that is a clear regression.
    double[] speeds = {1000, 1200, 1440};
    for (double s : speeds) {
      run("a", "workloada", "16.15", s, 900, Map.of());
      run("b", "workloada", "17.11", s * 0.9, 900, Map.of());
    }
    Outcome o = compare("a", "b");
    assertEquals(1, o.exitCode(), o.out());
    assertTrue(o.out().contains("3 rounds, paired)"), o.out());
    assertFalse(o.out().contains("came before every run of the other"), o.out());
  }

  @Test
  void runsFromAnotherMachineAreRefusedUnlessAllowed() throws Exception {
    run("a", "workloada", "16.15", 1000, 900, Map.of());
    Path other = run("b", "workloada", "17.11", 1000, 900, Map.of(), "complete", null, "host-2");
    Outcome o = compare("a", "b");
    assertEquals(2, o.exitCode());
    assertTrue(o.err().strip().matches("error: Refusing to compare workloada: host.name is host-1 in \\S+ but host-2 in "
        + other.getFileName() + "; a difference of machine is not one of release: compare runs from one machine, "
        + "or pass --allow-env-diff"), o.err());
    // Allowed, one run a side (no per-second data) decides nothing: undecided.
    assertEquals(Compare.UNDECIDED, compare("a", "b", "--allow-env-diff").exitCode());
  }

  @Test
  void aNoisySideIsWarnedAboutNamingItsWorstPair() throws Exception {
    Path low = run("a", "workloada", "16.15", 1000, 900, Map.of());
    Path high = run("a", "workloada", "16.15", 1200, 900, Map.of());
    run("a", "workloada", "16.15", 1100, 900, Map.of());
    repeated("b", "17.11", new double[] {1000, 1010, 990}, new long[] {900, 900, 900});
    Outcome o = compare("a", "b");
    assertTrue(o.out().contains("warning: a's runs of ycsb/workloada differ by up to 20.0 % (" + high.getFileName()
        + " 1200.0 vs " + low.getFileName() + " 1000.0 ops/s)"), o.out());
  }

  @Test
  void repeatedLooksWidenTheIntervalAndAskForAnotherRound() throws Exception {
    repeated("a", "16.15", new double[] {1000, 1040, 960}, new long[] {900, 900, 900});
    repeated("b", "17.11", new double[] {970, 1010, 930}, new long[] {900, 900, 900});
    Outcome once = compare("a", "b");
    Outcome look = compare("a", "b", "--looks", "3-10");
    assertEquals(Compare.UNDECIDED, look.exitCode(), look.out());
    assertTrue(look.out().contains("(98."), look.out());
    assertTrue(once.out().contains("(95 % interval"), once.out());
    // The last look fails closed like any comparison: still undecided is 3, unless the pipeline says otherwise.
    assertEquals(Compare.UNDECIDED, compare("a", "b", "--looks", "3-3").exitCode());
    assertEquals(0, compare("a", "b", "--looks", "3-3", "--undecided", "pass").exitCode());
    assertEquals(Compare.UNDECIDED, compare("a", "b", "--looks", "3-10", "--undecided", "pass").exitCode(),
        "an interim look asks for another round whatever --undecided says");
    assertEquals(2, compare("a", "b", "--looks", "5-2").exitCode());
  }

  @Test
  void aSeriesOfReleasesShowsEachStepAndTheChangePoint() throws Exception {
    repeated("r1", "14.1", new double[] {1000, 1010, 990}, new long[] {900, 900, 900});
    repeated("r2", "15.1", new double[] {1005, 995, 1000}, new long[] {900, 900, 900});
    repeated("r3", "16.1", new double[] {800, 810, 790}, new long[] {900, 900, 900});
    repeated("r4", "17.1", new double[] {805, 795, 800}, new long[] {900, 900, 900});
    Outcome o = compare("--series", "r1", "r2", "r3", "r4");
    assertEquals(0, o.exitCode(), o.err() + o.out());
    assertTrue(o.out().startsWith("ycsb/workloada throughput (ops/s), release by release (95 % intervals):"), o.out());
    assertTrue(o.out().contains("-20.0 % vs r2 (-2"), o.out());
    assertTrue(o.out().matches("(?s).*r3 .*: regression\n.*r4 .*: no change\n.*"), o.out());
    assertTrue(o.out().contains("change point between r2 and r3: -20.0 %"), o.out());
    var json = RunDirectory.JSON.readTree(o.report().resolve("series.json").toFile());
    assertEquals("r3", json.at("/0/change_points/0/after").asText());
    if (gnuplotInstalled()) {
      DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(o.report().resolve("series-workloada.svg")
          .toFile());
      assertTrue(Files.readString(o.report().resolve("series-workloada.svg")).contains("-20.0%"));
    }
    assertEquals(2, compare("r1", "r2", "r3").exitCode(), "three sides without --series");
  }

  /** A TPC-C measurement: throughput the same on both sides, tpmC (New-Orders) lower on the candidate. */
  private void tpcc(String label, String version, double tpmC) throws Exception {
    tpcc(label, version, tpmC, 0);
  }

  /** The same, with a second work of Payments alone at {@code payments} per second when > 0. */
  private void tpcc(String label, String version, double tpmC, double payments) throws Exception {
    Path dir = results.resolve(String.format("20260101T0000%02dZ_tpcc_tiny_PostgreSQL-%s", counter++, version));
    Files.createDirectories(dir);
    ObjectNode info = RunDirectory.JSON.createObjectNode();
    info.put("bench", "tpcc").put("workload", "tiny").put("label", label).put("state", "complete");
    info.putObject("server").put("product", "PostgreSQL").put("version", version);
    info.putObject("parameters").put("warehouses", "1").put("terminals", "4");
    RunDirectory.JSON.writeValue(dir.resolve("run.json").toFile(), info);
    OperationResult newOrder = new OperationResult((long) tpmC, 0, Map.of(), 0, tpmC / 60,
        new LatencyPercentiles((long) tpmC, null, 5000L, null, 9000L, 12000L, 20000L, null, null));
    RunSummary s = RunSummary.start("tpcc", "tiny", new ServerInfo("PostgreSQL", version, ""))
        .withPhase("execute", PhaseResult.ofOperations(Map.of("NewOrder", newOrder), 60, List.of()).toBuilder()
            // as TPC-C's results name them: tpmC the headline, efficiency compared beside it
            .headline(new PhaseResult.Figure("tpmC", "tpmC", tpmC, true, NEW_ORDERS))
            .figures(List.of(new PhaseResult.Figure("efficiency", "%", 100 * tpmC / 12.86, true, NEW_ORDERS)))
            .build());
    if (payments > 0) {
      OperationResult payment = new OperationResult((long) payments * 60, 0, Map.of(), 0, payments,
          new LatencyPercentiles((long) payments * 60, null, 2000L, null, 4000L, 6000L, 9000L, null, null));
      s = s.withPhase("execute-2", PhaseResult.ofOperations(Map.of("Payment", payment), 60, List.of()));
    }
    s = s.withState("complete", null);
    RunDirectory.JSON.writeValue(dir.resolve("summary.json").toFile(), s);
  }

  @Test
  void tpccGatesOnTpmC() throws Exception {
    for (double t : new double[] {100, 101, 99}) {
      tpcc("a", "16.15", t);
    }
    for (double t : new double[] {80, 81, 79}) {
      tpcc("b", "17.11", t);
    }
    Outcome o = compare("a", "b");
    assertEquals(1, o.exitCode(), o.err() + o.out());
    assertTrue(o.out().startsWith("REGRESSION   tpcc/tiny tpmC -20.0 %"), o.out());
    assertTrue(o.out().contains("| tiny | ALL | throughput (ops/s) |"), "throughput is a row, not the headline");
  }

  @Test
  void everyWorkOfATpccRunIsComparedWithItsOwnHeadline() throws Exception {
    for (double p : new double[] {300, 303, 297}) {
      tpcc("a", "16.15", 100, p);
    }
    for (double p : new double[] {210, 212, 208}) {
      tpcc("b", "17.11", 100, p);
    }
    Outcome o = compare("a", "b");
    assertEquals(1, o.exitCode(), o.err() + o.out());
    assertTrue(o.out().contains("REGRESSION   tpcc/tiny@execute-2 throughput (ops/s) -30.0 %"), o.out());
    assertTrue(o.out().contains("tpcc/tiny tpmC"), "the mix is compared on its own: " + o.out());
    assertTrue(!o.out().contains("single run"), "three directories a side are three runs: " + o.out());
  }

  @Test
  void helpPrintsNoFormatWarnings() {
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    PrintStream saved = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    String usage;
    try {
      usage = new CommandLine(new Compare(new Console(System.out), results)).getUsageMessage();
    } finally {
      System.setErr(saved);
    }
    assertTrue(usage.contains("95 % interval") && usage.contains("(default: 5 %)"), usage);
    assertEquals("", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void mismatchedRunsAreRefusedWithExitTwo() throws Exception {
    run("a", "workloada", "16.15", 1000, 1000, Map.of());
    run("b", "workloadb", "17.11", 1000, 1000, Map.of());
    Outcome o = compare("a", "b");
    assertEquals(2, o.exitCode());
    assertEquals("error: Nothing to compare: the baseline ran [ycsb/workloada], the candidate [ycsb/workloadb]",
        o.err().strip());

    run("c", "workloada", "17.11", 1000, 1000, Map.of("threadcount", "8"));
    Outcome p = compare("a", "c");
    assertEquals(2, p.exitCode());
    assertTrue(p.err().strip().matches("error: Refusing to compare workloada: parameter threadcount is 4 in \\S+ but 8 in \\S+"),
        p.err());
    assertEquals(2, compare("a", "nosuchlabel").exitCode());
  }

  @Test
  void failedAndInterruptedRunsAreRefusedNamingTheRunAndItsReason() throws Exception {
    repeated("a", "16.15", new double[] {1000, 1010, 990}, new long[] {900, 900, 900});
    repeated("b", "17.11", new double[] {1000, 1010, 990}, new long[] {900, 900, 900});
    Path failed = run("b", "workloada", "17.11", 190, 900, Map.of(), "failed",
        "81.0 % of the run phase's operations failed (81000 of 100000: connection 81000), above --max-error-pct 1");
    Outcome o = compare("a", "b");
    assertEquals(2, o.exitCode(), o.out());
    assertEquals("error: Refusing to compare " + failed + " is failed (81.0 % of the run phase's operations failed "
        + "(81000 of 100000: connection 81000), above --max-error-pct 1); compare complete runs only, or pass "
        + "--include-incomplete", o.err().strip());
    // Asked for, the broken run counts as a repetition and drags the candidate's mean down.
    Outcome included = compare("a", "b", "--include-incomplete");
    // … and widens its interval until the headline is undecided.
    assertEquals(Compare.UNDECIDED, included.exitCode(), included.err() + included.out());
    // Geometric means: the candidate's (1000 · 1010 · 990 · 190)^(1/4) = 660.
    assertTrue(included.out().contains("| workloada | ALL | throughput (ops/s) ★ | 1000 | 660 | -34.0 % |"),
        included.out());

    Path interrupted = run("c", "workloada", "17.11", 1000, 900, Map.of(), "interrupted", null);
    Outcome p = compare("a", interrupted.toString());
    assertEquals(2, p.exitCode());
    assertEquals("error: Refusing to compare " + interrupted + " is interrupted; compare complete runs only, or "
        + "pass --include-incomplete", p.err().strip());
  }

  @Test
  void resultsOfTheUnversionedFormatAreRefusedWithOneLine() throws Exception {
    Path old = run("a", "workloada", "16.15", 1000, 900, Map.of());
    Path other = run("b", "workloada", "17.11", 1000, 900, Map.of());
    Files.writeString(old.resolve("summary.json"), Files.readString(old.resolve("summary.json"))
        .replaceFirst("\"format\" : 3,\\s*", ""));
    Outcome o = compare(old.toString(), other.toString());
    assertEquals(2, o.exitCode());
    assertEquals("error: " + old + " holds results format 1; this ybbench reads formats 2 and 3: run it again, or "
        + "read it with the ybbench that wrote it", o.err().strip());
  }

  @Test
  void aSingleRunASideIsWarnedAbout() throws Exception {
    run("a", "workloada", "16.15", 1000, 1000, Map.of());
    run("b", "workloada", "17.11", 1000, 1000, Map.of());
    Outcome o = compare("a", "b");
    assertEquals(Compare.UNDECIDED, o.exitCode(), "one run a side without per-second data decides nothing");
    assertTrue(o.out().contains("warning: a and b have a single run each"), o.out());
    assertTrue(o.out().contains("UNDECIDED, exit 3: at least 2 more runs a side, or a history of at least 5 runs of "
        + "this key, would decide"), o.out());
  }

  /** Ctrl-C at each step in turn: every time, no comparison and nothing half-written is left. */
  @Test
  void ctrlCAtAnyStepLeavesNoComparison() throws Exception {
    repeated("a", "16.15", new double[] {1000, 1010, 990}, new long[] {900, 900, 900});
    repeated("b", "17.11", new double[] {700, 707, 693}, new long[] {900, 900, 900});
    Path compareDir = results.resolve("compare");
    for (int stopAt = 1; ; stopAt++) {
      AtomicInteger asked = new AtomicInteger();
      int n = stopAt;
      Outcome o = compare(() -> asked.incrementAndGet() >= n, "a", "b");
      if (o.exitCode() != ShutdownGuard.EXIT_INTERRUPTED) {
        assertEquals(1, o.exitCode(), o.out());
        assertTrue(stopAt > 3, "a comparison asks at the start, after the statistics, before each chart and "
            + "before it commits; it asked only " + (stopAt - 1) + " times");
        assertTrue(Files.exists(o.report().resolve("report.html")));
        break;
      }
      assertTrue(o.out().endsWith(Compare.INTERRUPTED + "\n"), o.out());
      assertEquals(List.of(), Files.exists(compareDir) ? Files.list(compareDir).toList() : List.of(),
          "stopped at step " + stopAt);
    }
  }

  /**
   * Ctrl-C sent to compare.sh's process while it reads a run's latency (held there by a named
   * pipe): it stops within 5 s, exit 130, and writes no comparison.
   */
  @Test
  void ctrlCEndsACompareWithinFiveSeconds() throws Exception {
    repeated("a", "16.15", new double[] {1000, 1010, 990}, new long[] {900, 900, 900});
    repeated("b", "17.11", new double[] {700, 707}, new long[] {900, 900});
    Path last = run("b", "workloada", "17.11", 693, 900, Map.of());
    Histogram h = new Histogram(3);
    h.recordValueWithCount(900, 41_580);
    h.setStartTimeStamp(1_790_000_000_000L);
    h.setEndTimeStamp(1_790_000_060_000L);
    HlogFiles.writeIntervals(last.resolve("latency"), "run", "READ", List.of(h));
    try (CtrlC.Held hlog = CtrlC.hold(last.resolve("latency").resolve("run-READ.hlog"));
         CtrlC p = CtrlC.startJava(Compare.class, results, List.of("a", "b", "--results-dir", results.toString()))) {
      long sent;
      try (hlog) {
        hlog.awaitReader(Duration.ofSeconds(60));
        p.send();
        p.awaitLine("Stopping: interrupted"::equals, Duration.ofSeconds(30));
        sent = System.nanoTime();
      }
      assertEquals(ShutdownGuard.EXIT_INTERRUPTED, p.exitCode(Duration.ofSeconds(30)), p.output());
      double seconds = (System.nanoTime() - sent) / 1e9;
      assertTrue(seconds < 5, "exited " + seconds + " s after Ctrl-C");
      assertTrue(p.output().endsWith(Compare.INTERRUPTED), p.output());
      Path compareDir = results.resolve("compare");
      assertEquals(List.of(), Files.exists(compareDir) ? Files.list(compareDir).toList() : List.of());
    }
  }

  static boolean gnuplotInstalled() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, "gnuplot"))) {
        return true;
      }
    }
    return false;
  }
}
