package dev.ybbench.ycsb.client;

import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import dev.ybbench.ycsb.workload.Pool;
import dev.ybbench.ycsb.workload.PooledWorkload;
import site.ycsb.DBException;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;

/**
 * One YCSB client thread, in place of YCSB's {@code ClientThread}: the same loop — the workload's
 * doInsert (load) or doTransaction (run) until the thread's share is done or the workload is
 * asked to stop, paced to the target rate (the load too) — with four differences: counts are
 * 64-bit; under a target rate each operation's intended start (the schedule's, not the moment the
 * previous operation let it go) is handed to the measurement, so a stalled server shows in the
 * latency instead of delaying the schedule unseen (coordinated omission); an insert of the load
 * that failed after its retries is counted and the load goes on, where YCSB's thread stops
 * loading; and a binding that cannot start or a workload that throws ends this thread with its
 * cause, where YCSB's prints a stack trace and waits forever, or exits the JVM with status 0.
 */
public final class ClientLoop implements Runnable {
  /** A thread's share when the phase is limited by time only. */
  public static final long UNLIMITED = -1;

  private final MeasuredDB db;
  private final Workload workload;
  private final Properties props;
  private final boolean transactions;
  private final long operations;
  private final long intervalNanos;
  private final int threadId;
  private final int threadCount;
  private final Pool pool;
  private final ClientThreadFailures failures;
  private final CountDownLatch done;
  private final Restart restart;

  /**
   * When the threads' schedules begin again (System.nanoTime; 0 = never): as the warm-up ends, so
   * that operations the warm-up fell behind on are not caught up inside the measured window, where
   * they would carry its throughput past the target. The warm-up is not measured; its backlog is
   * dropped with it.
   */
  public static final class Restart {
    private volatile long at;

    public void now() {
      at = System.nanoTime();
    }

    long at() {
      return at;
    }
  }

  /**
   * @param transactions  the run phase's mix (true) or the load's inserts (false)
   * @param operations    this thread's share ({@link #UNLIMITED} = until the workload is asked to stop)
   * @param intervalNanos the schedule: one operation every this many ns (0 = as fast as possible)
   * @param pool          the mix, or the share of it this thread's pool does (a {@link PooledWorkload} workload's)
   */
  public ClientLoop(MeasuredDB db, Workload workload, Properties props, boolean transactions, long operations,
      long intervalNanos, int threadId, int threadCount, Pool pool, ClientThreadFailures failures,
      CountDownLatch done, Restart restart) {
    this.db = db;
    this.workload = workload;
    this.props = props;
    this.transactions = transactions;
    this.operations = operations;
    this.intervalNanos = intervalNanos;
    this.threadId = threadId;
    this.threadCount = threadCount;
    this.pool = pool;
    this.failures = failures;
    this.done = done;
    this.restart = restart;
  }

  @Override
  public void run() {
    db.init(); // a binding that cannot start ends the thread here, recorded by ClientThreadFailures
    Object state;
    try {
      state = pool == Pool.MIX ? workload.initThread(props, threadId, threadCount)
          : ((PooledWorkload) workload).initThread(props, threadId, threadCount, pool);
    } catch (WorkloadException | RuntimeException e) {
      throw failures.failed(e);
    }
    try {
      // Threads start at different points of one interval, so their operations do not arrive in step.
      Schedule schedule = new Schedule(intervalNanos, intervalNanos > 0
          ? ThreadLocalRandom.current().nextLong(intervalNanos) : 0, System.nanoTime());
      for (long n = 0; (operations == UNLIMITED || n < operations) && !workload.isStopRequested(); n++) {
        if (intervalNanos > 0) {
          long intended = schedule.intended(n, restart.at());
          sleepUntil(intended);
          db.scheduled(intended);
        }
        // A load goes on past an insert that failed after its retries (it is counted as an error):
        // one lost row must not end a thread's share of a load that may run for days.
        if (!transactions) {
          workload.doInsert(db, state);
        } else if (!workload.doTransaction(db, state)) {
          break;
        }
      }
    } finally {
      db.scheduled(0);
      try {
        db.cleanup();
      } catch (DBException e) {
        failures.failedLater(e);
      } finally {
        done.countDown();
      }
    }
  }

  /**
   * One thread's schedule: operation n is due at start + offset + n × interval, counted from the
   * last restart (the operation due when it came is the first of the new schedule).
   */
  static final class Schedule {
    private final long interval;
    private final long offset;
    private long start;
    private long first;
    private long restarted;

    Schedule(long interval, long offset, long now) {
      this.interval = interval;
      this.offset = offset;
      this.start = now + offset;
    }

    /** When operation {@code n} is due; {@code restartAt} the latest restart (0: none yet). */
    long intended(long n, long restartAt) {
      if (restartAt != restarted) {
        restarted = restartAt;
        start = restartAt + offset;
        first = n;
      }
      return start + (n - first) * interval;
    }
  }

  private void sleepUntil(long deadline) {
    for (long left = deadline - System.nanoTime(); left > 0 && !workload.isStopRequested();
        left = deadline - System.nanoTime()) {
      LockSupport.parkNanos(Math.min(left, 100_000_000L));
    }
  }
}
