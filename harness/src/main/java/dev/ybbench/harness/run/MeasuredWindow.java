package dev.ybbench.harness.run;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.PhaseResult;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToDoubleBiFunction;

/**
 * Where a phase's warm-up ends and its measured window begins, for YCSB's phases and TPC-C's works
 * alike. The workers record into {@link #recording()}: the warm-up's metrics first (when there is
 * a warm-up), then the window's. {@link #open} begins the measured phase: the run's phase starts
 * and, at the instant its first snapshot counts the server's statements, a recorder opens on the
 * window's metrics, an outage that began in the warm-up goes on into the window (the server is no
 * more reachable for the window having begun), and the workers are switched over. So an operation
 * that ends while the snapshot runs is on the same side of the window for the client as for the
 * server, and the audit of a run with a warm-up holds as one without. The warm-up itself is
 * recorded as a phase of its own when it has a name (YCSB's "warmup"), or dropped (TPC-C's, as
 * BenchBase drops it).
 */
public final class MeasuredWindow {
  private final String phase;
  private final Path latencyDir;
  private final Timeseries timeseries;
  private final Consumer<Runnable> beginPhase;
  private final Metrics window = new Metrics();
  private final Metrics warmup;
  private final PhaseRecorder warmupRecorder;
  private volatile PhaseRecorder recorder;
  private PhaseResult warmupResult;
  private volatile double targetOpsPerSecond;
  private volatile List<String> operations = List.of();
  private volatile ToDoubleBiFunction<Metrics, Double> headline;
  private volatile String headlineMetric;

  /**
   * A phase that has not begun: with a warm-up the workers record into its metrics until
   * {@link #open}; without one, call {@link #open} before the workers start.
   *
   * @param warmup     whether the phase warms up first
   * @param warmupName the warm-up's own phase name in the results, or null to drop its figures
   * @param beginPhase starts the run's phase (the server's view of it, its status), running its
   *                   argument at the instant the server's counts are read ({@link Run#beginPhase(String,
   *                   Runnable)})
   */
  public MeasuredWindow(String phase, boolean warmup, String warmupName, Path latencyDir, Timeseries timeseries,
      Consumer<Runnable> beginPhase) {
    this.phase = phase;
    this.latencyDir = latencyDir;
    this.timeseries = timeseries;
    this.beginPhase = beginPhase;
    this.warmup = warmup ? new Metrics() : null;
    this.warmupRecorder = warmup && warmupName != null
        ? new PhaseRecorder(warmupName, this.warmup, latencyDir, timeseries) : null;
    if (warmup && warmupName == null) {
      timeseries.phase(phase + " warm-up", this.warmup, null); // unrecorded: a live view sees its threads only
    }
  }

  /** The rate the workers are scheduled at over all threads (ops/s; 0 = as fast as they go), for a live view. */
  public void targetOpsPerSecond(double opsPerSecond) {
    targetOpsPerSecond = opsPerSecond;
    if (warmupRecorder != null) {
      warmupRecorder.targetOpsPerSecond(opsPerSecond);
    }
  }

  /** The operation types the workers will run, for a live view to serve at 0 from the start. */
  public void expectOperations(List<String> names) {
    operations = List.copyOf(names);
    if (warmupRecorder != null) {
      warmupRecorder.expectOperations(names);
    }
  }

  /** How the benchmark computes its headline {@code metric} from the window's metrics and seconds, for a live view. */
  public void headline(String metric, ToDoubleBiFunction<Metrics, Double> figure) {
    headlineMetric = metric;
    headline = figure;
  }

  /** Where the workers record now: the warm-up's metrics until the window opens, then the window's. */
  public Metrics recording() {
    return warmup != null && recorder == null ? warmup : window;
  }

  /** The window's metrics: what the phase's results are made of. */
  public Metrics window() {
    return window;
  }

  /** The warm-up's metrics (null without a warm-up). */
  public Metrics warmup() {
    return warmup;
  }

  /** The warm-up's recorder, when it is recorded as a phase of its own; else null. */
  public PhaseRecorder warmupRecorder() {
    return warmupRecorder;
  }

  public boolean measuring() {
    return recorder != null;
  }

  /**
   * Ends the warm-up after {@code warmupSeconds} (its result kept when it is recorded) and opens the
   * measured window; a no-op once open.
   *
   * @param switchTo points the workers at the window's metrics (called when there was a warm-up)
   */
  public synchronized PhaseRecorder open(double warmupSeconds, Consumer<Metrics> switchTo) {
    if (recorder != null) {
      return recorder;
    }
    long asked = System.nanoTime();
    beginPhase.accept(() -> switchOver(switchTo));
    if (recorder == null) {
      throw new IllegalStateException("the phase began without opening its window");
    }
    if (warmupRecorder != null) { // the warm-up went on until the window opened
      warmupRecorder.close();
      warmupResult = PhaseResult.of(warmup, warmupRecorder,
          warmupSeconds + (recorder.startNanos() - asked) / 1e9);
    }
    return recorder;
  }

  /** Opens the window's recorder and points the workers at its metrics: the window's first instant. */
  private void switchOver(Consumer<Metrics> switchTo) {
    PhaseRecorder window = new PhaseRecorder(phase, this.window, latencyDir, timeseries);
    window.targetOpsPerSecond(targetOpsPerSecond);
    window.expectOperations(operations);
    if (headline != null) {
      window.headline(headlineMetric, headline);
    }
    long start = window.startNanos();
    if (warmup != null && warmup.outages().downForSeconds(start) > 0) {
      this.window.outages().unreachable(start); // still down: the outage goes on into the window
    }
    recorder = window;
    if (warmup != null) {
      switchTo.accept(this.window);
    }
    if (warmupRecorder != null) {
      warmupRecorder.endAt(start); // closed once the phase has begun; its time ends here
    }
  }

  /** The measured window's recorder (null until it opens). */
  public PhaseRecorder recorder() {
    return recorder;
  }

  /** The warm-up's result, when it was recorded and has ended; else null. */
  public PhaseResult warmupResult() {
    return warmupResult;
  }
}
