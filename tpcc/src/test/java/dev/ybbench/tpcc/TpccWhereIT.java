package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.analysis.Compare;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * compare.sh's where on TPC-C, interleaved rounds on one server and one load: a candidate whose
 * database lost the index of the customer lookup by last name (Payment and Order-Status, 60 % of
 * each) is traced to that statement, its transactions, the rows its executed plan scanned and
 * its plan, and to no plan whose
 * statement's time did not move; a candidate whose plans changed but whose speed did not is not
 * named for them. The tables are analyzed after the load, as a database that has run a while
 * is: PostgreSQL plans a freshly loaded table without statistics otherwise, and autovacuum's
 * ANALYZE then moves the plans between the first runs and the next.
 */
@Tag("alone") // measures the machine: runs after the others, one at a time (see the pom)
class TpccWhereIT {
  @TempDir
  Path results;

  private static final String BY_NAME = "SELECT c_id FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 "
      + "ORDER BY c_first";

  private String tpcc(List<String> common, String... more) {
    List<String> args = new ArrayList<>(common);
    args.addAll(List.of(more));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc = new Runner(new Tpcc(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunTpccTest.HOME)
        .execute(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, text);
    return text;
  }

  private static void sql(EmbeddedPostgres pg, String statement) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/tpcc", "postgres",
        "")) {
      c.createStatement().execute(statement);
    }
  }

  private record Compared(String out, JsonNode where, Path report) {}

  /**
   * The tiny config loaded and analyzed, then three rounds of a baseline run and a candidate run
   * (each checking the database's consistency), {@code change} before each candidate and
   * {@code undo} after it; the candidate compared with the baseline.
   */
  private Compared rounds(String version, String change, String undo) throws Exception {
    return rounds(version, change, undo, 20);
  }

  private Compared rounds(String version, String change, String undo, int thresholdPct) throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(version, 40, System.out::println)) {
      List<String> common = List.of("--hosts", pg.hostPort(), "--user", "postgres", "--config",
          RunTpccTest.HOME.resolve("tpcc/config/tiny.xml").toString(), "--results-dir", results.toString(),
          "--no-install");
      tpcc(common, "--create", "--load");
      sql(pg, "ANALYZE");
      for (int round = 0; round < 3; round++) {
        for (String side : List.of("baseline", "candidate")) {
          if (side.equals("candidate")) {
            sql(pg, change);
          }
          String out = tpcc(common, "--execute", "--check", "--duration", "3", "--warmup", "1", "--label", side);
          assertTrue(out.contains("Consistency 3.3.2.1 pass") && !out.contains(" FAIL: "), out);
          if (side.equals("candidate")) {
            sql(pg, undo);
          }
        }
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Compare compare = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunTpccTest.HOME);
    int rc = compare.execute(new String[] {"baseline", "candidate", "--threshold", String.valueOf(thresholdPct),
        "--results-dir",
        results.toString(), "--no-install"}, new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    System.out.println(text);
    assertNotEquals(Compare.CANNOT_COMPARE, rc, text);
    JsonNode json = RunDirectory.JSON.readTree(compare.reportDirectory().resolve("comparison.json").toFile());
    return new Compared(rc + "\n" + text, json.at("/where/tpcc~1tiny"), compare.reportDirectory());
  }

  @ParameterizedTest(name = "PostgreSQL {0}")
  @ValueSource(strings = {"11", "17"})
  void aLostIndexIsTracedToTheCustomerLookupByNameAndNoOtherPlan(String version) throws Exception {
    Compared c = rounds(version, "DROP INDEX idx_customer_name",
        "CREATE INDEX idx_customer_name ON customer (c_w_id, c_d_id, c_last, c_first)");
    JsonNode where = c.where();
    String clause = where.get("clause").asText();
    // The statement, the transactions that issue it, and its plan.
    assertTrue(clause.contains("(" + BY_NAME.substring(0, 67) + "… in OrderStatus and Payment"), clause);
    assertTrue(clause.contains("plan changed (Index Scan using idx_customer_name on customer → "), clause);
    // The plan that ran, with a last name the run bound: it reads the district's customers, not the few of that name
    // (after the statement's mean, or after a wait event that moved with it).
    assertTrue(clause.matches(".*[;,] rows scanned by its executed plan per call [0-9.,]+ → [0-9.,]+.*"), clause);
    boolean found = false;
    int named = 0;
    for (JsonNode change : where.get("plan_changes")) {
      if (change.get("statement").asText().equals(BY_NAME)) {
        found = true;
        assertTrue(change.get("time_moved").asBoolean(), change.toString());
      }
      if (change.get("time_moved").asBoolean()) {
        named++;
        assertTrue(change.get("baseline").asText().contains("idx_customer_name"),
            "only a plan whose statement's time moved is a cause: " + change);
      }
    }
    assertTrue(found, "the lookup's plan changed: " + where.get("plan_changes"));
    assertEquals(named, clause.split(Pattern.quote("plan changed ("), -1).length - 1, clause);
  }

  /**
   * StatementPlans that change while the speed does not — here the planner told to do without index-only
   * scans on the candidate, so Delivery finds a district's oldest new order through new_order's
   * index and the table rather than the index alone — are shown as "plan changed, time
   * unchanged" and never named as a cause. (A change of the scans of the warehouse table would
   * not do: under SERIALIZABLE a sequential scan locks the whole table for predicates, and the
   * mix's conflicts, and so its speed, change with it.) Delivery's DELETE of that new order does
   * move a little, faster without the index-only scan (new_order churns, so its visibility map
   * sends an index-only scan to the heap anyway): −23 % (−33 % … −10 %) in one clean-clone run,
   * which at a 20 % threshold is a time that moved. At 30 % it is not.
   */
  @Test
  void plansThatChangedWithoutTheirTimeAreListedNotNamed() throws Exception {
    Compared c = rounds("17", "ALTER DATABASE tpcc SET enable_indexonlyscan = off",
        "ALTER DATABASE tpcc RESET enable_indexonlyscan", 30);
    assertFalse(c.out().startsWith(Compare.REGRESSION + "\n"), c.out());
    JsonNode where = c.where();
    List<String> unchanged = new ArrayList<>();
    for (JsonNode change : where.get("plan_changes")) {
      if (!change.get("time_moved").asBoolean()) {
        unchanged.add(change.get("statement").asText());
      }
    }
    assertTrue(unchanged.stream().anyMatch(s -> s.contains("FROM new_order")), where.toString());
    assertFalse(where.get("clause").asText().contains("plan changed"), where.get("clause").asText());
    String md = Files.readString(c.report().resolve("report.md"));
    Matcher m = Pattern.compile("Plan changed, time unchanged: `([^`]+)`").matcher(md);
    assertTrue(m.find() && unchanged.contains(m.group(1)), md);
  }
}
