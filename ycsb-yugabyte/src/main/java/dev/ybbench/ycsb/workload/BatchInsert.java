package dev.ybbench.ycsb.workload;

import java.util.List;
import java.util.Map;
import site.ycsb.ByteIterator;
import site.ycsb.Status;

/**
 * A DB that writes several rows as one statement, for a workload whose one write is a batch:
 * yb-sample-apps' CassandraBatchKeyValue sends one LOGGED batch of {@code --batch_size} INSERTs
 * per write. YCSB's {@link site.ycsb.DB#insert} writes one row; a batch's rows are written
 * together or not at all, so the harness measures the batch as one statement: each of its rows is
 * an INSERT with the batch's latency (a success, or an error when the batch fails), and the batch
 * itself is recorded apart (summary.json's {@code batches}).
 */
public interface BatchInsert {
  /** Writes row i, {@code keys.get(i)} with {@code values.get(i)}, for every i, in one statement. */
  Status insertBatch(String table, List<String> keys, List<Map<String, ByteIterator>> values);
}
