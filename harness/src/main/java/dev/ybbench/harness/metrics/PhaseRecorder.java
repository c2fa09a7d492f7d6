package dev.ybbench.harness.metrics;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Once a second, takes each operation's interval histogram, appends it to that operation's
 * HdrHistogram interval log ({@code latency/<phase>-<OP>.hlog}), adds it to the phase totals and
 * writes one timeseries row. Totals and interval logs come from the same histograms, so the
 * summary's counts equal the logs' counts exactly.
 */
public final class PhaseRecorder implements AutoCloseable {
  /**
   * Under a target rate, {@code latency/<phase>-<OP>.hlog} holds latency from the intended start
   * and this subdirectory the same operations from their actual start.
   */
  public static final String ACTUAL_DIR = "actual-start";

  private final String phase;
  private final Metrics metrics;
  private final Path latencyDir;
  private final Timeseries timeseries;
  private final long startMillis = System.currentTimeMillis();
  private final long startNanos = System.nanoTime();
  private final Map<String, Histogram> totals = new TreeMap<>();
  private final Map<String, Histogram> actualTotals = new TreeMap<>();
  private final Map<String, HistogramLogWriter> logs = new LinkedHashMap<>();
  private final Map<String, PrintStream> streams = new LinkedHashMap<>();
  private final ScheduledExecutorService ticker;
  private long lastSuccesses;
  private long lastErrors;
  private long lastRetries;
  private long lastTickNanos = startNanos;
  private volatile Timeseries.Row lastRow;
  private boolean closed;

  public PhaseRecorder(String phase, Metrics metrics, Path latencyDir, Timeseries timeseries) {
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
  }

  public String phase() {
    return phase;
  }

  /** When the phase started, in {@link System#nanoTime()} terms. */
  public long startNanos() {
    return startNanos;
  }

  /** Seconds since the phase started. */
  public double elapsedSeconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** The most recent one-second row, or null before the first tick. */
  public Timeseries.Row lastRow() {
    return lastRow;
  }

  private synchronized void tick() {
    if (closed) {
      return;
    }
    long now = System.nanoTime();
    Histogram combined = new Histogram(OperationMetrics.MAX_MICROS, 3);
    for (OperationMetrics op : metrics.operations()) {
      Histogram interval = op.intervalHistogram();
      totals.computeIfAbsent(op.name(), k -> new Histogram(OperationMetrics.MAX_MICROS, 3)).add(interval);
      log(latencyDir, op.name()).outputIntervalHistogram(interval);
      combined.add(interval);
      Histogram actual = op.actualIntervalHistogram();
      if (actual != null) {
        actualTotals.computeIfAbsent(op.name(), k -> new Histogram(OperationMetrics.MAX_MICROS, 3)).add(actual);
        log(latencyDir.resolve(ACTUAL_DIR), op.name()).outputIntervalHistogram(actual);
      }
    }
    long successes = metrics.successes();
    long errors = metrics.errors();
    long retries = metrics.retries();
    double seconds = Math.max((now - lastTickNanos) / 1e9, 1e-9);
    Timeseries.Row row = new Timeseries.Row(phase, (now - startNanos) / 1e9,
        (successes - lastSuccesses) / seconds,
        combined.getTotalCount() == 0 ? 0 : combined.getValueAtPercentile(50),
        combined.getTotalCount() == 0 ? 0 : combined.getValueAtPercentile(95),
        combined.getTotalCount() == 0 ? 0 : combined.getValueAtPercentile(99),
        errors - lastErrors, retries - lastRetries);
    timeseries.append(row);
    lastRow = row;
    lastSuccesses = successes;
    lastErrors = errors;
    lastRetries = retries;
    lastTickNanos = now;
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
                : "the actual start"));
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

  /** Takes the last interval and stops. The phase's totals are final after this. */
  @Override
  public void close() {
    ticker.shutdownNow();
    try {
      ticker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    tick();
    synchronized (this) {
      closed = true;
      streams.values().forEach(PrintStream::close);
    }
  }

  /** Latency of successes per operation over the whole phase (µs): from the intended start under a schedule. */
  public synchronized Map<String, Histogram> totals() {
    return new TreeMap<>(totals);
  }

  /** Latency from the actual start per operation, for operations that ran to a schedule; else empty. */
  public synchronized Map<String, Histogram> actualTotals() {
    return new TreeMap<>(actualTotals);
  }
}
