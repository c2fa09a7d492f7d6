package dev.ybbench.tpcc.txn;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.run.MeasuredWindow;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunFailure;
import dev.ybbench.harness.run.StatusLine;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.config.TransactionSpec;
import dev.ybbench.tpcc.core.TpccDatabase;
import dev.ybbench.tpcc.core.TpccFigures;
import dev.ybbench.tpcc.core.TpccMetrics;
import dev.ybbench.tpcc.core.TpccRandom;
import dev.ybbench.tpcc.core.WarehouseRange;
import dev.ybbench.tpcc.load.LoadPhase;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One measurement, of one {@code <work>}: the config's terminals spread over the client's
 * warehouses, a warm-up whose results are dropped, then the window whose results count, with a
 * status line every 10 s.
 */
public final class ExecutePhase {
  private ExecutePhase() {}

  /** The phase of the first work; later works are {@code execute-2}, {@code execute-3} … (see {@link #phase}). */
  public static final String PHASE = TpccConfig.PHASE;

  /** The phase name of the {@code index}-th work (0-based). */
  public static String phase(int index) {
    return TpccConfig.phase(index);
  }

  /**
   * Runs {@code work} as phase {@code phase}: warm-up, then the measured window.
   *
   * @param setup connections, deferred Delivery and retries
   */
  public static PhaseResult run(Run run, String phase, TpccDatabase db, TpccConfig config, TpccConfig.Work work,
      WarehouseRange range, Terminals.Setup setup) throws InterruptedException {
    int warmupSeconds = work.warmupSeconds();
    int measureSeconds = work.timeSeconds();
    Random seeds = new Random();
    TpccRandom.Constants runConstants = TpccRandom.Constants.forRun(LoadPhase.LOAD_CONSTANTS, seeds);
    // BenchBase drops the warm-up's figures; so do we (the window's are the phase's).
    MeasuredWindow window = new MeasuredWindow(phase, warmupSeconds > 0, null, run.directory().latencyDir(),
        run.timeseries(), counting -> run.beginPhase(phase, counting));
    window.targetOpsPerSecond(work.rate() == null ? 0 : work.rate());
    List<String> types = new ArrayList<>();
    for (TransactionKind kind : TransactionKind.values()) {
      if (work.weights().get(kind.ordinal()) > 0) {
        types.add(kind.benchbaseName());
      }
    }
    if (work.weights().get(TransactionKind.NEW_ORDER.ordinal()) > 0) {
      types.add(TransactionSpec.NEW_ORDER_ROLLBACK);
    }
    window.expectOperations(types);
    window.headline("tpmC", TpccMetrics::tpmC);
    Metrics metrics = window.window();
    List<Terminal> list = new ArrayList<>();
    for (int i = 0; i < config.terminals(); i++) {
      // Terminals spread over the warehouses first, then over each warehouse's districts.
      list.add(new Terminal(range.first() + i % range.count(), (i / range.count()) % 10 + 1,
          new TpccRandom(seeds.nextLong(), runConstants)));
    }
    Terminals terminals = new Terminals(list, () -> {
      try {
        return db.connect(false);
      } catch (SQLException e) {
        throw new RuntimeException(e);
      }
    }, config, work, range.total(), setup, window.recording());
    run.onStop(terminals::stop);
    run.console().line(String.format(Locale.ROOT, "Executing %s: %d terminals on warehouses %s over %d connection%s, "
        + "weights %s, %s, warm-up %d s, measure %d s", phase, config.terminals(), range, setup.connections(),
        setup.connections() == 1 ? "" : "s", work.weights(), !config.hasWaits() ? "no keying or think times"
            : config.hasSpecWaits() ? "the spec's keying and think times" : "the config's keying and think times",
        warmupSeconds, measureSeconds) + (setup.deferDelivery() ? ", Delivery deferred" : ""));
    run.statementsIssuedBy(Statements.issuedBy());
    if (warmupSeconds == 0) {
      window.open(0, m -> { }); // the terminals record into the window from their first transaction
    }
    terminals.start();
    if (warmupSeconds > 0) {
      sleepWhileRunning(run, warmupSeconds);
      window.open(warmupSeconds, m -> {
        terminals.recordInto(m);
        terminals.resetWaits();
      });
    }
    PhaseRecorder recorder = window.recorder();
    long start = recorder.startNanos();
    for (int s = 10; s <= measureSeconds && !run.interrupted(); s += 10) {
      sleepWhileRunning(run, Math.min(10, measureSeconds - (s - 10)));
      if (!run.interrupted() && s < measureSeconds) {
        run.console().line(StatusLine.head(phase, s, measureSeconds) + ", "
            + TpccMetrics.status(metrics, (System.nanoTime() - start) / 1e9));
      }
    }
    if (measureSeconds % 10 != 0 && !run.interrupted()) {
      sleepWhileRunning(run, measureSeconds % 10);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    terminals.stop();
    // What finishes after the window closes is not measured, but it changed the database: counted apart.
    Metrics afterWindow = new Metrics();
    terminals.recordInto(afterWindow);
    Map<String, TpccFigures.TerminalWaits> waits = terminals.waits();
    recorder.close();
    terminals.join(TimeUnit.SECONDS.toMillis(60));
    if (terminals.earlySubmissions() > 0) {
      throw new RunFailure(terminals.earlySubmissions() + " submissions came before their keying and think times "
          + "were over: the terminals did not keep the spec's cycle");
    }
    Map<String, Long> after = new TreeMap<>();
    afterWindow.operations().forEach(op -> after.put(op.name(), op.successes()));
    double tpmC = TpccMetrics.tpmC(metrics, seconds);
    Double efficiency = config.hasSpecWaits() && work.isSpecMix() ? TpccMetrics.efficiency(tpmC, range.count())
        : null;
    // Clause 5.2.5.3 times a transaction from its submission: under a rate, not from its slot.
    Map<String, org.HdrHistogram.Histogram> submitted = recorder.actualTotals();
    var limits = TpccMetrics.responseTimeLimits(submitted.isEmpty() ? recorder.totals() : submitted,
        setup.deferDelivery());
    run.console().line(TpccMetrics.status(metrics, seconds) + "; " + (efficiency == null ? "no efficiency ("
        + (!config.hasWaits() ? "no keying or think times" : !config.hasSpecWaits()
            ? "not the spec's keying and think times" : "not the spec's mix of transactions") + ")"
        : String.format(Locale.ROOT, "efficiency %.2f%% (of %.2f × %d warehouses)", efficiency,
            TpccMetrics.SPEC_WAREHOUSE_FACTOR, range.count())));
    limits.forEach((k, v) -> run.console().line(String.format(Locale.ROOT, "  p90 %s: %.3f s (limit %.0f s%s, %s)", k,
        v.p90S(), v.limitS(), setup.deferDelivery() && k.equals(TransactionKind.DELIVERY.benchbaseName())
            ? " from queued to delivered, clause 2.7.2" : "", v.pass() ? "pass" : "FAIL")));
    if (config.hasWaits() || setup.connections() < config.terminals()) {
      TpccMetrics.waitsLine(waits).ifPresent(run.console()::line);
    }
    return TpccFigures.with(PhaseResult.of(metrics, recorder, seconds),
        TpccFigures.work(tpmC, efficiency, limits, after, waits));
  }

  private static void sleepWhileRunning(Run run, long seconds) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!run.interrupted() && System.nanoTime() < until) {
      Thread.sleep(100);
    }
  }
}
