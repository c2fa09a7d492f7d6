package dev.ybbench.analysis.report;

import dev.ybbench.analysis.compare.Comparison;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.harness.results.Gnuplot;
import dev.ybbench.harness.results.HlogFiles;
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
 * The comparison report's charts, drawn with gnuplot into the comparison directory: per workload
 * the headline and latency rows side by side, latency by percentile from each side's added
 * histograms, and every run's throughput over time.
 */
public final class ReportCharts {
  private final RunGroup baseline;
  private final RunGroup candidate;
  private final Comparison.Result result;

  ReportCharts(RunGroup baseline, RunGroup candidate, Comparison.Result result) {
    this.baseline = baseline;
    this.candidate = candidate;
    this.result = result;
  }

  /**
   * Per workload: bars of the headline and each operation's throughput and p99 with the
   * candidate's interval as whiskers and the change printed over them; latency by percentile
   * (the "nines" axis) per operation, both sides' runs added up; and throughput over time, every
   * run drawn. Returns null when drawn, else why not; {@code names} gets the SVGs in order;
   * {@code checkpoint} is called before each chart.
   */
  String draw(Path dir, List<String> names, Runnable checkpoint) throws IOException {
    String sides = "; base=" + Gnuplot.quote(ReportFormat.sideLabel(baseline)) + "; cand="
        + Gnuplot.quote(ReportFormat.sideLabel(candidate));
    List<String> charts = new ArrayList<>();
    for (Map.Entry<String, List<Comparison.Row>> w : Comparison.byWorkload(result.rows()).entrySet()) {
      String workload = w.getValue().get(0).workload();
      String slug = workload.replaceAll("[^A-Za-z0-9._-]", "_");
      for (String metric : List.of("throughput (ops/s)", "p99 (µs)")) {
        String name = (metric.startsWith("p99") ? "p99-" : "throughput-") + slug;
        List<String> lines = new ArrayList<>();
        for (Comparison.Row r : w.getValue()) {
          Statistics.Change c = r.change();
          if (r.metric().equals(metric) || (r.headline() && r.operation().equals("ALL") && metric.startsWith("thr"))) {
            double lo = c.hasInterval() ? c.baseline() * (1 + c.low() / 100) : c.candidate();
            double hi = c.hasInterval() ? c.baseline() * (1 + c.high() / 100) : c.candidate();
            lines.add(String.format(Locale.ROOT, "\"%s\" %.3f %.3f %.3f %.3f \"%s\"", r.operation().equals("ALL")
                ? "all operations" : r.operation(), c.baseline(), c.candidate(), lo, hi,
                ReportFormat.change(c).replace(" ", "")));
          }
        }
        if (lines.isEmpty()) {
          continue;
        }
        Path data = dir.resolve(name + ".dat");
        Files.write(data, lines);
        charts.add("mode='bars'; datafile=" + Gnuplot.quote(data.toString()) + "; out="
            + Gnuplot.quote(dir.resolve(name + ".svg").toString()) + "; title=" + Gnuplot.quote(workload + ": "
            + metric.replace("µ", "u") + ", whiskers: the candidate at the ends of the interval") + sides);
        names.add(name + ".svg");
      }
      String percentiles = percentileData(dir, w.getKey(), slug);
      if (percentiles != null) {
        charts.add(percentiles + sides);
        names.add("percentiles-" + slug + ".svg");
      }
      String overTime = overTime(dir, w.getKey(), slug);
      if (overTime != null) {
        charts.add(overTime + sides);
        names.add("over-time-" + slug + ".svg");
      }
    }
    return Gnuplot.run(Report.class, "compare.gp", charts, checkpoint);
  }

  /** Each side's runs of a workload added up per operation, as latency at percentiles 0 … 99.99+. */
  private String percentileData(Path dir, String key, String slug) throws IOException {
    StringBuilder plots = new StringBuilder();
    Path data = dir.resolve("percentiles-" + slug + ".dat");
    List<String> lines = new ArrayList<>();
    int block = 0;
    List<String> ops = new ArrayList<>();
    Map<String, Histogram> b = totals(baseline, key);
    Map<String, Histogram> c = totals(candidate, key);
    for (String op : b.keySet()) {
      if (!c.containsKey(op)) {
        continue;
      }
      ops.add(op);
      for (Histogram h : List.of(b.get(op), c.get(op))) {
        // x = 1 / (1 − p): 10 is the 90th percentile, 100 the 99th, 1000 the 99.9th.
        for (double x = 1; x <= h.getTotalCount(); x *= 1.1) {
          double pct = 100 * (1 - 1 / x);
          lines.add(String.format(Locale.ROOT, "%.4f %d", x, h.getValueAtPercentile(pct)));
        }
        lines.add("");
        lines.add("");
        block++;
      }
    }
    if (block == 0) {
      return null;
    }
    Files.write(data, lines);
    plots.append("mode='percentiles'; datafile=").append(Gnuplot.quote(data.toString())).append("; blocks=")
        .append(block).append("; ops=").append(Gnuplot.quote(String.join(" ", ops))).append("; out=")
        .append(Gnuplot.quote(dir.resolve("percentiles-" + slug + ".svg").toString())).append("; title=")
        .append(Gnuplot.quote(slug + ": latency by percentile (all runs of each side)"));
    return plots.toString();
  }

  private static Map<String, Histogram> totals(RunGroup side, String key) throws IOException {
    Map<String, Histogram> out = new TreeMap<>();
    for (RunGroup.Run r : side.runs()) {
      if (!(r.bench() + "/" + r.workload()).equals(key) || !Files.isDirectory(r.dir().resolve("latency"))) {
        continue;
      }
      for (Map.Entry<String, Histogram> e : HlogFiles.totals(r.dir().resolve("latency"), r.phaseName())
          .entrySet()) {
        out.computeIfAbsent(e.getKey(), k -> new Histogram(3)).add(e.getValue());
      }
    }
    out.values().removeIf(h -> h.getTotalCount() == 0);
    return out;
  }

  /** Every run's throughput over time: baseline runs in one colour, candidate runs in another. */
  private String overTime(Path dir, String key, String slug) {
    List<String> b = timeseries(baseline, key);
    List<String> c = timeseries(candidate, key);
    if (b.isEmpty() || c.isEmpty()) {
      return null;
    }
    RunGroup.Run first = baseline.runs().stream().filter(r -> (r.bench() + "/" + r.workload()).equals(key)).findFirst()
        .orElseThrow();
    return "mode='time'; bfiles=" + Gnuplot.quote(String.join(" ", b)) + "; cfiles=" + Gnuplot.quote(String.join(" ",
        c)) + "; phase=" + Gnuplot.quote(first.phaseName()) + "; out="
        + Gnuplot.quote(dir.resolve("over-time-" + slug + ".svg").toString()) + "; title=" + Gnuplot.quote(slug);
  }

  private static List<String> timeseries(RunGroup side, String key) {
    return side.runs().stream().filter(r -> (r.bench() + "/" + r.workload()).equals(key))
        .map(r -> r.dir().resolve("timeseries.csv")).filter(Files::isRegularFile)
        .map(p -> p.toAbsolutePath().toString()).toList();
  }
}
