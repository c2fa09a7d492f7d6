package dev.ybbench.harness.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.results.RunDirectory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A plan's shape keeps what the planner chose and drops what data and statistics move. */
class StatementPlansTest {
  private static final String INDEXED = """
      {"Node Type": "Limit", "Startup Cost": 0.28, "Total Cost": 8.30, "Plan Rows": 1, "Plan Width": 1030,
       "Plans": [{"Node Type": "Index Scan", "Parent Relationship": "Outer", "Scan Direction": "Forward",
                  "Index Name": "usertable_pkey", "Relation Name": "usertable", "Alias": "usertable",
                  "Total Cost": 8.30, "Plan Rows": 1, "Index Cond": "(ycsb_key >= $1)"}]}""";

  @Test
  void theShapeNamesNodesIndexesAndTablesAndNestsChildren() throws Exception {
    assertEquals("Limit > Index Scan using usertable_pkey on usertable",
        StatementPlans.shape(RunDirectory.JSON.readTree(INDEXED)));
    String join = """
        {"Node Type": "Hash Join", "Join Type": "Inner", "Plans": [
          {"Node Type": "Seq Scan", "Relation Name": "stock"},
          {"Node Type": "Hash", "Plans": [{"Node Type": "Index Only Scan", "Index Name": "ol_pkey",
                                           "Relation Name": "order_line"}]}]}""";
    assertEquals("Hash Join (Inner) [Seq Scan on stock, Hash > Index Only Scan using ol_pkey on order_line]",
        StatementPlans.shape(RunDirectory.JSON.readTree(join)));
    assertEquals("Aggregate (Hashed) > Seq Scan on t", StatementPlans.shape(RunDirectory.JSON.readTree(
        "{\"Node Type\": \"Aggregate\", \"Strategy\": \"Hashed\", \"Plans\": [{\"Node Type\": \"Seq Scan\", "
            + "\"Relation Name\": \"t\"}]}")));
  }

  @Test
  void costsAndRowEstimatesDoNotChangeTheFingerprintAnIndexDoes() throws Exception {
    String moreRows = INDEXED.replace("\"Plan Rows\": 1,", "\"Plan Rows\": 5000,").replace("8.30", "912.5");
    String other = StatementPlans.shape(RunDirectory.JSON.readTree(INDEXED));
    assertEquals(StatementPlans.fingerprint(other), StatementPlans.fingerprint(StatementPlans.shape(RunDirectory.JSON.readTree(moreRows))));
    String seq = INDEXED.replace("\"Index Scan\"", "\"Seq Scan\"").replace("\"Index Name\": \"usertable_pkey\",", "");
    assertNotEquals(StatementPlans.fingerprint(other), StatementPlans.fingerprint(StatementPlans.shape(RunDirectory.JSON.readTree(seq))));
    // SHA-256 of the shape's UTF-8 bytes, first 6 bytes in hex.
    assertEquals("7c5cb74a1edc", StatementPlans.fingerprint("Limit > Index Scan using usertable_pkey on usertable"));
  }

  @Test
  void withoutAGenericPlanSettingParametersBecomeUnknownValuesOfTheirTypes() throws Exception {
    assertEquals("SELECT * FROM usertable WHERE ycsb_key >= (SELECT NULL::character varying) LIMIT "
        + "(SELECT NULL::bigint)", StatementPlans.unknownValues("SELECT * FROM usertable WHERE ycsb_key >= $1 LIMIT $2",
        List.of("character varying", "bigint")));
    // $10 is not $1 followed by 0.
    List<String> ten = new ArrayList<>(Collections.nCopies(9, "integer"));
    ten.add("text");
    assertEquals("VALUES ((SELECT NULL::integer), (SELECT NULL::text))", StatementPlans.unknownValues("VALUES ($1, $10)", ten));
    // PostgreSQL 11's plan of the first: its initplans left out, the shape is the generic plan's.
    String pg11 = """
        [{"Plan": {"Node Type": "Limit", "Plans": [
          {"Node Type": "Result", "Parent Relationship": "InitPlan", "Subplan Name": "InitPlan 1 (returns $0)"},
          {"Node Type": "Result", "Parent Relationship": "InitPlan", "Subplan Name": "InitPlan 2 (returns $1)"},
          {"Node Type": "Index Scan", "Parent Relationship": "Outer", "Index Name": "usertable_pkey",
           "Relation Name": "usertable", "Index Cond": "((ycsb_key)::text >= ($0)::text)"}]}}]""";
    assertEquals("Limit > Index Scan using usertable_pkey on usertable",
        StatementPlans.shape(StatementPlans.withoutInitPlans(RunDirectory.JSON.readTree(pg11)).path(0).path("Plan")));
    // A statement's own initplan, one that reads a table, stays.
    String own = """
        [{"Plan": {"Node Type": "Result", "Plans": [
          {"Node Type": "Seq Scan", "Parent Relationship": "InitPlan", "Relation Name": "district"}]}}]""";
    assertEquals("Result > Seq Scan on district",
        StatementPlans.shape(StatementPlans.withoutInitPlans(RunDirectory.JSON.readTree(own)).path(0).path("Plan")));
  }

  @Test
  void aStatementAsTheClientSendsItMatchesItAsTheServerCountsIt() {
    String client = "SELECT o_id, o_carrier_id, o_entry_d FROM orders\n    WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? "
        + "ORDER BY o_id DESC LIMIT 1";
    String server = "SELECT o_id, o_carrier_id, o_entry_d FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3 "
        + "ORDER BY o_id DESC LIMIT $4";
    assertEquals(ServerReport.canonical(server), ServerReport.canonical(client));
    assertEquals("SELECT s_dist_01 FROM stock WHERE s_i_id = ? AND x > ?",
        ServerReport.canonical("SELECT s_dist_01 FROM stock WHERE s_i_id = $12 AND x > 2.5"));
  }

  @Test
  void theHarnessOwnStatementsAreNotTheBenchmarks() {
    assertTrue(ServerReport.isBenchmarkStatement("SELECT * FROM usertable WHERE ycsb_key = $1"));
    assertTrue(ServerReport.isBenchmarkStatement("  update usertable SET field1 = $1 WHERE ycsb_key = $2"));
    assertTrue(ServerReport.isBenchmarkStatement("COMMIT"));
    assertFalse(ServerReport.isBenchmarkStatement("SELECT query, sum(calls) FROM pg_stat_statements GROUP BY query"));
    assertFalse(ServerReport.isBenchmarkStatement("SET application_name = 'ybbench'"));
    assertFalse(ServerReport.isBenchmarkStatement("CREATE TABLE usertable (ycsb_key VARCHAR PRIMARY KEY)"));
    assertFalse(ServerReport.isBenchmarkStatement("SELECT to_regclass($1) IS NOT NULL"));
    assertFalse(ServerReport.isBenchmarkStatement("EXPLAIN (GENERIC_PLAN, FORMAT JSON) SELECT 1"));
  }
}
