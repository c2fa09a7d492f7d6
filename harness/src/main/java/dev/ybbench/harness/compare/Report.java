package dev.ybbench.harness.compare;

import dev.ybbench.harness.results.Gnuplot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The comparison's outputs: a Markdown table, report.md, report.html and gnuplot SVG charts. */
final class Report {
  private Report() {}

  static String markdownTable(List<Comparison.Row> rows) {
    StringBuilder s = new StringBuilder(
        "| workload | operation | metric | baseline | candidate | change | 95% interval | verdict |\n"
            + "|---|---|---|---:|---:|---:|---|---|\n");
    for (Comparison.Row r : rows) {
      Statistics.Change c = r.change();
      s.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |%n", r.workload(), r.operation(),
          r.metric(), number(c.baselineMean()), number(c.candidateMean()), percent(c.changePct()),
          interval(r),
          r.verdict() == Verdict.REGRESSION ? "**regression**" : r.verdict().toString()));
    }
    return s.toString().stripTrailing();
  }

  /** The interval, or why there is none: a single run, or a baseline of zero (e.g. no errors). */
  private static String interval(Comparison.Row r) {
    Statistics.Change c = r.change();
    if (c.hasInterval()) {
      return percent(c.lowPct()) + " … " + percent(c.highPct());
    }
    return r.baselineRuns() < 2 || r.candidateRuns() < 2 ? "(1 run)" : "—";
  }

  private static String number(double v) {
    return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
  }

  private static String percent(double v) {
    return Double.isInfinite(v) ? "new" : String.format(Locale.ROOT, "%+.1f %%", v);
  }

  static String sideLabel(Side side) {
    return side.name() + " (" + side.runs().get(0).serverLabel() + ", " + side.runs().size() + " run"
        + (side.runs().size() == 1 ? "" : "s") + ")";
  }

  /** Writes report.md, report.html and the charts; returns a warning if the charts could not be drawn. */
  static String write(Path dir, Side b, Side c, List<Comparison.Row> rows, double threshold) throws IOException {
    String table = markdownTable(rows);
    String header = "Baseline: " + sideLabel(b) + "  \nCandidate: " + sideLabel(c) + "  \nThreshold: "
        + threshold + " %; intervals: 95 % Welch t-interval of the change in the mean over the repetitions.\n";
    Files.writeString(dir.resolve("report.md"), "# ybbench comparison\n\n" + header + "\n" + table + "\n");
    String warning = charts(dir, b, c, rows);
    Files.writeString(dir.resolve("report.html"), html(b, c, rows, threshold, warning == null ? listCharts(dir)
        : List.of()));
    return warning;
  }

  private static List<String> listCharts(Path dir) throws IOException {
    try (var s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".svg")).sorted().toList();
    }
  }

  private static String html(Side b, Side c, List<Comparison.Row> rows, double threshold, List<String> charts) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        + "<title>ybbench comparison</title><style>body{font-family:sans-serif;margin:2em}"
        + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
        + "td:nth-child(-n+3),th{text-align:left}.regression{background:#fdd}.improvement{background:#dfd}"
        + ".inconclusive{background:#ffd}</style></head><body>\n<h1>ybbench comparison</h1>\n");
    h.append("<p>Baseline: <b>").append(esc(sideLabel(b))).append("</b><br>Candidate: <b>").append(esc(sideLabel(c)))
        .append("</b><br>Threshold ").append(threshold).append(" %; intervals: 95 % Welch t-interval.</p>\n");
    h.append("<h2>Parameters</h2><pre>").append(esc(b.runs().get(0).info().path("parameters").toPrettyString()))
        .append("</pre>\n<h2>Metrics</h2>\n<table><tr><th>workload</th><th>operation</th><th>metric</th>"
            + "<th>baseline</th><th>candidate</th><th>change</th><th>95% interval</th><th>verdict</th></tr>\n");
    for (Comparison.Row r : rows) {
      Statistics.Change ch = r.change();
      h.append("<tr class=\"").append(r.verdict().name().toLowerCase(Locale.ROOT).replace('_', '-')).append("\"><td>")
          .append(esc(r.workload())).append("</td><td>").append(esc(r.operation())).append("</td><td>")
          .append(esc(r.metric())).append("</td><td>").append(number(ch.baselineMean())).append("</td><td>")
          .append(number(ch.candidateMean())).append("</td><td>").append(percent(ch.changePct())).append("</td><td>")
          .append(interval(r))
          .append("</td><td>").append(r.verdict()).append("</td></tr>\n");
    }
    h.append("</table>\n");
    if (!charts.isEmpty()) {
      h.append("<h2>Charts</h2>\n");
      for (String chart : charts) {
        h.append("<p><img src=\"").append(chart).append("\" alt=\"").append(chart).append("\"></p>\n");
      }
    }
    return h.append("</body></html>\n").toString();
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /**
   * Grouped bars (baseline vs candidate) of throughput and p99 per workload and operation, and
   * per workload the throughput over time of each side's first run.
   */
  private static String charts(Path dir, Side b, Side c, List<Comparison.Row> rows) throws IOException {
    String sides = "; base=" + Gnuplot.quote(sideLabel(b)) + "; cand=" + Gnuplot.quote(sideLabel(c));
    List<String> charts = new ArrayList<>();
    for (String metric : List.of("throughput (ops/s)", "p99 (µs)")) {
      String name = metric.startsWith("throughput") ? "throughput" : "p99";
      Path data = dir.resolve(name + ".dat");
      List<String> lines = new ArrayList<>();
      for (Comparison.Row r : rows) {
        if (r.metric().equals(metric) && !(name.equals("p99") && r.operation().equals("ALL"))) {
          lines.add(String.format(Locale.ROOT, "\"%s %s\" %.3f %.3f", r.workload(), r.operation(),
              r.change().baselineMean(), r.change().candidateMean()));
        }
      }
      Files.write(data, lines);
      charts.add("mode='bars'; datafile=" + Gnuplot.quote(data.toString()) + "; out="
          + Gnuplot.quote(dir.resolve(name + ".svg").toString()) + "; ylabel=" + Gnuplot.quote(metric.replace("µ", "u"))
          + sides);
    }
    for (Map.Entry<String, List<Comparison.Row>> w : Comparison.byWorkload(rows).entrySet()) {
      String workload = w.getValue().get(0).workload();
      Path bt = firstTimeseries(b, w.getKey());
      Path ct = firstTimeseries(c, w.getKey());
      if (bt != null && ct != null) {
        Path svg = dir.resolve("over-time-" + workload.replaceAll("[^A-Za-z0-9._-]", "_") + ".svg");
        charts.add("mode='time'; bfile=" + Gnuplot.quote(bt.toString()) + "; cfile=" + Gnuplot.quote(ct.toString())
            + "; phase=" + Gnuplot.quote(Comparison.phase(firstRun(b, w.getKey()).summary())) + "; out="
            + Gnuplot.quote(svg.toString()) + "; title=" + Gnuplot.quote(workload) + sides);
      }
    }
    return Gnuplot.run(Report.class, "compare.gp", charts);
  }

  private static Side.Run firstRun(Side side, String key) {
    return side.runs().stream().filter(r -> (r.bench() + "/" + r.workload()).equals(key)).findFirst().orElse(null);
  }

  private static Path firstTimeseries(Side side, String key) {
    Side.Run r = firstRun(side, key);
    Path ts = r == null ? null : r.dir().resolve("timeseries.csv");
    return ts != null && Files.isRegularFile(ts) ? ts : null;
  }
}
