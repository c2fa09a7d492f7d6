package dev.ybbench.harness.metrics;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleBiFunction;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Once a second, takes each operation's interval histogram, appends it to that operation's
 * HdrHistogram interval log ({@code latency/<phase>-<OP>.hlog}), adds it to the phase totals and
 * writes one timeseries row (a second behind, so that the window's last fragment can join it).
 * Totals and interval logs come from the same histograms, so the summary's counts equal the
 * logs' counts exactly.
 */
public final class PhaseRecorder implements AutoCloseable {
  /**
   * Under a target rate, {@code latency/<phase>-<OP>.hlog} holds latency from the intended start
   * and this subdirectory the same operations from their actual start.
   */
  public static final String ACTUAL_DIR = "actual-start";
  /** Batch statements' latency, per operation type, where a binding batches (not in the timeseries). */
  public static final String BATCH_DIR = "batches";

  private final String phase;
  private final Metrics metrics;
  private final Path latencyDir;
  private final Timeseries timeseries;
  /** Whether the seconds go to timeseries.csv and the latency to .hlog files (all but a live view's). */
  private final boolean writes;
  private final long startMillis = System.currentTimeMillis();
  private final long startNanos = System.nanoTime();
  private final Map<String, Histogram> totals = new TreeMap<>();
  private final Map<String, Histogram> actualTotals = new TreeMap<>();
  private final Map<String, Histogram> batchTotals = new TreeMap<>();
  private final Map<String, HistogramLogWriter> logs = new LinkedHashMap<>();
  private final Map<String, PrintStream> streams = new LinkedHashMap<>();
  private final ScheduledExecutorService ticker;
  private long lastSuccesses;
  private long lastErrors;
  private long lastRetries;
  private long lastTickNanos = startNanos;
  private volatile Timeseries.Row lastRow;
  private boolean closed;
  /** The operation types the phase will run, known before the first of each ends (may be empty). */
  private volatile List<String> expectedOperations = List.of();
  /** The rate the phase's operations are scheduled at (ops/s), 0 for as fast as they go. */
  private volatile double targetOpsPerSecond;
  /** The benchmark's headline of a phase's metrics over its seconds (TPC-C's tpmC), or null where it has none. */
  private volatile ToDoubleBiFunction<Metrics, Double> headline;
  private volatile String headlineMetric;
  /** When the phase ended ({@link #endAt}, else {@link #close}); 0 before. */
  private volatile long endNanos;

  public PhaseRecorder(String phase, Metrics metrics, Path latencyDir, Timeseries timeseries) {
    this(phase, metrics, latencyDir, timeseries, true);
  }

  /**
   * A live view only: the phase's counters and latency served as they come (to --prometheus-port),
   * its seconds and .hlog files written by the benchmark from its own record — a tool's log read
   * whole once it ended, whose timestamps are the tool's.
   */
  public static PhaseRecorder liveOnly(String phase, Metrics metrics, Timeseries timeseries) {
    return new PhaseRecorder(phase, metrics, null, timeseries, false);
  }

  private PhaseRecorder(String phase, Metrics metrics, Path latencyDir, Timeseries timeseries, boolean writes) {
    this.writes = writes;
    this.phase = phase;
    this.metrics = metrics;
    this.latencyDir = latencyDir;
    this.timeseries = timeseries;
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "ybbench-recorder-" + phase);
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    timeseries.phase(phase, metrics, this);
  }

  public String phase() {
    return phase;
  }

  /** When the phase started, in {@link System#nanoTime()} terms. */
  public long startNanos() {
    return startNanos;
  }

  /** The phase runs to a schedule of this many operations a second over all its threads (0: none). */
  public void targetOpsPerSecond(double opsPerSecond) {
    targetOpsPerSecond = opsPerSecond;
  }

  public double targetOpsPerSecond() {
    return targetOpsPerSecond;
  }

  /**
   * The operation types the phase will run: a live view serves their counts from the phase's
   * start, at 0, so that Prometheus's rate() and increase() see them start from nothing.
   */
  public void expectOperations(List<String> names) {
    expectedOperations = List.copyOf(names);
  }

  public List<String> expectedOperations() {
    return expectedOperations;
  }

  /**
   * How the benchmark computes its headline {@code metric} from the phase's metrics and seconds,
   * for a live view, where it is not the throughput (TPC-C's tpmC).
   */
  public void headline(String metric, ToDoubleBiFunction<Metrics, Double> figure) {
    headlineMetric = metric;
    headline = figure;
  }

  /** The headline's name (null where it is the throughput). */
  public String headlineMetric() {
    return headlineMetric;
  }

  /** The phase's headline so far, or NaN where the benchmark names none. */
  public double headline() {
    ToDoubleBiFunction<Metrics, Double> f = headline;
    double seconds = elapsedSeconds();
    return f == null ? Double.NaN : seconds > 0 ? f.applyAsDouble(metrics, seconds) : 0;
  }

  public Metrics metrics() {
    return metrics;
  }

  /** True once {@link #close} has taken the last interval: the totals are final. */
  public synchronized boolean closed() {
    return closed;
  }

  /**
   * Reads the latency totals so far (each operation's, µs; up to a second behind its counters,
   * final once closed) under the recorder's lock, which the ticker takes to add to them.
   */
  public synchronized <T> T readTotals(Function<Map<String, Histogram>, T> reader) {
    return reader.apply(Collections.unmodifiableMap(totals));
  }

  /** Seconds since the phase started, or that it lasted once closed. */
  public double elapsedSeconds() {
    long end = endNanos;
    return ((end != 0 ? end : System.nanoTime()) - startNanos) / 1e9;
  }

  /** The most recent one-second row, or null before the first tick (timeseries.csv gets it a second later). */
  public Timeseries.Row lastRow() {
    return lastRow;
  }

  /**
   * One interval's figures, kept until the next one is known: a last fragment shorter than half
   * an interval (the threads stopping) is merged into it, so a chart does not end in a cliff that
   * is only the window's edge.
   */
  private record Interval(long startNanos, long endNanos, Histogram latency, long successes, long errors,
      long retries) {
    Interval merge(Interval later) {
      Histogram h = latency.copy();
      h.add(later.latency);
      return new Interval(startNanos, later.endNanos, h, successes + later.successes, errors + later.errors,
          retries + later.retries);
    }
  }

  private Interval held;

  private synchronized void tick() {
    if (closed || endNanos != 0 && lastTickNanos >= endNanos) {
      return; // ended: nothing after the end is this phase's
    }
    Interval current = take();
    if (held != null) {
      write(held);
      spare = held.latency; // written: its histogram takes the next interval
    }
    held = current;
    lastRow = row(current);
  }

  /** The last interval, merged into the one before when it is shorter than half an interval. */
  private synchronized void flush() {
    Interval last = take();
    if (held != null && last.endNanos - last.startNanos < TimeUnit.MILLISECONDS.toNanos(500)) {
      write(held.merge(last));
    } else {
      if (held != null) {
        write(held);
      }
      if (last.endNanos > last.startNanos) { // a phase that ended on a tick has no fragment left
        write(last);
      }
    }
    held = null;
  }

  /** The histogram the next interval's operations are added into: the one written a tick ago, reset. */
  private Histogram spare;
  /** Per series, the histogram each second's interval is taken into; reused, as it is consumed at once. */
  private final Map<String, Histogram> scratch = new TreeMap<>();

  /**
   * Everything recorded since the previous interval: to the .hlog files and the totals, and as an
   * Interval. Histograms are reused from second to second: a run allocates none per second.
   */
  private Interval take() {
    // Once ended, an interval ends at the end; not before the last tick, which may have come between
    // the end's instant and endAt being told it.
    long now = endNanos != 0 ? Math.max(endNanos, lastTickNanos) : System.nanoTime();
    Histogram combined = spare != null ? spare : RecorderPool.histogram();
    spare = null;
    combined.reset();
    for (OperationMetrics op : metrics.operations()) {
      Histogram interval = scratch("op " + op.name());
      op.intervalHistogram(interval);
      totals.computeIfAbsent(op.name(), k -> RecorderPool.histogram()).add(interval);
      output(null, op.name(), interval);
      combined.add(interval);
      Histogram actual = scratch("actual " + op.name());
      if (op.actualIntervalHistogram(actual)) {
        actualTotals.computeIfAbsent(op.name(), k -> RecorderPool.histogram()).add(actual);
        output(ACTUAL_DIR, op.name(), actual);
      }
    }
    for (OperationMetrics batch : metrics.batches()) {
      Histogram interval = scratch("batch " + batch.name());
      batch.intervalHistogram(interval);
      batchTotals.computeIfAbsent(batch.name(), k -> RecorderPool.histogram()).add(interval);
      output(BATCH_DIR, batch.name(), interval);
    }
    long successes = metrics.successes();
    long errors = metrics.errors();
    long retries = metrics.retries();
    Interval i = new Interval(lastTickNanos, now, combined, successes - lastSuccesses, errors - lastErrors,
        retries - lastRetries);
    lastSuccesses = successes;
    lastErrors = errors;
    lastRetries = retries;
    lastTickNanos = now;
    return i;
  }

  private Histogram scratch(String series) {
    return scratch.computeIfAbsent(series, k -> RecorderPool.histogram());
  }

  private void write(Interval i) {
    if (writes) {
      timeseries.append(row(i));
    }
  }

  /** Rates are divided by the interval's real length, never by a nominal second. */
  private Timeseries.Row row(Interval i) {
    double seconds = Math.max((i.endNanos - i.startNanos) / 1e9, 1e-9);
    Histogram h = i.latency;
    return new Timeseries.Row(phase, (i.endNanos - startNanos) / 1e9, i.successes / seconds,
        h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(50),
        h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(95),
        h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99),
        i.errors, i.retries);
  }

  /** An interval to its .hlog: in {@code latencyDir}, or its subdirectory {@code sub}; a live view's nowhere. */
  private void output(String sub, String op, Histogram interval) {
    if (writes) {
      log(sub == null ? latencyDir : latencyDir.resolve(sub), op).outputIntervalHistogram(interval);
    }
  }

  private HistogramLogWriter log(Path dir, String op) {
    Path file = dir.resolve(phase + "-" + op + ".hlog");
    return logs.computeIfAbsent(file.toString(), f -> {
      try {
        Files.createDirectories(dir);
        PrintStream out = new PrintStream(Files.newOutputStream(file), true, "UTF-8");
        streams.put(f, out);
        HistogramLogWriter w = new HistogramLogWriter(out);
        w.outputComment("ybbench " + phase + " " + op + ": latency of successful operations in microseconds, from "
            + (dir.equals(latencyDir) ? "the intended start under a target rate, else the actual start"
                : dir.endsWith(BATCH_DIR) ? "the start of each batch statement" : "the actual start"));
        w.outputLogFormatVersion();
        w.outputStartTime(startMillis);
        w.setBaseTime(startMillis);
        w.outputLegend();
        return w;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /**
   * The phase ended at {@code nanos} ({@link System#nanoTime()} terms), where the next began: its
   * seconds and its last interval end there, however late {@link #close} takes them. A warm-up ends
   * so at the instant its window opens, while the window's first snapshot of the server is still
   * being written: without it, the warm-up's last second would read the operations of a fraction of
   * a second as a whole second's, and a row of none would follow it. Operations that end later,
   * begun before it, still count, in the last interval.
   */
  public void endAt(long nanos) {
    endNanos = nanos;
  }

  /** Takes the last interval and stops. The phase's totals are final after this. */
  @Override
  public void close() {
    if (endNanos == 0) {
      endNanos = System.nanoTime();
    }
    ticker.shutdownNow();
    try {
      ticker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    flush();
    synchronized (this) {
      closed = true;
      streams.values().forEach(PrintStream::close);
    }
  }

  /** Latency of successes per operation over the whole phase (µs): from the intended start under a schedule. */
  public synchronized Map<String, Histogram> totals() {
    return new TreeMap<>(totals);
  }

  /** Latency of each batch statement per operation type; empty unless a binding batches. */
  public synchronized Map<String, Histogram> batchTotals() {
    return new TreeMap<>(batchTotals);
  }

  /** Latency from the actual start per operation, for operations that ran to a schedule; else empty. */
  public synchronized Map<String, Histogram> actualTotals() {
    return new TreeMap<>(actualTotals);
  }
}
