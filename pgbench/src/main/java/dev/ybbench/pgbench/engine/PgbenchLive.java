package dev.ybbench.pgbench.engine;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationMetrics;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.metrics.Timeseries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A pgbench run served live (--prometheus-port): its per-transaction log followed once a second
 * into the harness's counters, by script, so that a scrape sees the transactions pgbench has
 * flushed to its log — up to one stdio buffer (a few kilobytes of lines) behind — and, once the run
 * ended, exactly what the results count: the log is read once, for both.
 */
public final class PgbenchLive implements PgbenchLog.Sink, AutoCloseable {
  private final List<String> scripts;
  private final boolean rate;
  private final boolean ysql;
  private final Metrics metrics = new Metrics();
  private final PhaseRecorder recorder;
  private final ScheduledExecutorService follow;

  /**
   * @param scripts the scripts' names, by their number in the log
   * @param rate    the rate it runs at (-R), or null
   * @param ysql    ysql_bench's log
   */
  public PgbenchLive(String phase, List<String> scripts, Double rate, boolean ysql, Timeseries timeseries) {
    this.scripts = List.copyOf(scripts);
    this.rate = rate != null;
    this.ysql = ysql;
    this.recorder = PhaseRecorder.liveOnly(phase, metrics, timeseries);
    recorder.expectOperations(this.scripts);
    recorder.targetOpsPerSecond(rate == null ? 0 : rate);
    this.follow = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "pgbench-log-follower");
      t.setDaemon(true);
      return t;
    });
  }

  /** Follows {@code log} once a second until {@link #close}. */
  public void follow(PgbenchLog.Follower log) {
    follow.scheduleWithFixedDelay(() -> {
      try {
        log.pass();
      } catch (IOException e) {
        throw new UncheckedIOException(e); // ends the following; the log is read whole at the end
      }
    }, 1, 1, TimeUnit.SECONDS);
  }

  @Override
  public void transaction(int script, String time, long lagUs, long tries) {
    OperationMetrics op = metrics.operation(scripts.get(script));
    for (long i = 0; i < tries; i++) {
      op.retry(PgbenchResults.RETRIED_CLASS);
    }
    if (Character.isDigit(time.charAt(0))) {
      long us = Math.max(1, Long.parseLong(time));
      if (rate) {
        op.success(us, Math.max(1, us - lagUs));
      } else {
        op.success(us);
      }
    } else if (!time.equals("skipped")) {
      op.failed(PgbenchResults.outcome(time, ysql), 1);
    }
  }

  /** Stops following; the caller then reads the rest ({@link PgbenchLog.Follower#finish}) into the counters. */
  public void stopFollowing() throws InterruptedException {
    follow.shutdownNow();
    follow.awaitTermination(10, TimeUnit.SECONDS);
  }

  /** Stops following, and the live phase ends: its totals final. */
  @Override
  public void close() throws InterruptedException {
    stopFollowing();
    recorder.close();
  }
}
