package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.compare.Compare;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TPC-C candidate whose database lost the index only Order-Status uses (a customer's newest
 * order): compare.sh traces the change to that transaction and its statement, and shows the plan
 * that changed.
 */
@Tag("alone") // measures the machine: runs after the others, one at a time (see the pom)
class TpccWhereTest {
  @TempDir
  Path results;

  private static final String NEWEST_ORDER = "SELECT o_id, o_carrier_id, o_entry_d FROM orders WHERE o_w_id = $1 "
      + "AND o_d_id = $2 AND o_c_id = $3 ORDER BY o_id DESC LIMIT $4";

  private void tpcc(List<String> common, String... more) {
    List<String> args = new ArrayList<>(common);
    args.addAll(List.of(more));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc = new RunTpcc(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunTpccTest.HOME)
        .execute(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8));
    assertEquals(0, rc, out.toString(StandardCharsets.UTF_8));
  }

  private static void sql(EmbeddedPostgres pg, String statement) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/tpcc", "postgres",
        "")) {
      c.createStatement().execute(statement);
    }
  }

  @Test
  void aLostIndexIsTracedToOrderStatusAndItsStatement() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 40, System.out::println)) {
      List<String> common = List.of("--hosts", pg.hostPort(), "--user", "postgres", "--config",
          RunTpccTest.HOME.resolve("tpcc/config/tiny.xml").toString(), "--results-dir", results.toString());
      tpcc(common, "--create", "--load");
      // Three rounds, each the index then none (dropped, then built again for the next round):
      // interleaved, so compare pairs them by round.
      for (int round = 0; round < 3; round++) {
        tpcc(common, "--execute", "--duration", "4", "--warmup", "1", "--label", "indexed");
        sql(pg, "DROP INDEX idx_orders_customer");
        tpcc(common, "--execute", "--duration", "4", "--warmup", "1", "--label", "unindexed");
        sql(pg, "CREATE INDEX idx_orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id)");
      }

      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Compare compare = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)),
          RunTpccTest.HOME);
      compare.execute(new String[] {"indexed", "unindexed", "--threshold", "20", "--results-dir",
          results.toString(), "--no-install"}, new PrintStream(out, true, StandardCharsets.UTF_8));
      String text = out.toString(StandardCharsets.UTF_8);
      System.out.println(text);
      JsonNode json = RunDirectory.JSON.readTree(compare.reportDirectory().resolve("comparison.json").toFile());
      JsonNode where = json.at("/where/tpcc~1tiny");
      JsonNode newest = null;
      for (JsonNode change : where.get("plan_changes")) {
        assertTrue(change.get("baseline").asText().contains("using idx_orders_customer on orders"),
            "every plan that changed had used the index: " + change);
        if (change.get("statement").asText().equals(NEWEST_ORDER)) {
          newest = change;
        }
      }
      assertTrue(newest != null, "Order-Status's statement changed plan: " + where.get("plan_changes"));
      boolean slower = false;
      for (JsonNode l : where.get("layers")) {
        if (l.get("item").asText().equals(NEWEST_ORDER) && l.get("metric").asText().equals("mean (µs)")) {
          slower = l.get("finding").asText().equals("worse");
        }
      }
      assertTrue(slower, "the statement's server time rose: " + where);
      // The statement, and the transaction that issues it.
      String clause = where.get("clause").asText();
      assertTrue(clause.contains("server time per statement +") && clause.contains("(SELECT o_id, o_carrier_id, "
          + "o_entry_d FROM orders WHERE"), clause);
      assertTrue(clause.contains("… in OrderStatus)"), clause);
      assertTrue(clause.contains("plan changed (Limit > Index Scan using idx_orders_customer on orders →"), clause);
    }
  }
}
