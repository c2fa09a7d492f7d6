package dev.ybbench.harness.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    assertEquals(4018 + 3982 + 7 + 11, ServerReport.completedStatements(s, "usertable"));
  }
}
