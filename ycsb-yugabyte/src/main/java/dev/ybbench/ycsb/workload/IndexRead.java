package dev.ybbench.ycsb.workload;

import java.util.List;
import java.util.Map;
import site.ycsb.ByteIterator;
import site.ycsb.Status;

/**
 * A DB that reads rows by a value instead of by key, through the table's index on that value:
 * yb-sample-apps' SqlSecondaryIndex reads {@code SELECT k, v FROM sqlsecondaryindex WHERE v = ?}.
 * YCSB's {@link site.ycsb.DB#read} finds one row by its key; a read by value may find none or
 * several, so every row found is handed back, key columns included, for the workload to check.
 */
public interface IndexRead {
  /**
   * The rows whose {@code column} holds {@code value}, each as its columns by name, into {@code
   * rows}: OK when there is at least one, NOT_FOUND when there is none.
   */
  Status readByValue(String table, String column, String value, List<Map<String, ByteIterator>> rows);
}
