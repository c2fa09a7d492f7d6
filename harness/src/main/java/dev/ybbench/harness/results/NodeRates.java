package dev.ybbench.harness.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Locale;

/**
 * What one node did between two snapshots, as the server counts it: reads and writes, per second,
 * their mean server-side latency (or the server's own recent p99 where it keeps no sums), and the
 * CPU cores its processes kept busy. Absent figures are ones the server does not expose.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodeRates(String node, double seconds, long reads, long writes, double readsPerS, double writesPerS,
    Double readMeanUs, Double writeMeanUs, Double readP99Us, Double writeP99Us, Double cpuCores) {

  public static final String CSV_HEADER =
      "phase,elapsed_s,node,reads_per_s,writes_per_s,read_mean_us,write_mean_us,read_p99_us,write_p99_us,cpu_cores,"
      + "top_waits";

  /**
   * The rates of one node from what it did in {@code seconds}.
   *
   * @param readMicros  the server's read time summed over those reads (null where it keeps no sums)
   * @param writeMicros the same for writes
   * @param cpuNanos    the CPU time the node's processes used (null where unknown)
   */
  public static NodeRates of(String node, double seconds, long reads, long writes, Double readMicros,
      Double writeMicros, Double readP99Us, Double writeP99Us, Long cpuNanos) {
    return new NodeRates(node, round(seconds, 1000), reads, writes, round(reads / seconds, 10),
        round(writes / seconds, 10), mean(readMicros, reads), mean(writeMicros, writes), readP99Us, writeP99Us,
        cpuNanos == null ? null : round(cpuNanos / 1e9 / seconds, 100));
  }

  /** Mean time per operation; null without a sum or operations. */
  private static Double mean(Double micros, long ops) {
    return micros == null || ops <= 0 ? null : round(micros / ops, 10);
  }

  private static double round(double v, int scale) {
    return Math.round(v * scale) / (double) scale;
  }

  /** Operations per second, reads and writes together. */
  public double opsPerS() {
    return readsPerS + writesPerS;
  }

  /**
   * A server-timeseries.csv row; absent figures are empty fields.
   *
   * @param topWaits the node's most sampled wait events in the stretch, e.g. "Lock:transactionid 58%;CPU 30%"
   */
  public String csv(String phase, double elapsedS, String topWaits) {
    return String.format(Locale.ROOT, "%s,%.3f,%s,%.1f,%.1f,%s,%s,%s,%s,%s,%s", phase, elapsedS, node, readsPerS,
        writesPerS, orEmpty(readMeanUs), orEmpty(writeMeanUs), orEmpty(readP99Us), orEmpty(writeP99Us),
        cpuCores == null ? "" : String.format(Locale.ROOT, "%.2f", cpuCores), topWaits);
  }

  private static String orEmpty(Double v) {
    return v == null ? "" : String.format(Locale.ROOT, "%.1f", v);
  }

  /** "10.0.0.1:9000: 1234.5 reads/s (mean 410 µs), 56.0 writes/s (mean 1200 µs), CPU 1.25 cores". */
  public String describe() {
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%s: %.1f reads/s", node, readsPerS));
    latency(s, readMeanUs, readP99Us);
    s.append(String.format(Locale.ROOT, ", %.1f writes/s", writesPerS));
    latency(s, writeMeanUs, writeP99Us);
    if (cpuCores != null) {
      s.append(String.format(Locale.ROOT, ", CPU %.2f cores", cpuCores));
    }
    return s.toString();
  }

  private static void latency(StringBuilder s, Double mean, Double p99) {
    if (mean != null) {
      s.append(String.format(Locale.ROOT, " (mean %.0f µs)", mean));
    } else if (p99 != null) {
      s.append(String.format(Locale.ROOT, " (p99 %.0f µs)", p99));
    }
  }
}
