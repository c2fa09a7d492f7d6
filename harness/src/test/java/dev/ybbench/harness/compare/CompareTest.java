package dev.ybbench.harness.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.Latency;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.results.RunDirectory;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare.sh on synthetic result directories with known values. */
class CompareTest {
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
    Path dir = results.resolve(String.format("20260101T0000%02dZ_ycsb_%s_PostgreSQL-%s", counter++, workload, version));
    Files.createDirectories(dir);
    ObjectNode info = RunDirectory.JSON.createObjectNode();
    info.put("bench", "ycsb").put("workload", workload).put("label", label).put("state", state);
    info.putObject("server").put("product", "PostgreSQL").put("version", version);
    ObjectNode p = info.putObject("parameters");
    p.put("recordcount", "1000").put("threadcount", "4").put("ysql.hosts", "127.0.0.1:" + (5000 + counter));
    params.forEach(p::put);
    RunDirectory.JSON.writeValue(dir.resolve("run.json").toFile(), info);
    long n = (long) (throughput * 60);
    OperationResult read = new OperationResult(n, 0, Map.of(), 0, throughput,
        new Latency(n, null, p99 / 4, null, p99 / 2, p99, p99 * 2, null, null));
    RunSummary s = RunSummary.start("ycsb", workload, new ServerInfo("PostgreSQL", version, ""))
        .withPhase("run", PhaseResult.ofOperations(Map.of("READ", read), 60, List.of()))
        .withState(state, reason);
    RunDirectory.JSON.writeValue(dir.resolve("summary.json").toFile(), s);
    Files.writeString(dir.resolve("timeseries.csv"), "phase,elapsed_s,throughput_ops,p50_us,p95_us,p99_us,errors,retries\n"
        + "run,1.0," + throughput + ",1,2,3,0,0\nrun,2.0," + throughput + ",1,2,3,0,0\n");
    return dir;
  }

  private record Outcome(int exitCode, String out, String err, Path report) {}

  private Outcome compare(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Compare c = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), results);
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
  void aThirtyPercentThroughputDropIsARegressionNamingTheWorkload() throws Exception {
    repeated("a", "16.15", new double[] {1000, 1010, 990}, new long[] {900, 900, 900});
    repeated("b", "17.11", new double[] {700, 707, 693}, new long[] {900, 900, 900});
    Outcome o = compare("a", "b");
    assertEquals(1, o.exitCode(), o.err() + o.out());
    assertTrue(o.out().contains("regression: workloada READ throughput (ops/s) -30.0 %"), o.out());
    assertTrue(o.out().contains("| workloada | ALL | throughput (ops/s) | 1000 | 700 | -30.0 % |"), o.out());
    assertTrue(Files.exists(o.report().resolve("report.md")));
    String html = Files.readString(o.report().resolve("report.html"));
    assertTrue(html.contains("16.15") && html.contains("17.11") && !html.contains("http"), html);
    if (gnuplotInstalled()) {
      for (String svg : new String[] {"throughput.svg", "p99.svg", "over-time-workloada.svg"}) {
        File f = o.report().resolve(svg).toFile();
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(f); // valid XML
        String text = Files.readString(f.toPath());
        assertTrue(text.contains("16.15") && text.contains("17.11"), svg + " lacks the version labels");
      }
    }
  }

  @Test
  void aThirtyPercentLatencyRiseIsARegression() throws Exception {
    repeated("a", "16.15", new double[] {1000, 1010, 990}, new long[] {1000, 1010, 990});
    repeated("b", "17.11", new double[] {1000, 1010, 990}, new long[] {1300, 1313, 1287});
    Outcome o = compare("a", "b");
    assertEquals(1, o.exitCode(), o.out());
    assertTrue(o.out().contains("regression: workloada READ p99 (µs) +30.0 %"), o.out());
  }

  @Test
  void aTwoPercentChangeIsNoChange() throws Exception {
    repeated("a", "16.15", new double[] {1000, 1010, 990}, new long[] {1000, 1000, 1000});
    repeated("b", "17.11", new double[] {1020, 1030, 1010}, new long[] {1000, 1000, 1000});
    Outcome o = compare("a", "b");
    assertEquals(0, o.exitCode(), o.out());
    assertTrue(o.out().contains("| workloada | READ | throughput (ops/s) | 1000 | 1020 | +2.0 % |"), o.out());
    assertTrue(o.out().contains("0 regressions"), o.out());
  }

  @Test
  void aWideSpreadIsInconclusive() throws Exception {
    repeated("a", "16.15", new double[] {600, 1000, 1400}, new long[] {1000, 1000, 1000});
    repeated("b", "17.11", new double[] {500, 900, 1300}, new long[] {1000, 1000, 1000});
    Outcome o = compare("a", "b");
    assertEquals(0, o.exitCode(), o.out());
    // sd 400 a side, n = 3: se = 326.6, t(4) = 2.776, half-width 906.6 = 90.7 % of the baseline mean.
    assertTrue(o.out().contains("-10.0 % | -100.7 % … +80.7 % | inconclusive |"), o.out());
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
    assertEquals(0, included.exitCode(), included.err() + included.out());
    assertTrue(included.out().contains("| workloada | ALL | throughput (ops/s) | 1000 | 798 | -20.3 % |"),
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
        .replaceFirst("\"format\" : 2,\\s*", ""));
    Outcome o = compare(old.toString(), other.toString());
    assertEquals(2, o.exitCode());
    assertEquals("error: " + old + " holds results format 1; this ybbench reads format 2: run it again, or read it "
        + "with the ybbench that wrote it", o.err().strip());
  }

  @Test
  void aSingleRunASideIsWarnedAbout() throws Exception {
    run("a", "workloada", "16.15", 1000, 1000, Map.of());
    run("b", "workloada", "17.11", 1000, 1000, Map.of());
    Outcome o = compare("a", "b");
    assertEquals(0, o.exitCode());
    assertTrue(o.out().contains("warning: a has a single run"), o.out());
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
