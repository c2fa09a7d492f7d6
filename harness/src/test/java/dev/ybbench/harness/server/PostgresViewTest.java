package dev.ybbench.harness.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PostgresViewTest {
  @Test
  void aNodesWritesAreItsWritingStatementsCopyIncludedAndNotTheHarnesssOwnQueries() {
    Map<String, ServerView.StatementCount> statements = new LinkedHashMap<>();
    statements.put("SELECT * FROM usertable WHERE ycsb_key = $1", new ServerView.StatementCount(100, 100, 5.0));
    statements.put("UPDATE usertable SET field0 = $1 WHERE ycsb_key = $2", new ServerView.StatementCount(40, 40, 4.0));
    statements.put("COPY usertable (ycsb_key, field0) FROM STDIN", new ServerView.StatementCount(3, 1536, 30.0));
    statements.put("INSERT INTO usertable (ycsb_key, field0) VALUES ($1, $2)", new ServerView.StatementCount(2, 2, 1.0));
    statements.put("SELECT calls, rows FROM pg_stat_statements", new ServerView.StatementCount(7, 70, 9.0));
    ServerView.NodeCounters n = PostgresView.node(statements, 42L);
    assertEquals(100, n.reads());
    assertEquals(45, n.writes(), "40 UPDATE, 3 COPY and 2 INSERT statements");
    assertEquals(5000.0, n.readMicros());
    assertEquals(35000.0, n.writeMicros());
    assertEquals(42L, n.cpuNanos());
  }

  @Test
  void theCollectorHasCountedWhenTwoReadingsAgreeButForTheViewsOwnCommits() {
    Map<String, Long> a = new LinkedHashMap<>(Map.of("xact_commit", 10L, "tup_inserted", 5000L));
    Map<String, Long> b = new LinkedHashMap<>(Map.of("xact_commit", 12L, "tup_inserted", 5000L));
    assertTrue(PostgresView.agree(a, b), "this view's own reads commit too");
    b.put("tup_inserted", 5045L);
    assertFalse(PostgresView.agree(a, b), "a session's report arrived in between");
  }
}
