package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.testing.DryRuns;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** run_tpcc.sh's Java side against real embedded PostgreSQL servers. */
public class RunTpccTest {
  public static final Path HOME = Path.of("..").toAbsolutePath().normalize();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  record Outcome(int exitCode, String out, String err, Path runDir) {}

  /** run_tpcc.sh's Java side in this JVM, its output kept. */
  static Outcome run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Tpcc(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), HOME);
    int rc = cmd.execute(args, new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
        cmd.runDirectory());
  }

  /** The README's command with its default config (tiny.xml), shortened from its minute to 10 s. */
  @Test
  void theTinyConfigRunsEveryTransactionAndStaysConsistent() throws Exception {
    Outcome o = run("--results-dir", results.toString(), "--label", "tiny", "--duration", "10");
    System.out.println(o.out());
    assertEquals(0, o.exitCode(), o.err() + o.out());
    JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
    assertEquals("complete", summary.get("state").asText());
    assertEquals("pass", summary.at("/phases/load/checks/population").asText());
    JsonNode exec = summary.at("/phases/execute");
    assertTheMixRanEveryType(exec);
    double seconds = exec.get("duration_s").asDouble();
    assertTrue(seconds >= 9 && seconds < 20, "measured " + seconds + " s");
    long newOrders = exec.at("/operations/NewOrder/successes").asLong()
        + exec.at("/operations/NewOrderRollback/successes").asLong();
    assertEquals(newOrders * 60.0 / seconds, exec.at("/tpcc/tpmC").asDouble(), 0.5 + newOrders * 60.0 / seconds * 0.01);
    // tiny has no keying or think times: tpmC has no ceiling of 12.86 a warehouse, so no efficiency.
    assertFalse(exec.path("tpcc").has("efficiency_pct"), exec.toString());
    // Results format 3: the work names its headline, and keeps TPC-C's own figures under its key.
    assertEquals(3, summary.get("format").asInt());
    assertEquals("tpmC", exec.at("/headline/metric").asText(), exec.toString());
    assertEquals(exec.at("/tpcc/tpmC").asDouble(), exec.at("/headline/value").asDouble());
    assertEquals("[\"NewOrder\",\"NewOrderRollback\"]", exec.at("/headline/operations").toString());
    assertFalse(exec.has("tpmC"), "no benchmark's figure among the common ones");
    assertTrue(o.out().contains("; no efficiency (no keying or think times)"), o.out());
    assertTrue(summary.at("/tpcc/consistency/all_pass").asBoolean(), summary.at("/tpcc/consistency").toString());
    for (Iterator<Map.Entry<String, JsonNode>> it = summary.at("/tpcc/consistency/conditions").fields();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> c = it.next();
      assertTrue(c.getValue().get("pass").asBoolean(), c.getKey());
    }
    assertTrue(summary.at("/tpcc/consistency/conditions/3.3.2.4/pass").asBoolean());
    assertTrue(Files.exists(o.runDir().resolve("latency/execute-NewOrder.hlog")));
    JsonNode runJson = JSON.readTree(o.runDir().resolve("run.json").toFile());
    assertEquals("PostgreSQL", runJson.at("/server/product").asText());
    assertEquals("tiny", runJson.get("label").asText());
  }

  @Test
  void executingWithoutTablesFailsAtOnceWithItsReason() throws Exception {
    Outcome o = run("--execute", "--duration", "30", "--results-dir", results.toString());
    System.out.println(o.out());
    assertEquals(1, o.exitCode(), o.err() + o.out());
    JsonNode runJson = JSON.readTree(o.runDir().resolve("run.json").toFile());
    assertEquals("failed", runJson.get("state").asText());
    assertEquals("the TPC-C tables do not exist in database tpcc; create and load them first (--create --load, or "
        + "no phase flags)", runJson.get("reason").asText());
    JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
    assertEquals("failed", summary.get("state").asText());
    assertTrue(summary.at("/phases/execute").isMissingNode(), summary.toString());
  }

  @Test
  void badConfigsAndFlagsAreOneClearLine() throws Exception {
    Path bad = results.resolve("bad.xml");
    Files.writeString(bad, "<parameters><scalefactor>1</scalefactor>\n<terminals>2</terminal></parameters>");
    Path noScale = results.resolve("noscale.xml");
    Files.writeString(noScale, Files.readString(HOME.resolve("tpcc/config/tiny.xml"))
        .replace("<scalefactor>1</scalefactor>", ""));
    Path weights = results.resolve("weights.xml");
    Files.writeString(weights, Files.readString(HOME.resolve("tpcc/config/tiny.xml"))
        .replace("45,43,4,4,4", "45,43,4,4,3"));
    Path unknown = results.resolve("unknown.xml");
    Files.writeString(unknown, Files.readString(HOME.resolve("tpcc/config/tiny.xml"))
        .replace("<name>Delivery</name>", "<name>Shipping</name>"));
    List<List<String>> cases = List.of(
        List.of("--config", bad.toString()),
        List.of("--config", noScale.toString()),
        List.of("--config", weights.toString()),
        List.of("--config", unknown.toString()),
        List.of("--warehouses", "0"),
        List.of("--warehouses", "-2"),
        List.of("--config", results.resolve("missing.xml").toString()),
        List.of("--hosts", "127.0.0.1:1"),
        List.of("--hosts", ""),
        List.of("--db-version", "99"),
        List.of("--warehouses", "2", "--url-options", "sslmode=verify-full&sslrootcert=/etc/ca.crt"),
        List.of("--results-dir", "/proc/ybbench-results"),
        List.of("--max-outage-pct", "-1"),
        List.of("--engine", "hammerdb"),
        List.of("--engine", "benchbase", "--benchbase", results.toString()),
        List.of("--engine", "benchbase", "--benchbase", results.toString(), "--spec", "--connections", "2"),
        List.of("--no-such-flag"));
    for (List<String> args : cases) {
      Outcome o = run(args.toArray(new String[0]));
      String err = o.err().strip();
      assertEquals(2, o.exitCode(), args.toString());
      assertEquals(1, err.lines().count(), args + " printed: " + err);
      assertTrue(err.startsWith("error: "), err);
      assertFalse(err.contains("Exception") || err.contains("\tat "), err);
      System.out.println(args + " -> " + err);
      if (args.contains("127.0.0.1:1")) {
        continue; // refused when the run connects, which a dry run does not
      }
      List<String> dry = new java.util.ArrayList<>(args);
      dry.add("--dry-run");
      Outcome d = run(dry.toArray(new String[0]));
      assertEquals(2, d.exitCode(), dry + " passed a dry run: " + d.out());
      assertEquals(DryRuns.refusal(err), DryRuns.refusal(d.err()), dry + ": the dry run refuses with the run's line");
    }
  }

  @Test
  void aDryRunPrintsThePlanAndStartsNothing() {
    long start = System.nanoTime();
    Outcome o = run("--warehouses", "2", "--each-type", "--duration", "30", "--results-dir", results.toString(),
        "--label", "rc 2.25", "--database", "tpcc_rc", "--dry-run");
    Outcome given = run("--hosts", "10.0.0.1,10.0.0.2", "--database", "bench", "--url-options",
        "sslmode=verify-full&sslrootcert=/etc/yb/ca.crt", "--password", "Secret-Pw-1", "--results-dir",
        results.toString(), "--dry-run");
    assertEquals(0, given.exitCode(), given.err() + given.out());
    assertTrue(given.out().contains("  url: jdbc:postgresql://10.0.0.1:5433,10.0.0.2:5433/bench?reWriteBatchedInserts="
        + "true&sslmode=verify-full&sslrootcert=/etc/yb/ca.crt&loadBalanceHosts=true as postgres with a password"),
        given.out());
    assertFalse(given.out().contains("Secret-Pw-1"), given.out());
    // With --warehouses, a run asks the server which config fits it; a dry run asks nothing.
    Outcome chosen = run("--warehouses", "100", "--spec", "--hosts", "10.0.0.1", "--dry-run");
    assertEquals(0, chosen.exitCode(), chosen.err() + chosen.out());
    assertTrue(chosen.out().contains("  config: " + HOME.resolve("tpcc/config/yugabyte_100w_spec.xml") + " (YugabyteDB's; "
        + "on PostgreSQL the run takes postgres_100w_spec.xml, as the server says what it is)"), chosen.out());
    assertEquals(0, o.exitCode(), o.err() + o.out());
    for (String line : List.of("Plan (nothing started):", "  config: " + HOME.resolve("tpcc/config/postgres_100w.xml"),
        "  target: embedded PostgreSQL ", "  phases: create and load what is missing, execute, check",
        "  warehouses: 2", "  terminals: 20", "  isolation: TRANSACTION_SERIALIZABLE", "  time_s: 30",
        "  execute-6.weights: [0, 0, 0, 0, 100]", "  label: rc 2.25",
        "  url: the embedded server's, once it is up (database tpcc_rc)", "  database: tpcc_rc as postgres",
        "  schema: the 9 TPC-C tables: created and loaded with 2 warehouses when missing; when they hold another "
            + "count (read at the start), dropped, created and loaded again; kept when they hold 2",
        "  phase.execute-6: weights [0, 0, 0, 0, 100], 60 s warm-up and 30 s measured (90 s)",
        // Its size before it starts: 2 × 499,011 rows and the 100,000 items; PostgreSQL 15's bytes.
        "  phase.load: 2 warehouses, when not loaded: 1,098,022 rows, about 227 MB on PostgreSQL (107 MB a "
            + "warehouse) (time unknown until it runs; no earlier complete load of this benchmark on this target in "
            + "the results directory to go by)",
        "  command: ./run_tpcc.sh --warehouses 2 --each-type --duration 30 --results-dir " + results
            + " --label 'rc 2.25' --database tpcc_rc")) {
      assertTrue(o.out().contains(line), line + " in " + o.out());
    }
    assertFalse(o.out().contains("Embedded PostgreSQL"), "a server was started: " + o.out());
    assertEquals(null, o.runDir());
    assertTrue((System.nanoTime() - start) / 1e9 < 10, "a dry run takes seconds");
  }

  /**
   * Each of the five types committed in the standard mix. A 4 % type is missing from n draws with
   * probability 0.96^n, so it is required only once the mix drew enough for that to be below 1e-4
   * (226 transactions): a busy machine that manages fewer in a short run is not a failure.
   */
  static void assertTheMixRanEveryType(JsonNode exec) {
    Map<String, Double> weights = Map.of("NewOrder", 0.45, "Payment", 0.43, "OrderStatus", 0.04, "Delivery", 0.04,
        "StockLevel", 0.04);
    long drawn = 0;
    for (JsonNode op : exec.get("operations")) {
      drawn += op.path("successes").asLong() + op.path("errors").asLong() + op.path("aborts").asLong();
    }
    for (Map.Entry<String, Double> t : weights.entrySet()) {
      if (Math.pow(1 - t.getValue(), drawn) < 1e-4) {
        assertTrue(exec.at("/operations/" + t.getKey() + "/successes").asLong() > 0,
            t.getKey() + " never committed in " + drawn + " transactions: " + exec);
      }
    }
  }
}
