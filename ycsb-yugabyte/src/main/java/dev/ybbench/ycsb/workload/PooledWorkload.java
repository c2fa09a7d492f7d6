package dev.ybbench.ycsb.workload;

import java.util.Properties;
import site.ycsb.WorkloadException;

/** A workload whose run-phase threads can be split into a reader pool and a writer pool ({@link Pool}). */
public interface PooledWorkload {
  /**
   * The state of a thread of {@code pool}, in place of YCSB's {@code initThread}: the workload's
   * {@code doTransaction} then does only that pool's operations on it.
   */
  Object initThread(Properties p, int threadId, int threadCount, Pool pool) throws WorkloadException;

  /**
   * Refuses a pool that would have nothing to do, before anything starts: one line naming the
   * properties that leave it empty.
   */
  void checkPool(Pool pool);

  /**
   * Rows one call of the pool's threads writes or reads ({@code doTransaction}; a load's {@code
   * doInsert} for {@link Pool#MIX}): more than 1 for a workload whose one write is a batch. A
   * pool's limit and rate count rows, as the workload's own figures do; its threads share them out
   * in calls.
   */
  default int rowsPerCall(Pool pool) {
    return 1;
  }
}
