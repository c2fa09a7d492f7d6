package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.results.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every run audits its own counts against the server's: on PostgreSQL, pg_stat_statements. */
class ServerAuditTest {
  @TempDir
  Path results;

  @Test
  void theHarnessAndPgStatStatementsCountTheSameOperationsExactly() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RunYcsb cmd = new RunYcsb(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    // Workload A (reads and updates) over batched inserts of 64 rows: both audits, rows and calls.
    int rc = cmd.execute(new String[] {"workloada", "--records", "3000", "--operations", "6000", "--threads", "2",
        "--batch-size", "64", "--duration", "120", "--results-dir", results.toString()}, System.err);
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
      assertTrue(server.get("client_cpu_s").asDouble() > 0 && server.get("server_cpu_s").asDouble() > 0,
          server.toString());
    }
    assertTrue(printed.contains("Server audit (run): harness 6000 operations / server 6000 statements on usertable "
        + "(Δ 0.00 %)"), printed);
    JsonNode report = json.readTree(cmd.runDirectory().resolve("server.json").toFile());
    assertTrue(report.at("/phases/load/delta/tup_inserted").asLong() >= 3000, report.toString());
    assertTrue(report.at("/phases/run/statements").size() >= 2, report.toString());
  }
}
