package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** run_ycsb.sh's Java side, end to end against embedded PostgreSQL servers it starts itself. */
class RunYcsbTest {
  /** The repository root: workloads/ is found there. */
  static final Path HOME = Path.of("..").toAbsolutePath().normalize();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  record Outcome(int exitCode, String out, String err, Path runDir) {}

  static Outcome run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), HOME);
    int rc = cmd.execute(args, new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
        cmd.runDirectory());
  }

  @Test
  void aRunWritesTheResultsContractWithConsistentCounts() throws Exception {
    Outcome o = run("workloada", "--db-version", "16", "--records", "500", "--operations", "3000", "--threads", "2",
        "--duration", "60", "--results-dir", results.toString(), "--password", "hunter2", "--label", "pg16");
    assertEquals(0, o.exitCode(), o.err() + o.out());
    Path dir = o.runDir();
    assertTrue(dir.getFileName().toString().matches("\\d{8}T\\d{6}Z_ycsb_workloada_PostgreSQL-16\\.\\d+"),
        dir.toString());

    JsonNode runJson = JSON.readTree(dir.resolve("run.json").toFile());
    assertEquals("complete", runJson.get("state").asText());
    assertEquals("PostgreSQL", runJson.at("/server/product").asText());
    assertTrue(runJson.at("/server/version").asText().startsWith("16."), runJson.at("/server").toString());
    assertEquals("16 (16.15.0)", runJson.at("/server/requested_version").asText());
    assertEquals("pg16", runJson.get("label").asText());
    assertEquals("***", runJson.at("/parameters/ysql.password").asText());

    JsonNode summary = JSON.readTree(dir.resolve("summary.json").toFile());
    JsonNode load = summary.at("/phases/load");
    assertEquals(500, load.at("/operations/INSERT/successes").asLong());
    JsonNode runPhase = summary.at("/phases/run");
    long sum = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = runPhase.get("operations").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> op = it.next();
      long successes = op.getValue().get("successes").asLong();
      sum += successes + op.getValue().get("errors").asLong();
      assertEquals(successes, op.getValue().at("/latency_us/count").asLong(), op.getKey());
      assertEquals(successes, hlogTotal(dir.resolve("latency/run-" + op.getKey() + ".hlog")), op.getKey());
    }
    assertEquals(3000, sum, "every operation of the run is counted once");
    assertEquals(runPhase.get("successes").asLong() + runPhase.get("errors").asLong(), sum);
    assertTrue(runPhase.has("operations") && runPhase.get("operations").has("READ"));
    assertEquals(3, summary.get("format").asInt());
    assertEquals("throughput", runPhase.at("/headline/metric").asText(), "YCSB's headline is its throughput");
    assertEquals("ops/s", runPhase.at("/headline/unit").asText());
    assertEquals(runPhase.get("throughput_ops").asDouble(), runPhase.at("/headline/value").asDouble());

    List<String> ts = Files.readAllLines(dir.resolve("timeseries.csv"));
    assertEquals("phase,elapsed_s,throughput_ops,p50_us,p95_us,p99_us,errors,retries", ts.get(0));
    assertTrue(ts.stream().anyMatch(l -> l.startsWith("run,")));
    String console = Files.readString(dir.resolve("console.log"));
    assertTrue(console.contains("[READ], Operations"), console);
    assertFalse(console.contains("hunter2"));
    assertFalse(Files.readString(dir.resolve("run.json")).contains("hunter2"));
    // The one-page report leads with the answer, from the same summary, and keeps the password out.
    String report = Files.readString(dir.resolve("report.html"));
    assertTrue(report.indexOf("<b>Run complete</b>") < report.indexOf("<details>"), report);
    assertTrue(report.contains("<li>run: " + String.format(Locale.ROOT, "%.1f", runPhase.get("throughput_ops")
        .asDouble()) + " ops/s over "), report);
    assertFalse(report.contains("hunter2"));
    if (gnuplotInstalled()) {
      assertTrue(report.contains("<img src=\"plots/run-throughput.svg\""), report);
      assertTrue(Files.readString(dir.resolve("plots/run-throughput.svg")).contains("<svg"));
      assertTrue(Files.size(dir.resolve("plots/run-latency.svg")) > 0);
    }
  }

  /** The same contract over YCQL, on the embedded Cassandra the run starts and stops. */
  @Test
  void aYcqlRunWritesTheSameContract() throws Exception {
    Outcome o = run("workloada", "--api", "ycql", "--records", "500", "--operations", "2000", "--threads", "2",
        "--duration", "60", "--results-dir", results.toString());
    assertEquals(0, o.exitCode(), o.err() + o.out());
    Path dir = o.runDir();
    JsonNode runJson = JSON.readTree(dir.resolve("run.json").toFile());
    assertEquals("complete", runJson.get("state").asText());
    assertEquals("Cassandra", runJson.at("/server/product").asText());
    assertEquals("ycql", runJson.get("api").asText());
    JsonNode summary = JSON.readTree(dir.resolve("summary.json").toFile());
    assertEquals(500, summary.at("/phases/load/operations/INSERT/successes").asLong());
    JsonNode runPhase = summary.at("/phases/run");
    long sum = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = runPhase.get("operations").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> op = it.next();
      long successes = op.getValue().get("successes").asLong();
      sum += successes + op.getValue().get("errors").asLong();
      assertEquals(successes, hlogTotal(dir.resolve("latency/run-" + op.getKey() + ".hlog")), op.getKey());
    }
    assertEquals(2000, sum, "every operation of the run is counted once");
    assertEquals(0, runPhase.get("errors").asLong(), runPhase.toString());
  }

  static long hlogTotal(Path hlog) throws Exception {
    long total = 0;
    HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
    for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
      total += ((org.HdrHistogram.Histogram) h).getTotalCount();
    }
    reader.close();
    return total;
  }

  /**
   * The target for the paced runs of a test that judges runs against each other: half of what one
   * unpaced run did. One run's rate can be a burst a shared machine does not keep, and runs short of
   * their pace are as noisy as the machine (at 80 % a CI machine's paced runs spread 43 K … 86 K ops/s).
   */
  static int pace(double measured) {
    return (int) Math.max(100, measured * 0.5);
  }

  static boolean gnuplotInstalled() {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, "gnuplot"))) {
        return true;
      }
    }
    return false;
  }

  @Test
  void badInputIsOneClearLineAndANonZeroExit() {
    List<List<String>> cases = List.of(
        List.of("workloadz"),
        List.of("workloada", "--no-such-flag"),
        List.of("workloada", "--threads", "0"),
        List.of("workloada", "--db-version", "banana"),
        List.of("workloada", "--db-version", "17.99.0"),
        List.of("workloada", "--hosts", "127.0.0.1:1"),
        List.of("workloada", "--layout", "btree"),
        List.of("workloada", "--phase", "run"));
    for (List<String> args : cases) {
      long start = System.nanoTime();
      Outcome o = run(args.toArray(new String[0]));
      double seconds = (System.nanoTime() - start) / 1e9;
      String err = o.err().strip();
      assertEquals(2, o.exitCode(), args.toString());
      assertEquals(1, err.lines().count(), args + " printed: " + err);
      assertTrue(err.startsWith("error: "), err);
      assertFalse(err.contains("Exception") || err.contains("\tat "), err);
      assertTrue(seconds < 60, args + " took " + seconds + " s");
      System.out.println(args + " -> " + err);
    }
  }

  @Test
  void errorMessagesSayWhatToDo() {
    assertTrue(run("workloadz").err().contains("not one of cassandra-kv-read, cassandra-kv-write, "
        + "CassandraBatchKeyValue, CassandraKeyValue, CassandraRangeKeyValue, largedata-load, largedata-read-subset, "
        + "largedata-read-uniform, SqlInserts, sqlinserts, sqlinserts-read, SqlSecondaryIndex, SqlUpdates, workloada"));
    assertTrue(run("workloada", "--threads", "0").err().contains("--threads must be at least 1, was 0"));
    assertTrue(run("workloada", "--hosts", "127.0.0.1:1").err()
        .contains("Cannot connect to YSQL at 127.0.0.1:1"));
    assertTrue(run("workloada", "--db-version", "17.99.0").err()
        .contains("PostgreSQL 17.99.0 is not available"));
  }
}
