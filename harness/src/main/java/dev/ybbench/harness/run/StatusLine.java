package dev.ybbench.harness.run;

import dev.ybbench.harness.metrics.Metrics;
import java.util.Locale;

/**
 * The parts every status line shares, YCSB's and TPC-C's alike: "[run] 10 s of 60 s (16.7%)"
 * first, then what the benchmark counts (ops/s and percentiles, or tpmC and each transaction's
 * rate), then what did not succeed, each counted apart: ", errors 0, aborts 3, retries 41", and
 * the server's current outage if there is one.
 */
public final class StatusLine {
  private StatusLine() {}

  /** "[run] 10 s of 60 s (16.7%)", or "[load] 12 s" for a phase without a time limit. */
  public static String head(String phase, double elapsedS, long maxSeconds) {
    return maxSeconds > 0
        ? String.format(Locale.ROOT, "[%s] %.0f s of %d s (%.1f%%)", phase, elapsedS, maxSeconds,
            100 * elapsedS / maxSeconds)
        : String.format(Locale.ROOT, "[%s] %.0f s", phase, elapsedS);
  }

  /** ", errors 0, aborts 3, retries 41" and, while the server is unreachable, for how long. */
  public static String outcomes(Metrics m) {
    StringBuilder s = new StringBuilder(", errors ").append(m.errors()).append(", aborts ").append(m.aborts())
        .append(", retries ").append(m.retries());
    double down = m.outages().downForSeconds(System.nanoTime());
    if (down > 0) {
      s.append(String.format(Locale.ROOT, ", server unreachable for %.0f s", down));
    }
    return s.toString();
  }
}
