package dev.ybbench.harness.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
      "phase,elapsed_s,node,reads_per_s,writes_per_s,read_mean_us,write_mean_us,read_p99_us,write_p99_us,cpu_cores";

  /** Every node present in both snapshots, in the later snapshot's order; empty when either is null. */
  public static List<NodeRates> between(ServerView.Snapshot before, ServerView.Snapshot after, double seconds) {
    List<NodeRates> out = new ArrayList<>();
    if (before == null || after == null || seconds <= 0) {
      return out;
    }
    for (Map.Entry<String, ServerView.NodeCounters> e : after.nodes().entrySet()) {
      ServerView.NodeCounters b = before.nodes().get(e.getKey());
      if (b != null) {
        out.add(of(e.getKey(), b, e.getValue(), seconds));
      }
    }
    return out;
  }

  static NodeRates of(String node, ServerView.NodeCounters b, ServerView.NodeCounters a, double seconds) {
    long reads = a.reads() - b.reads();
    long writes = a.writes() - b.writes();
    Double cpu = a.cpuNanos() == null || b.cpuNanos() == null ? null
        : round((a.cpuNanos() - b.cpuNanos()) / 1e9 / seconds, 100);
    return new NodeRates(node, round(seconds, 1000), reads, writes, round(reads / seconds, 10),
        round(writes / seconds, 10),
        mean(b.readMicros(), a.readMicros(), reads), mean(b.writeMicros(), a.writeMicros(), writes),
        a.readP99Us(), a.writeP99Us(), cpu);
  }

  /** Mean of the time summed between two snapshots over the operations in it; null without sums or operations. */
  private static Double mean(Double before, Double after, long ops) {
    return before == null || after == null || ops <= 0 ? null : round((after - before) / ops, 10);
  }

  private static double round(double v, int scale) {
    return Math.round(v * scale) / (double) scale;
  }

  /** Operations per second, reads and writes together. */
  public double opsPerS() {
    return readsPerS + writesPerS;
  }

  /** A server-timeseries.csv row; absent figures are empty fields. */
  public String csv(String phase, double elapsedS) {
    return String.format(Locale.ROOT, "%s,%.3f,%s,%.1f,%.1f,%s,%s,%s,%s,%s", phase, elapsedS, node, readsPerS,
        writesPerS, orEmpty(readMeanUs), orEmpty(writeMeanUs), orEmpty(readP99Us), orEmpty(writeP99Us),
        cpuCores == null ? "" : String.format(Locale.ROOT, "%.2f", cpuCores));
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
