package dev.ybbench.harness.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the audit counts as the server's completed statements on the benchmark's table. */
class ServerReportTest {
  private static ServerView.StatementCount calls(long calls, long rows) {
    return new ServerView.StatementCount(calls, rows, null);
  }

  @Test
  void theAuditCountsTheTablesOperationsNotItsSchemaNorThePlansReadOfIt() {
    Map<String, ServerView.StatementCount> s = new LinkedHashMap<>();
    s.put("SELECT * FROM usertable WHERE ycsb_key = $1", calls(4018, 4018));
    s.put("INSERT INTO usertable (ycsb_key, field0) VALUES ($1, $2)", calls(400, 3982)); // batched: rows count
    s.put("UPDATE usertable SET field0 = $1 WHERE ycsb_key = $2", calls(7, 7));
    s.put("EXPLAIN (GENERIC_PLAN) SELECT * FROM usertable WHERE ycsb_key = $1", calls(1, 0));
    s.put("PREPARE ybbench_plan_1 AS SELECT * FROM usertable WHERE ycsb_key = $1", calls(1, 0));
    s.put("CREATE TABLE usertable (ycsb_key VARCHAR PRIMARY KEY)", calls(1, 0));
    s.put("COMMENT ON TABLE usertable IS 'ybbench fleet f'", calls(1, 0));
    s.put("SELECT * FROM usertable_copy WHERE ycsb_key = $1", calls(5, 5)); // another table
    s.put("coordinator reads on ycsb.usertable", calls(11, 0)); // Cassandra's count of requests
    s.put(ServerReport.NOT_AUDITED + "SELECT count(ycsb_key) FROM usertable", calls(1, 1)); // a fleet client's probe
    assertEquals(4018 + 3982 + 7 + 11, ServerReport.completedStatements(s, AuditedTables.of("usertable")));
  }

  @Test
  void severalTablesAreAuditedTogetherAndATransactionsStatementsAgainstItsQueries() {
    Map<String, ServerView.StatementCount> s = new LinkedHashMap<>();
    s.put("SELECT c FROM sbtest1 WHERE id=$1", calls(100, 100));
    s.put("SELECT c FROM sbtest10 WHERE id=$1", calls(90, 90));
    s.put("UPDATE sbtest2 SET k=k+1 WHERE id=$1", calls(9, 9));
    s.put("SELECT c FROM sbtest11 WHERE id=$1", calls(50, 50)); // not one of the ten
    s.put("BEGIN", calls(20, 0));
    s.put("COMMIT", calls(20, 0));
    AuditedTables ten = new AuditedTables(java.util.stream.IntStream.rangeClosed(1, 10)
        .mapToObj(i -> "sbtest" + i).toList());
    assertEquals("sbtest1 … sbtest10", ten.toString());
    assertEquals(100 + 90 + 9, ServerReport.completedStatements(s, ten));
    dev.ybbench.harness.results.PhaseResult phase = dev.ybbench.harness.results.PhaseResult.ofOperations(Map.of(
        "transaction", new dev.ybbench.harness.results.OperationResult(20, 0, Map.of(), 0, 2.0, null)), 10,
        java.util.List.of());
    assertEquals(20, ServerReport.completedOperations(phase, true));
    assertEquals(199, ServerReport.completedOperations(phase.toBuilder().auditedStatements(199L).build(), true));
  }

  /**
   * Rows written in batch statements: counted as rows against pg_stat_statements' COPY rows, and
   * as batches against Cassandra's coordinated writes, where a LOGGED batch is one request.
   */
  @Test
  void batchedRowsAreAuditedInTheServersUnit() {
    Map<String, dev.ybbench.harness.results.OperationResult> ops = new LinkedHashMap<>();
    ops.put("INSERT", new dev.ybbench.harness.results.OperationResult(250, 0, Map.of(), 0, 25.0, null));
    ops.put("READ", new dev.ybbench.harness.results.OperationResult(40, 2, Map.of("NOT_FOUND", 2L), 0, 4.0, null));
    dev.ybbench.harness.results.PhaseResult phase = dev.ybbench.harness.results.PhaseResult.ofOperations(ops, 10,
        java.util.List.of()).toBuilder().batches(Map.of("INSERT", new dev.ybbench.harness.results.OperationResult(10,
            0, Map.of(), 0, 1.0, null))).build();
    AuditedTables kv = AuditedTables.of("cassandrakeyvalue");
    Map<String, ServerView.StatementCount> postgres = Map.of("COPY cassandrakeyvalue (k, v) FROM STDIN", calls(10, 250),
        "SELECT k, v FROM cassandrakeyvalue WHERE k = $1", calls(42, 40));
    assertTrue(ServerReport.writesCountedInRows(postgres, kv));
    assertEquals(250 + 40 + 2, ServerReport.completedOperations(phase, true));
    assertEquals(ServerReport.completedStatements(postgres, kv), ServerReport.completedOperations(phase, true));
    Map<String, ServerView.StatementCount> cassandra = Map.of(
        "coordinator writes on ybdemo_keyspace.cassandrakeyvalue", calls(10, 0),
        "coordinator reads on ybdemo_keyspace.cassandrakeyvalue", calls(42, 0));
    assertFalse(ServerReport.writesCountedInRows(cassandra, kv));
    assertEquals(10 + 40 + 2, ServerReport.completedOperations(phase, false));
    assertEquals(ServerReport.completedStatements(cassandra, kv), ServerReport.completedOperations(phase, false));
  }
}
