package dev.ybbench.sysbench.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What sysbench 1.0 prints of a run, read line by line as it prints them: the per-interval lines
 * ({@code --report-interval}), the latency histogram ({@code --histogram}) and the final
 * statistics (src/db_driver.c {@code db_report_intermediate} and {@code db_report_cumulative},
 * src/sb_histogram.c {@code sb_histogram_print}). A run cut short has intervals and no
 * statistics; a run that failed has a FATAL line.
 */
public final class SysbenchReport {
  /**
   * One interval line: {@code [ 1s ] thds: 2 tps: 477.08 qps: 9663.34 (r/w/o:
   * 6776.92/1913.31/973.12) lat (ms,95%): 3.49 err/s: 4.99 reconn/s: 0.00}.
   */
  public record Interval(double elapsedS, int threads, double tps, double qps, double readsPerS, double writesPerS,
      double otherPerS, int percentile, double latencyMs, double errorsPerS, double reconnectsPerS) {}

  /** A histogram line: the bucket's value (its middle, ms) and how many events fell in it. */
  public record Bucket(double valueMs, long count) {}

  /** The final "SQL statistics", "General statistics" and "Latency (ms)" blocks. */
  public record Statistics(long reads, long writes, long other, long transactions, long queries, long ignoredErrors,
      long reconnects, double totalTimeS, long events, double minMs, double avgMs, double maxMs, int percentile,
      double percentileMs) {}

  private static final String NUM = "([0-9]+(?:\\.[0-9]+)?)";
  private static final Pattern INTERVAL = Pattern.compile("^\\[ *" + NUM + "s \\] thds: ([0-9]+) tps: " + NUM
      + " qps: " + NUM + " \\(r/w/o: " + NUM + "/" + NUM + "/" + NUM + "\\) lat \\(ms," + "([0-9]+)%\\): " + NUM
      + " err/s: " + NUM + " reconn/s: " + NUM + "\\s*$");
  private static final Pattern BUCKET = Pattern.compile("^ *" + NUM + " \\|\\**\\s+([0-9]+)$");
  private static final Pattern COUNT = Pattern.compile("^ +([a-z ]+): +([0-9]+)(?: +\\(" + NUM + " per sec\\.\\))?$");
  private static final Pattern TIME = Pattern.compile("^ +total time: +" + NUM + "s$");
  private static final Pattern LATENCY = Pattern.compile("^ +(min|avg|max|([0-9]+)th percentile|sum): +" + NUM + "$");

  private final List<Interval> intervals = new ArrayList<>();
  private final List<Bucket> histogram = new ArrayList<>();
  private final List<String> fatal = new ArrayList<>();
  private String block = "";
  private final long[] counts = new long[8];
  private double totalTimeS = -1;
  private final double[] latency = {-1, -1, -1, -1};
  private int percentile;

  /** Takes one line of sysbench's output; returns the interval it reports, or null for any other line. */
  public Interval accept(String line) {
    Matcher m = INTERVAL.matcher(line);
    if (m.matches()) {
      Interval i = new Interval(d(m, 1), Integer.parseInt(m.group(2)), d(m, 3), d(m, 4), d(m, 5), d(m, 6), d(m, 7),
          Integer.parseInt(m.group(8)), d(m, 9), d(m, 10), d(m, 11));
      intervals.add(i);
      return i;
    }
    if (line.startsWith("FATAL: ")) {
      fatal.add(line.substring(7).strip());
      return null;
    }
    if (line.startsWith("Latency histogram")) {
      block = "histogram";
    } else if (line.equals("SQL statistics:")) {
      block = "sql";
    } else if (line.equals("General statistics:")) {
      block = "general";
    } else if (line.equals("Latency (ms):")) {
      block = "latency";
    } else if (line.equals("Threads fairness:")) {
      block = "";
    }
    switch (block) {
      case "histogram" -> {
        Matcher b = BUCKET.matcher(line);
        if (b.matches()) {
          histogram.add(new Bucket(d(b, 1), Long.parseLong(b.group(2))));
        }
      }
      case "sql", "general" -> {
        Matcher c = COUNT.matcher(line);
        Matcher t = TIME.matcher(line);
        if (c.matches()) {
          int at = List.of("read", "write", "other", "transactions", "queries", "ignored errors", "reconnects",
              "total number of events").indexOf(c.group(1).strip());
          if (at >= 0) {
            counts[at] = Long.parseLong(c.group(2));
          }
        } else if (t.matches()) {
          totalTimeS = d(t, 1);
        }
      }
      case "latency" -> {
        Matcher l = LATENCY.matcher(line);
        if (l.matches()) {
          String name = l.group(1);
          double v = d(l, 3);
          switch (name) {
            case "min" -> latency[0] = v;
            case "avg" -> latency[1] = v;
            case "max" -> latency[2] = v;
            case "sum" -> { }
            default -> {
              percentile = Integer.parseInt(l.group(2));
              latency[3] = v;
            }
          }
        }
      }
      default -> { }
    }
    return null;
  }

  private static double d(Matcher m, int group) {
    return Double.parseDouble(m.group(group));
  }

  public List<Interval> intervals() {
    return List.copyOf(intervals);
  }

  /** The histogram's non-empty buckets, in order; empty without {@code --histogram}. */
  public List<Bucket> histogram() {
    return List.copyOf(histogram);
  }

  /** sysbench's FATAL lines, first to last (an error that ended its run). */
  public List<String> fatal() {
    return List.copyOf(fatal);
  }

  /** The final statistics, or null when sysbench printed none (a run cut short, or failed). */
  public Statistics statistics() {
    if (totalTimeS < 0 || latency[2] < 0) {
      return null;
    }
    return new Statistics(counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6], totalTimeS,
        counts[7], latency[0], latency[1], latency[2], percentile, latency[3]);
  }
}
