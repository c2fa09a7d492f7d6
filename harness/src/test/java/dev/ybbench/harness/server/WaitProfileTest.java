package dev.ybbench.harness.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WaitProfileTest {
  private static final String UPDATE = "UPDATE usertable SET field0 = $1 WHERE ycsb_key = $2";
  private static final String SELECT = "SELECT * FROM usertable WHERE ycsb_key = $1";

  @Test
  void samplesAreAddedUpByEventAndStatementTheMostFirst() {
    Map<String, Map<String, Double>> byStatement = new HashMap<>();
    byStatement.put(UPDATE, Map.of("Lock:transactionid", 58.0, "CPU", 30.0, "LWLock:WALWrite", 12.0));
    byStatement.put(SELECT, Map.of("CPU", 20.0));
    byStatement.put(null, Map.of("IO:DataFileRead", 2.0));
    WaitProfile p = WaitProfile.of("pg_stat_activity every 100 ms", 80L, byStatement, null);
    assertEquals(122.0, p.samples());
    assertEquals(List.of("Lock:transactionid", "CPU", "LWLock:WALWrite", "IO:DataFileRead"),
        List.copyOf(p.events().keySet()));
    assertEquals(50.0, p.events().get("CPU"));
    assertEquals(List.of("Lock:transactionid", "CPU", "LWLock:WALWrite"),
        List.copyOf(p.statements().get(UPDATE).keySet()));
    assertEquals(Map.of("IO:DataFileRead", 2.0), p.unattributed());
    assertEquals(41.0, p.onCpuPct()); // 50 of 122
    assertNull(p.background());
  }

  @Test
  void theTopEventsOfAStretchWithTheirShares() {
    assertEquals("Lock:transactionid 58%;CPU 30%;LWLock:WALWrite 7%", WaitProfile.top(Map.of(
        "Lock:transactionid", 58.0, "CPU", 30.0, "LWLock:WALWrite", 7.0, "IO:WalSync", 5.0), 3));
    assertEquals("", WaitProfile.top(Map.of(), 3));
  }

  @Test
  void onCpuIsPostgresCpuOrYugabyteOnCpuEvents() {
    assertTrue(WaitProfile.onCpu("CPU"));
    assertTrue(WaitProfile.onCpu("Cpu:OnCpu_Active"));
    assertFalse(WaitProfile.onCpu("Lock:transactionid"));
    assertFalse(WaitProfile.onCpu("TabletWait:ConflictResolution_WaitOnConflictingTxns"));
  }

  @Test
  void workPerCallKeepsTheCountersThatMoved() {
    assertEquals(Map.of("docdb_rows_scanned", 10000.0, "docdb_read_rpcs", 0.3333), ServerReport.perCall(Map.of(
        "docdb_rows_scanned", 30000.0, "docdb_read_rpcs", 1.0, "temp_blks_read", 0.0), 3));
    assertNull(ServerReport.perCall(null, 3));
  }

  @Test
  void workCountersAreSubtractedAndAddedCounterByCounter() {
    ServerView.StatementCount before = new ServerView.StatementCount(10, 10, 1.0, 5L, 0L, Map.of("wal_records", 12.0),
        null);
    ServerView.StatementCount after = new ServerView.StatementCount(30, 30, 3.0, 15L, 1L, Map.of("wal_records", 40.5,
        "temp_blks_read", 2.0), null);
    assertEquals(Map.of("wal_records", 28.5, "temp_blks_read", 2.0), after.minus(before).work());
    assertEquals(Map.of("wal_records", 52.5), after.plus(before).work()); // a counter one side lacks is no sum
    assertEquals(Map.of(), ServerView.StatementCount.none(after).work());
  }
}
