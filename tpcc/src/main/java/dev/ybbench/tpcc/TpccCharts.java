package dev.ybbench.tpcc;

import dev.ybbench.harness.results.Gnuplot;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.config.TransactionSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The charts a TPC-C reader looks for, beside the run's generic ones in {@code plots/}: per
 * measured work, tpmC over time ({@code <phase>-tpmC.svg}) and each transaction type's
 * throughput and 90th percentile over time ({@code <phase>-types.svg}, {@code <phase>-p90.svg}),
 * from the per-second interval histograms in {@code latency/}; and with several works, each
 * work's transactions per second as bars ({@code works.svg}: for the throughput run, the mix and
 * each type alone, the YugabyteDB 2.1 post's picture).
 */
final class TpccCharts {
  private TpccCharts() {}

  /** @return null when drawn, else a one-line reason for a warning */
  static String draw(RunDirectory run, Map<String, PhaseResult> phases, List<TpccConfig.Work> works, String title) {
    List<Path> files = new ArrayList<>();
    try {
      List<String> sets = new ArrayList<>();
      String common = "outdir=" + Gnuplot.quote(run.plotsDir().toString()) + "; runtitle=" + Gnuplot.quote(title);
      for (String phase : phases.keySet()) {
        PerSecond perSecond = perSecond(run.latencyDir(), phase);
        if (perSecond.types().isEmpty()) {
          continue;
        }
        Path f = Files.createTempFile("ybbench-tpcc-", ".csv");
        files.add(f);
        Files.writeString(f, perSecond.csv());
        sets.add(common + "; mode='time'; datafile=" + Gnuplot.quote(f.toString()) + "; phase=" + Gnuplot.quote(phase)
            + "; types=" + Gnuplot.quote(String.join(" ", perSecond.types())) + "; neworders="
            + (perSecond.types().contains(TransactionSpec.NEW_ORDER.benchbaseName()) ? 1 : 0));
      }
      if (phases.size() > 1) {
        Path f = Files.createTempFile("ybbench-tpcc-works-", ".csv");
        files.add(f);
        Files.writeString(f, worksCsv(phases, works));
        sets.add(common + "; mode='works'; datafile=" + Gnuplot.quote(f.toString()));
      }
      Files.createDirectories(run.plotsDir());
      return sets.isEmpty() ? null : Gnuplot.run(TpccCharts.class, "tpcc.gp", sets);
    } catch (IOException e) {
      return "cannot draw the TPC-C charts: " + e.getMessage();
    } finally {
      files.forEach(f -> f.toFile().delete());
    }
  }

  /** A phase second by second: the types that ran, and the CSV the template plots. */
  record PerSecond(List<String> types, String csv) {}

  /**
   * Each second of the phase: tpmC (New-Orders, those rolled back by design included, times 60),
   * then per type that ran its transactions per second and p90 in ms (empty in a second without
   * any). Seconds are counted from the phase's first interval.
   */
  static PerSecond perSecond(Path latencyDir, String phase) throws IOException {
    Map<String, List<Interval>> byType = new TreeMap<>();
    long start = Long.MAX_VALUE;
    for (TransactionSpec k : TransactionSpec.values()) {
      List<Interval> intervals = read(latencyDir, phase, k.benchbaseName());
      if (intervals.stream().anyMatch(i -> i.count() > 0)) {
        byType.put(k.benchbaseName(), intervals);
        start = Math.min(start, intervals.get(0).start());
      }
    }
    List<String> types = TransactionSpec.names().stream().filter(byType::containsKey).toList();
    // Second → [tpmC, then per type: tx/s, p90 ms].
    TreeMap<Long, double[]> rows = new TreeMap<>();
    List<Interval> rollbacks = read(latencyDir, phase, TransactionSpec.NEW_ORDER_ROLLBACK);
    for (int t = 0; t < types.size(); t++) {
      for (Interval i : byType.get(types.get(t))) {
        double[] row = row(rows, i, start, types.size());
        row[1 + 2 * t] = i.count() / i.seconds();
        row[2 + 2 * t] = i.p90Ms();
        if (types.get(t).equals(TransactionSpec.NEW_ORDER.benchbaseName())) {
          row[0] += i.count() * 60 / i.seconds();
        }
      }
    }
    for (Interval i : rollbacks) {
      if (start != Long.MAX_VALUE) {
        row(rows, i, start, types.size())[0] += i.count() * 60 / i.seconds();
      }
    }
    StringBuilder csv = new StringBuilder("elapsed_s,tpmC");
    types.forEach(t -> csv.append(',').append(t).append("_per_s,").append(t).append("_p90_ms"));
    csv.append('\n');
    rows.forEach((second, row) -> {
      csv.append(second);
      for (double v : row) {
        csv.append(',').append(Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.3f", v));
      }
      csv.append('\n');
    });
    return new PerSecond(types, csv.toString());
  }

  private static double[] row(TreeMap<Long, double[]> rows, Interval i, long start, int types) {
    long second = Math.round((i.end() - start) / 1000.0);
    return rows.computeIfAbsent(second, k -> {
      double[] r = new double[1 + 2 * types];
      java.util.Arrays.fill(r, 1, r.length, Double.NaN);
      return r;
    });
  }

  /**
   * One interval of a type's log as the charts use it (its time stamps, epoch ms; its count; its
   * 90th percentile in ms, NaN when empty): the histogram itself is not kept (HlogFiles.forEachInterval).
   */
  private record Interval(long start, long end, long count, double p90Ms) {
    static Interval of(Histogram h) {
      long n = h.getTotalCount();
      return new Interval(h.getStartTimeStamp(), h.getEndTimeStamp(), n,
          n == 0 ? Double.NaN : h.getValueAtPercentile(90) / 1000.0);
    }

    double seconds() {
      return Math.max(0.001, (end - start) / 1000.0);
    }
  }

  private static List<Interval> read(Path latencyDir, String phase, String type) throws IOException {
    Path f = latencyDir.resolve(phase + "-" + type + ".hlog");
    List<Interval> out = new ArrayList<>();
    if (Files.isRegularFile(f)) {
      HlogFiles.forEachInterval(f, h -> out.add(Interval.of(h)));
    }
    return out;
  }

  /** One row per work: "mix 45/43/4/4/4" or the one type it ran, and its transactions per second. */
  static String worksCsv(Map<String, PhaseResult> phases, List<TpccConfig.Work> works) {
    StringBuilder csv = new StringBuilder("work,transactions_per_s\n");
    int i = 0;
    for (PhaseResult p : phases.values()) {
      List<Integer> w = works.get(i++).weights();
      int only = w.indexOf(100);
      String label = only >= 0 ? TransactionSpec.values()[only].benchbaseName() + " alone"
          : "Overall (mix " + String.join("/", w.stream().map(String::valueOf).toList()) + ")";
      csv.append(label).append(',').append(String.format(Locale.ROOT, "%.1f", p.throughputOps())).append('\n');
    }
    return csv.toString();
  }
}
