package dev.ybbench.tpcc.txn;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.run.Run;
import dev.ybbench.tpcc.TpccDatabase;
import dev.ybbench.tpcc.TpccMetrics;
import dev.ybbench.tpcc.TpccRandom;
import dev.ybbench.tpcc.WarehouseRange;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.load.LoadPhase;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * One measurement, of one {@code <work>}: the config's terminals spread over the client's
 * warehouses, a warm-up whose results are dropped, then the window whose results count, with a
 * status line every 10 s.
 */
public final class ExecutePhase {
  private ExecutePhase() {}

  /** The phase of the first work; later works are {@code execute-2}, {@code execute-3} … (see {@link #phase}). */
  public static final String PHASE = "execute";

  /** The phase name of the {@code index}-th work (0-based). */
  public static String phase(int index) {
    return index == 0 ? PHASE : PHASE + "-" + (index + 1);
  }

  public static PhaseResult run(Run run, String phase, TpccDatabase db, TpccConfig config, TpccConfig.Work work,
      WarehouseRange range, int maxRetries, int warmupSeconds, int measureSeconds) throws InterruptedException {
    Random seeds = new Random();
    TpccRandom.Constants runConstants = TpccRandom.Constants.forRun(LoadPhase.LOAD_CONSTANTS, seeds);
    Metrics metrics = new Metrics();
    // Without a warm-up the terminals record into the window from their first transaction.
    Metrics warmupMetrics = warmupSeconds > 0 ? new Metrics() : metrics;
    double pacing = work.rate() == null ? 0 : config.terminals() / work.rate();
    List<Terminal> terminals = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < config.terminals(); i++) {
      // Terminals spread over the warehouses first, then over each warehouse's districts.
      int home = range.first() + i % range.count();
      int district = (i / range.count()) % 10 + 1;
      Terminal t = new Terminal(home, district, range.total(), () -> {
        try {
          return db.connect(false);
        } catch (SQLException e) {
          throw new RuntimeException(e);
        }
      }, config, work, new TpccRandom(seeds.nextLong(), runConstants), maxRetries, pacing, warmupMetrics);
      terminals.add(t);
      threads.add(new Thread(t, "tpcc-terminal-" + i));
    }
    run.onStop(() -> terminals.forEach(Terminal::stop));
    run.console().line(String.format(Locale.ROOT, "Executing %s: %d terminals on warehouses %s, weights %s, warm-up "
        + "%d s, measure %d s", phase, config.terminals(), range, work.weights(), warmupSeconds, measureSeconds));
    PhaseRecorder recorder = null;
    long start = 0;
    if (warmupSeconds == 0) {
      run.beginPhase(phase);
      recorder = new PhaseRecorder(phase, metrics, run.directory().latencyDir(), run.timeseries());
      start = System.nanoTime();
    }
    threads.forEach(Thread::start);
    if (warmupSeconds > 0) {
      sleepWhileRunning(run, warmupSeconds);
      run.beginPhase(phase);
      recorder = new PhaseRecorder(phase, metrics, run.directory().latencyDir(), run.timeseries());
      start = System.nanoTime();
      if (warmupMetrics.outages().downForSeconds(start) > 0) {
        metrics.outages().unreachable(start); // an outage that began in the warm-up goes on into the window
      }
      terminals.forEach(t -> t.recordInto(metrics));
    }
    for (int s = 10; s <= measureSeconds && !run.interrupted(); s += 10) {
      sleepWhileRunning(run, Math.min(10, measureSeconds - (s - 10)));
      if (!run.interrupted() && s < measureSeconds) {
        run.console().line(String.format(Locale.ROOT, "[%s] %d s of %d s, ", phase, s, measureSeconds)
            + TpccMetrics.status(metrics, (System.nanoTime() - start) / 1e9));
      }
    }
    if (measureSeconds % 10 != 0 && !run.interrupted()) {
      sleepWhileRunning(run, measureSeconds % 10);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    terminals.forEach(Terminal::stop);
    // What finishes after the window closes is not measured, but it changed the database: counted apart.
    Metrics afterWindow = new Metrics();
    terminals.forEach(t -> t.recordInto(afterWindow));
    recorder.close();
    for (Thread th : threads) {
      th.join(TimeUnit.SECONDS.toMillis(60));
    }
    Map<String, Long> after = new TreeMap<>();
    afterWindow.operations().forEach(op -> after.put(op.name(), op.successes()));
    double tpmC = TpccMetrics.tpmC(metrics, seconds);
    Double efficiency = config.hasThinkTimes() ? TpccMetrics.efficiency(tpmC, range.count()) : null;
    // Clause 5.2.5.3 times a transaction from its submission: under a rate, its actual start.
    Map<String, org.HdrHistogram.Histogram> submitted = recorder.actualTotals();
    var limits = TpccMetrics.responseTimeLimits(submitted.isEmpty() ? recorder.totals() : submitted);
    run.console().line((efficiency == null ? String.format(Locale.ROOT, "tpmC %.1f (no keying or think times: no "
        + "efficiency); ", tpmC) : String.format(Locale.ROOT, "tpmC %.1f, efficiency %.2f%% (of %.2f × %d "
        + "warehouses); ", tpmC, efficiency, TpccMetrics.SPEC_WAREHOUSE_FACTOR, range.count()))
        + TpccMetrics.status(metrics, seconds));
    limits.forEach((k, v) -> run.console().line(String.format(Locale.ROOT, "  p90 %s: %.3f s (limit %.0f s, %s)", k,
        v.p90S(), v.limitS(), v.pass() ? "pass" : "FAIL")));
    return PhaseResult.of(metrics, recorder, seconds).withTpcc(tpmC, efficiency, limits)
        .withAfterWindow(after.isEmpty() ? null : after);
  }

  private static void sleepWhileRunning(Run run, long seconds) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!run.interrupted() && System.nanoTime() < until) {
      Thread.sleep(100);
    }
  }
}
