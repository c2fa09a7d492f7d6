package dev.ybbench.harness.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.results.RunDirectory;
import org.junit.jupiter.api.Test;

/** A node's /statements in YugabyteDB's forms (the samples' README says from which writers). */
class StatementsJsonTest {
  @Test
  void ysqlKeepsTheBenchmarkDatabasesStatementsWithRowsAndBuckets() throws Exception {
    StatementsJson.NodeStatements n = StatementsJson.parse(RunDirectory.JSON.readTree(
        YugabyteViewTest.sample("yugabyte-ysql-13000-statements.json")), 16384L);
    assertTrue(n.countsRows());
    assertEquals(2, n.statements().size(), n.statements().keySet().toString());
    ServerView.StatementCount update = n.statements().get("UPDATE usertable SET field1 = $1 WHERE ycsb_key = $2");
    assertEquals(new ServerView.StatementCount(6000, 6000, 4800.0, null, null, null, update.latencyHistogram()), update);
    // 99 % of 6,000 is the 5,940th execution, the last of [1.6,1.8).
    assertEquals(1.8, update.latencyHistogram().percentileMs(99));
    assertEquals(32.0, update.latencyHistogram().percentileMs(99.5));
    // Each statement's query_id, which its ASH samples carry, names its text.
    assertEquals("SELECT * FROM usertable WHERE ycsb_key = $1", n.ids().get(-3421874316391934719L));
    assertEquals(2, n.ids().size(), n.ids().toString());
  }

  @Test
  void postgres15BasedYsqlTimesExecutionApart() throws Exception {
    // 2025.1's fields (Metrics.java @ 0a61b1b reads them): total_exec_time beside total_plan_time.
    String pg15 = "{\"statements\": [{\"userid\": 10, \"dbid\": 5, \"query_id\": 1, \"query\": \"SELECT 1\", \"calls\": 4, "
        + "\"total_plan_time\": 9.0, \"total_exec_time\": 2.0, \"rows\": 4, \"yb_latency_histogram\": "
        + "[{\"[0.4,0.5)\": 4}]}]}";
    ServerView.StatementCount s = StatementsJson.parse(RunDirectory.JSON.readTree(pg15), null).statements()
        .get("SELECT 1");
    assertEquals(2.0, s.timeMs());
    assertEquals(4, s.latencyHistogram().count());
  }

  @Test
  void ycqlCountsCallsNotRowsAndAModuleSwitchedOffSaysSo() throws Exception {
    StatementsJson.NodeStatements n = StatementsJson.parse(RunDirectory.JSON.readTree(
        YugabyteViewTest.sample("yugabyte-ycql-12000-statements.json")), null);
    assertFalse(n.countsRows());
    assertEquals(1000, n.statements().get("INSERT INTO usertable (y_id, field0) VALUES (?, ?)").calls());
    IllegalArgumentException off = assertThrows(IllegalArgumentException.class, () -> StatementsJson.parse(
        RunDirectory.JSON.readTree("{\"statements\":\"PG Stat Statements module is disabled.\"}"), null));
    assertEquals("PG Stat Statements module is disabled.", off.getMessage());
  }
}
