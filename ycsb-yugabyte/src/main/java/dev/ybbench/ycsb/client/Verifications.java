package dev.ybbench.ycsb.client;

import dev.ybbench.harness.metrics.Metrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import site.ycsb.measurements.Measurements;
import site.ycsb.measurements.exporter.MeasurementsExporter;

/**
 * CoreWorkload's {@code dataintegrity} checks: it compares each read's values with those its
 * insert or update wrote and reports the outcome to YCSB's own Measurements (operation
 * {@value #VERIFY}), which nothing else here reads. A phase takes their counts before and after,
 * prints them, and counts every read that did not match as an error of operation {@value
 * #VERIFY}, so a run whose reads return wrong values cannot pass as complete.
 */
public final class Verifications {
  public static final String VERIFY = "VERIFY";

  private final Map<String, Long> before;

  private Verifications(Map<String, Long> before) {
    this.before = before;
  }

  /** The counts so far (YCSB's Measurements live as long as the JVM). */
  public static Verifications start() {
    return new Verifications(counts());
  }

  /**
   * The checks since {@link #start()}: printed, and those that failed counted as errors of
   * {@value #VERIFY} in {@code metrics}, by the status CoreWorkload gave them.
   */
  public void record(String phase, Metrics metrics, Consumer<String> console) {
    Map<String, Long> delta = new TreeMap<>();
    counts().forEach((status, n) -> {
      long d = n - before.getOrDefault(status, 0L);
      if (d > 0) {
        delta.put(status, d);
      }
    });
    long ok = delta.getOrDefault("OK", 0L);
    long failed = delta.values().stream().mapToLong(Long::longValue).sum() - ok;
    delta.forEach((status, n) -> {
      if (!status.equals("OK")) {
        metrics.operation(VERIFY).error(status, n);
      }
    });
    console.accept(String.format(Locale.ROOT, "Data integrity (%s): %d reads checked against what was written, "
        + "%d did not match%s", phase, ok + failed, failed, failed == 0 ? "" : " " + delta));
  }

  /** CoreWorkload's {@value #VERIFY} outcomes by status name, from YCSB's Measurements. */
  public static Map<String, Long> counts() {
    Map<String, Long> counts = new TreeMap<>();
    MeasurementsExporter exporter = new MeasurementsExporter() {
      @Override
      public void write(String metric, String measurement, int i) {
        write(metric, measurement, (long) i);
      }

      @Override
      public void write(String metric, String measurement, long i) {
        if (metric.equals(VERIFY) && measurement.startsWith("Return=")) {
          counts.merge(measurement.substring("Return=".length()), i, Long::sum);
        }
      }

      @Override
      public void write(String metric, String measurement, double d) {
        // latency figures: not the outcome
      }

      @Override
      public void close() {
        // nothing was opened
      }
    };
    try {
      Measurements.getMeasurements().exportMeasurements(exporter);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return counts;
  }
}
