package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every run audits its own counts against the server's: on PostgreSQL, pg_stat_statements. */
class ServerAuditIT {
  @TempDir
  Path results;

  @Test
  void theHarnessAndPgStatStatementsCountTheSameOperationsExactly() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    // Workload A (reads and updates) over batched inserts of 64 rows: both audits, rows and calls.
    int rc = cmd.execute(new String[] {"workloada", "--records", "3000", "--operations", "6000", "--threads", "2",
        "--batch-size", "64", "--duration", "120", "--server-interval", "0.5", "--results-dir", results.toString()},
        System.err);
    String printed = out.toString(StandardCharsets.UTF_8);
    System.out.println(printed);
    assertEquals(0, rc, printed);
    ObjectMapper json = new ObjectMapper();
    JsonNode phases = json.readTree(cmd.runDirectory().resolve("summary.json").toFile()).get("phases");
    for (String phase : new String[] {"load", "run"}) {
      JsonNode server = phases.at("/" + phase + "/server");
      assertEquals(phase.equals("load") ? 3000 : 6000, server.get("harness_operations").asLong(), server.toString());
      assertEquals(server.get("harness_operations").asLong(), server.get("server_statements").asLong(),
          phase + ": " + server);
      assertEquals(0.0, server.get("delta_pct").asDouble());
      assertTrue(server.get("server_cpu_s").asDouble() > 0, server.toString());
      // The client's own cost: its CPU over the operations it completed, and its peak memory.
      JsonNode client = phases.at("/" + phase + "/client");
      double cpuS = client.get("cpu_s").asDouble();
      assertTrue(cpuS > 0 && client.get("peak_rss_mb").asLong() > 0, client.toString());
      assertEquals(Math.round(1e7 * cpuS / phases.at("/" + phase + "/successes").asLong()) / 10.0,
          client.get("cpu_us_per_op").asDouble(), 0.11, client.toString());
      assertEquals(Runtime.getRuntime().availableProcessors(), client.get("cores").asInt());
    }
    assertTrue(printed.contains("Server audit (run): harness 6000 operations / server 6000 statements on usertable "
        + "(Δ 0.00 %)"), printed);
    assertTrue(printed.matches("(?s).*\\nCPU \\(run\\): client [0-9.]+ µs/op, [0-9.]+ s, [0-9]+ % of [0-9]+ cores, "
        + "peak RSS [0-9]+ MB; server [0-9.]+ µs/op\\n.*"), printed);
    JsonNode report = json.readTree(cmd.runDirectory().resolve("server.json").toFile());
    assertTrue(report.at("/phases/load/delta/tup_inserted").asLong() >= 3000, report.toString());
    assertTrue(report.at("/phases/run/statements").size() >= 2, report.toString());
    // The node's own count: the run's 6,000 reads and updates are its SELECTs and UPDATEs, no more.
    JsonNode node = phases.at("/run/server/nodes/0");
    assertEquals(6000, node.get("reads").asLong() + node.get("writes").asLong(), node.toString());
    assertTrue(node.get("read_mean_us").asDouble() > 0 && node.get("cpu_cores").asDouble() > 0, node.toString());
    List<String> samples = Files.readAllLines(cmd.runDirectory().resolve("server-timeseries.csv"));
    assertEquals("phase,elapsed_s,node,reads_per_s,writes_per_s,read_mean_us,write_mean_us,read_p99_us,write_p99_us,"
        + "cpu_cores,top_waits", samples.get(0));
    assertTrue(samples.stream().anyMatch(r -> r.startsWith("run,") && r.contains(node.get("node").asText())),
        samples.toString());
    assertTrue(Files.exists(cmd.runDirectory().resolve("plots/run-server.svg")));
  }
}
