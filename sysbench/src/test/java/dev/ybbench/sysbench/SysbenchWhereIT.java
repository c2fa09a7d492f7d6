package dev.ybbench.sysbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.analysis.Compare;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.sysbench.engine.SysbenchBinary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare.sh on sysbench runs, as on YCSB's and TPC-C's: select_random_points reads sbtest1 by k
 * through the index k_1; the candidate's table lost that index (same rows), so each event scans
 * the table. Three rounds on one server, interleaved. No absolute speed is assumed: ten index
 * probes against a scan of 20,000 rows differ by far more than any machine's noise.
 */
@Tag("alone") // measures the machine: runs after the others, one at a time (see the pom)
class SysbenchWhereIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  private void sysbench(EmbeddedPostgres pg, String label, String command) {
    RunSysbenchTest.Outcome o = RunSysbenchTest.run("select_random_points", command, "--hosts", pg.hostPort(),
        "--user", pg.user(), "--table-size", "20000", "--threads", "2", "--duration", "3", "--label", label,
        "--results-dir", results.toString(), "--no-install");
    assertEquals(0, o.exitCode(), o.err() + o.out());
  }

  private static void sql(EmbeddedPostgres pg, String statement) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/sbtest", "postgres", "");
        Statement st = c.createStatement()) {
      st.execute(statement);
    }
  }

  @BeforeAll
  static void sysbench() {
    Tools.requireInstalled("sysbench", SysbenchBinary.PACKAGE);
  }

  @Test
  void aLostIndexIsARegressionNamedByItsStatementAndPlan() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 40, System.out::println)) {
      sysbench(pg, "load", "prepare");
      for (int round = 0; round < 3; round++) {
        sysbench(pg, "indexed", "run");
        sql(pg, "DROP INDEX k_1");
        sysbench(pg, "scanning", "run");
        sql(pg, "CREATE INDEX k_1 ON sbtest1 (k)");
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Compare c = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunSysbenchTest.HOME);
    int rc = c.execute(new String[] {"indexed", "scanning", "--threshold", "20", "--results-dir", results.toString(),
        "--no-install"}, new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    System.out.println(text);
    assertEquals(Compare.REGRESSION, rc, text);
    String first = text.lines().filter(l -> l.startsWith("REGRESSION")).findFirst().orElse("");
    assertTrue(first.startsWith("REGRESSION   sysbench/select_random_points throughput (ops/s) -"), text);
    assertTrue(first.contains(" — where: server time per op +"), first);
    assertTrue(first.contains("SELECT id, k, c, pad"), "the statement is named: " + first);
    assertTrue(first.contains("plan changed (") && first.contains("→ Seq Scan on sbtest1"), first);
    JsonNode where = JSON.readTree(c.reportDirectory().resolve("comparison.json").toFile());
    assertTrue(where.toString().contains("Seq Scan on sbtest1"), where.toString());
  }
}
