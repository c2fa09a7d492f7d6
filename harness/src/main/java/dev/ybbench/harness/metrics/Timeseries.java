package dev.ybbench.harness.metrics;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A run's record as it goes: {@code timeseries.csv}, one row per phase per second, flushed as
 * written so a crash keeps it; and the phases being recorded, whose counters a live view (the
 * Prometheus endpoint) reads — the same counters the results are written from.
 */
public final class Timeseries implements AutoCloseable {
  public static final String HEADER = "phase,elapsed_s,throughput_ops,p50_us,p95_us,p99_us,errors,retries";

  /**
   * One second of one phase.
   *
   * @param throughput successes per second in this interval (errors and retries excluded)
   * @param p50 latency percentiles of this interval's successes, all operation types together (µs);
   *            null, an empty field, where the driver reports no such percentile per interval
   *            (sysbench reports one, its --percentile)
   */
  public record Row(String phase, double elapsed, double throughput, Long p50, Long p95, Long p99, long errors,
      long retries) {
    String csv() {
      return String.format(Locale.ROOT, "%s,%.3f,%.1f,%s,%s,%s,%d,%d", phase, elapsed, throughput, field(p50),
          field(p95), field(p99), errors, retries);
    }

    private static String field(Long v) {
      return v == null ? "" : v.toString();
    }
  }

  /**
   * A phase of the run, from when its operations start.
   *
   * @param recorder its recorder, or null for a warm-up that is not recorded (TPC-C's)
   */
  public record Phase(String name, Metrics metrics, PhaseRecorder recorder) {}

  private final BufferedWriter out;
  private final List<Phase> phases = new CopyOnWriteArrayList<>();

  public Timeseries(Path file) throws IOException {
    boolean fresh = !Files.exists(file);
    out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    if (fresh) {
      out.write(HEADER);
      out.newLine();
      out.flush();
    }
  }

  public synchronized void append(Row row) {
    try {
      out.write(row.csv());
      out.newLine();
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A phase begins recording into {@code metrics}. */
  public void phase(String name, Metrics metrics, PhaseRecorder recorder) {
    phases.add(new Phase(name, metrics, recorder));
  }

  /** The phases so far, in the order they began. */
  public List<Phase> phases() {
    return List.copyOf(phases);
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }
}
