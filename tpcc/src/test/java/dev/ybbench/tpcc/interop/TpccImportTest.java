package dev.ybbench.tpcc.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.tpcc.RunTpccTest;
import dev.ybbench.tpcc.Tpcc;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --import on recorded results directories. BenchBase's (src/test/resources/benchbase-results: a
 * 3 s TPC-C run of 33 measured transactions, one New-Order rolled back by design and two Payment
 * retries over the whole run, whose outcome counts include 10 transactions of its warm-up, in the
 * files and formats BenchBase's ResultWriter writes); yugabyte/tpcc's
 * (src/test/resources/yugabyte-tpcc-results: a 3 s run of 33 transactions at 2 warehouses after 1 s
 * of warm-up, run with --vv, whose New-Orders failed 2 first and 1 second attempts, all retried;
 * beside an earlier run's CSV).
 */
class TpccImportTest {
  private static final Path RECORDED = Path.of("src/test/resources/benchbase-results");
  private static final Path YUGABYTE_TPCC = Path.of("src/test/resources/yugabyte-tpcc-results");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path tmp;

  private record Outcome(int exitCode, String out, String err, Path runDir) {}

  private Outcome run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Tpcc(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunTpccTest.HOME);
    int rc = cmd.execute(args, new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
        cmd.runDirectory());
  }

  @Test
  void aBenchBaseRunBecomesOneOfOursWithItsCountsLatencyAndServer() throws Exception {
    Outcome o = run("--import", RECORDED.toString(), "--config", "postgres_100w.xml", "--results-dir",
        tmp.resolve("results").toString());
    assertEquals(0, o.exitCode(), o.err() + o.out());
    JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
    assertEquals("complete", summary.get("state").asText());
    assertEquals("postgres_100w", summary.get("workload").asText(), "named to pair with our runs of that config");
    assertEquals(2, summary.at("/tpcc/warehouses").asInt());
    assertEquals(4, summary.at("/tpcc/terminals").asInt());
    JsonNode exec = summary.at("/phases/execute");
    assertEquals(3.0, exec.get("duration_s").asDouble());
    // The measured rows, not BenchBase's outcome counts, which include its warm-up (15 New-Orders,
    // 16 Payments); the New-Order rolled back by design cannot be told apart, so it is among them.
    assertEquals(12, exec.at("/operations/NewOrder/successes").asLong());
    assertTrue(exec.at("/operations/NewOrderRollback").isMissingNode(), exec.toString());
    assertEquals(12, exec.at("/operations/Payment/successes").asLong());
    assertEquals(2, exec.at("/operations/Payment/retries").asLong());
    assertEquals(3, exec.at("/operations/StockLevel/successes").asLong());
    // BenchBase's goodput (43 in 3 s, warm-up included) would say 14.3/s.
    assertEquals(33, exec.get("successes").asLong());
    assertEquals(11.0, exec.get("throughput_ops").asDouble(), "33 in 3 s");
    assertEquals(240.0, exec.at("/tpcc/tpmC").asDouble(), "12 New-Orders in 3 s");
    // raw.csv's New-Order latencies: 1,200 … 1,230 µs each second (HdrHistogram is exact below 2,048).
    assertEquals(1230, exec.at("/operations/NewOrder/latency_us/max").asLong());
    assertEquals(1200, exec.at("/operations/NewOrder/latency_us/min").asLong());
    assertTrue(exec.at("/tpcc/response_time_limits/NewOrder/pass").asBoolean());
    // Second by second, as our runs write them, so compare.sh has each run's own noise.
    List<Histogram> intervals = HlogFiles.intervals(o.runDir().resolve("latency/execute-NewOrder.hlog"));
    assertEquals(3, intervals.size());
    intervals.forEach(h -> assertEquals(4, h.getTotalCount()));
    assertEquals(4, Files.readAllLines(o.runDir().resolve("timeseries.csv")).size(), "a header and 3 seconds");
    JsonNode info = JSON.readTree(o.runDir().resolve("run.json").toFile());
    assertEquals("PostgreSQL", info.at("/server/product").asText());
    assertEquals("16.4", info.at("/server/version").asText());
    assertEquals("BenchBase", info.at("/harness/engine").asText());
    assertEquals("[45, 43, 4, 4, 4]", info.at("/parameters/weights").asText());
    assertEquals("TRANSACTION_SERIALIZABLE", info.at("/parameters/isolation").asText());
    assertTrue(info.get("host").isEmpty(), "BenchBase does not record its client machine");
  }

  /** Without its -jh file, raw.csv cannot say which transactions failed: the import says so and fails. */
  @Test
  void withoutTheHistogramsFileFailedTransactionsCannotBeToldApart() throws Exception {
    Path copy = Files.createDirectories(tmp.resolve("no-histograms"));
    try (Stream<Path> files = Files.list(RECORDED)) {
      for (Path f : files.filter(f -> !f.getFileName().toString().equals("histograms.json")).toList()) {
        Files.copy(f, copy.resolve(f.getFileName()));
      }
    }
    Outcome o = run("--import", copy.toString(), "--results-dir", tmp.resolve("results").toString());
    assertEquals(1, o.exitCode(), o.err() + o.out());
    JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
    assertEquals("failed", summary.get("state").asText());
    assertTrue(summary.get("reason").asText().startsWith("BenchBase's raw.csv does not say which of its 33 "
        + "transactions failed; run it with -jh FILE"), summary.get("reason").asText());
    assertEquals("benchbase", summary.get("workload").asText());
  }

  @Test
  void whatIsNotABenchBaseTpccRunIsOneLine() throws Exception {
    Outcome o = run("--import", tmp.toString(), "--results-dir", tmp.resolve("results").toString());
    assertEquals(2, o.exitCode());
    assertEquals("error: --import " + tmp + " holds neither a BenchBase TPC-C run (*.summary.json, *.raw.csv) nor a "
        + "yugabyte/tpcc one (json/output.json, oltpbench*.csv); give the directory its results were written to\n",
        o.err());
    Path ycsb = Files.createDirectories(tmp.resolve("ycsb"));
    Files.writeString(ycsb.resolve("ycsb_2025-01-31_14-05-09.summary.json"), "{\"Benchmark Type\": \"ycsb\"}");
    o = run("--import", ycsb.toString(), "--results-dir", tmp.resolve("results").toString());
    assertEquals(2, o.exitCode());
    assertTrue(o.err().contains("is a BenchBase ycsb run; --import reads TPC-C runs"), o.err());
  }

  @Test
  void aYugabyteTpccRunBecomesOneOfOursWithItsCountsAndLatency() throws Exception {
    Outcome o = run("--import", YUGABYTE_TPCC.toString(), "--label", "yb-2.20", "--results-dir",
        tmp.resolve("results").toString());
    assertEquals(0, o.exitCode(), o.err() + o.out());
    JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
    assertEquals("complete", summary.get("state").asText());
    assertEquals("yugabyte-tpcc", summary.get("workload").asText());
    assertEquals(2, summary.at("/tpcc/warehouses").asInt());
    assertEquals(20, summary.at("/tpcc/terminals").asInt(), "10 a warehouse, as yugabyte/tpcc always runs them");
    JsonNode exec = summary.at("/phases/execute");
    assertEquals(3.0, exec.get("duration_s").asDouble());
    assertEquals(12, exec.at("/operations/NewOrder/successes").asLong());
    assertEquals(3, exec.at("/operations/NewOrder/retries").asLong(), "2 first and 1 second attempts failed");
    assertEquals(0, exec.at("/operations/NewOrder/errors").asLong(), "none failed its last attempt");
    assertEquals(12, exec.at("/operations/Payment/successes").asLong());
    assertEquals(33, exec.get("successes").asLong(), "the newest CSV's, not the earlier run's");
    assertEquals(11.0, exec.get("throughput_ops").asDouble());
    assertEquals(240.0, exec.at("/tpcc/tpmC").asDouble(), "as yugabyte/tpcc's own output.json says");
    // Connection acquire (100 µs) plus the attempt (1,100 … 1,130 µs).
    assertEquals(1200, exec.at("/operations/NewOrder/latency_us/min").asLong());
    assertEquals(1230, exec.at("/operations/NewOrder/latency_us/max").asLong());
    JsonNode info = JSON.readTree(o.runDir().resolve("run.json").toFile());
    assertEquals("yugabyte/tpcc", info.at("/harness/engine").asText());
    assertEquals("yb-2.20", info.get("label").asText(), "the files do not name the server: the label does");
    assertEquals("4", info.at("/parameters/connections").asText());
    assertEquals("3", info.at("/parameters/nodes").asText());
  }

  /** Failures are known only with --vv; too many fail the import as they fail our runs. */
  @Test
  void unknownOrTooManyFailuresFailTheImport() throws Exception {
    Path copy = copy("no-vv");
    ObjectNode out = (ObjectNode) JSON.readTree(copy.resolve("json/output.json").toFile());
    out.remove("RetryAttempts");
    JSON.writeValue(copy.resolve("json/output.json").toFile(), out);
    Outcome o = run("--import", copy.toString(), "--results-dir", tmp.resolve("results").toString());
    assertEquals(1, o.exitCode(), o.err() + o.out());
    JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
    assertEquals("yugabyte/tpcc counts failed transactions only when run with --vv; run it with --vv and import "
        + "again", summary.get("reason").asText());

    Path failing = copy("failing");
    out = (ObjectNode) JSON.readTree(failing.resolve("json/output.json").toFile());
    ((ObjectNode) out.at("/RetryAttempts/Payment")).putArray("retriesFailureCount").addArray().add(1).add(0).add(0);
    JSON.writeValue(failing.resolve("json/output.json").toFile(), out);
    o = run("--import", failing.toString(), "--results-dir", tmp.resolve("results").toString());
    assertEquals(1, o.exitCode(), o.err() + o.out());
    summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
    assertEquals(1, summary.at("/phases/execute/operations/Payment/errors").asLong());
    assertEquals(12, summary.at("/phases/execute/operations/Payment/successes").asLong(), "its CSV holds successes");
    assertTrue(summary.get("reason").asText().contains("--max-error-pct"), summary.get("reason").asText());
  }

  private Path copy(String name) throws Exception {
    Path copy = Files.createDirectories(tmp.resolve(name).resolve("json"));
    try (Stream<Path> files = Files.walk(YUGABYTE_TPCC)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Path to = tmp.resolve(name).resolve(YUGABYTE_TPCC.relativize(f));
        Files.copy(f, to);
        Files.setLastModifiedTime(to, Files.getLastModifiedTime(f));
      }
    }
    return tmp.resolve(name);
  }
}
