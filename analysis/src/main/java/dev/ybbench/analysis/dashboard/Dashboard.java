package dev.ybbench.analysis.dashboard;

import dev.ybbench.analysis.compare.ComparedMetrics;
import dev.ybbench.analysis.compare.Comparison;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.history.AgainstHistory;
import dev.ybbench.analysis.history.HistoryRuns;
import dev.ybbench.analysis.history.HistoryStore;
import dev.ybbench.analysis.history.HistoryTrend;
import dev.ybbench.analysis.report.Report;
import dev.ybbench.analysis.stats.ChangePoints;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.harness.results.HtmlText;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code history.sh dashboard}: a static site of the history (index.html, opens from disk, no
 * network): per key, its headline and each operation's p99 run by run over builds, each run's 95 %
 * interval from its own seconds as a bar, the key's change points ({@link HistoryTrend}) dashed with
 * their change, each point linked to its run's report and each change point to a comparison of the
 * runs on either side of it (changes/KEY-N/report.html, with its where). The charts are SVG drawn
 * here, inline, so that the links work in any browser without a script.
 */
public final class Dashboard {
  private static final int WIDTH = 920;
  private static final int HEIGHT = 240;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 24;
  private static final int BOTTOM = 46;

  /** One point of a chart: a run's value, its interval (NaN without), where it links, what it says. */
  record Point(double value, double low, double high, String href, String title) {}

  private Dashboard() {}

  /** Writes the site into {@code dir}; returns how many keys it shows. */
  public static int write(HistoryStore store, Path dir, double threshold, Runnable checkpoint) throws IOException {
    Files.createDirectories(dir);
    StringBuilder body = new StringBuilder();
    StringBuilder index = new StringBuilder("<ul>\n");
    int shown = 0;
    for (String key : store.keys().keySet()) {
      checkpoint.run();
      HistoryTrend.Trend t = HistoryTrend.of(store, key);
      if (t.runs().isEmpty()) {
        continue;
      }
      shown++;
      String slug = key.replaceAll("[^A-Za-z0-9._-]", "_");
      List<RunGroup.Run> runs = t.runs().stream().map(HistoryRuns::run).toList();
      List<String> changeLinks = changes(dir, slug, t, runs, threshold);
      HistoryStore.Entry last = t.runs().get(t.runs().size() - 1);
      index.append("<li><a href=\"#").append(HtmlText.esc(slug)).append("\">").append(HtmlText.esc(key)).append("</a> — ")
          .append(t.runs().size()).append(" runs, ").append(t.shifts().size()).append(" change point")
          .append(t.shifts().size() == 1 ? "" : "s").append("</li>\n");
      body.append("<section id=\"").append(HtmlText.esc(slug)).append("\">\n<h2>").append(HtmlText.esc(key)).append("</h2>\n")
          .append("<p class=\"what\">").append(t.runs().size()).append(" runs on ").append(HtmlText.esc(String.valueOf(
              last.clientHost()))).append(", ").append(HtmlText.esc(last.serverProduct())).append(' ')
          .append(HtmlText.esc(t.runs().get(0).serverVersion())).append(" … ").append(HtmlText.esc(last.serverVersion()))
          .append("; ").append(shiftsText(t, changeLinks, threshold)).append("</p>\n");
      List<Point> headline = new ArrayList<>();
      for (int i = 0; i < runs.size(); i++) {
        Statistics.Sample s = ComparedMetrics.headline(runs.get(i));
        headline.add(point(s, dir, t.runs().get(i), String.format(Locale.ROOT, "%.1f", s.value())));
      }
      body.append(chart(t.metric() + ", run by run", headline, t, changeLinks));
      for (Map.Entry<String, List<Point>> op : p99s(runs, t, dir).entrySet()) {
        body.append(chart(op.getKey() + " p99 (µs), run by run", op.getValue(), t, changeLinks));
      }
      body.append("</section>\n");
    }
    index.append("</ul>\n");
    String html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ybbench history</title>\n"
        + "<style>body{font-family:sans-serif;margin:1.5em;max-width:980px}h1{font-size:1.4em}h2{font-size:1.1em;"
        + "margin-top:2em}p.what{color:#333}svg.chart{display:block;margin:.5em 0 1.2em}"
        + "svg text{font-family:sans-serif;font-size:11px}</style></head><body>\n"
        + "<h1>ybbench history</h1>\n<p>From " + HtmlText.esc(store.shown()) + ": " + shown + " key"
        + (shown == 1 ? "" : "s") + ". Each point is a run (its report a click away), its bar the 95 % interval of "
        + "its own seconds; dashed lines are change points (E-divisive means, permutation test at "
        + (int) Math.round(AgainstHistory.ALPHA * 100) + " %), each linked to a comparison of the runs on either "
        + "side, with where the change lives.</p>\n" + (shown == 0 ? "<p>The history has no complete run.</p>\n"
        : index) + body + "</body></html>\n";
    Files.writeString(dir.resolve("index.html"), html);
    return shown;
  }

  /** "2 change points: −18.2 % at 17.10, …" with links to their comparisons. */
  private static String shiftsText(HistoryTrend.Trend t, List<String> links, double threshold) {
    if (t.shifts().isEmpty()) {
      return "no change point";
    }
    StringBuilder s = new StringBuilder(t.shifts().size() + " change point" + (t.shifts().size() == 1 ? "" : "s")
        + ": ");
    for (int i = 0; i < t.shifts().size(); i++) {
      HistoryTrend.Shift x = t.shifts().get(i);
      s.append(i == 0 ? "" : ", ").append("<a href=\"").append(HtmlText.esc(links.get(i))).append("\">")
          .append(String.format(Locale.ROOT, "%+.1f %%", x.changePct())).append(" at ")
          .append(HtmlText.esc(x.after().serverVersion())).append(" (").append(HtmlText.esc(x.after().runId()))
          .append(")</a>").append(Math.abs(x.changePct()) < threshold ? " (within the threshold)" : "");
    }
    return s.toString();
  }

  /**
   * For each change point, the comparison of the runs between the previous change point and it
   * against those between it and the next, written as a comparison's report; its path relative to
   * the site.
   */
  private static List<String> changes(Path dir, String slug, HistoryTrend.Trend t, List<RunGroup.Run> runs,
      double threshold) throws IOException {
    List<String> out = new ArrayList<>();
    List<Integer> cuts = t.shifts().stream().map(HistoryTrend.Shift::index).toList();
    for (int k = 0; k < cuts.size(); k++) {
      int[] r = ChangePoints.around(cuts, k, runs.size());
      RunGroup before = new RunGroup("before " + t.shifts().get(k).before().serverVersion(), runs.subList(r[0], r[1]));
      RunGroup after = new RunGroup("from " + t.shifts().get(k).after().serverVersion(), runs.subList(r[1], r[2]));
      String rel = "changes/" + slug + "-" + (k + 1);
      Path target = dir.resolve(rel);
      Files.createDirectories(target);
      Comparison.Result result = Comparison.compare(before, after, new Comparison.Options(threshold, null, 0.95,
          false));
      new Report(before, after, result, threshold, null).write(target, () -> { });
      out.add(rel + "/report.html");
    }
    return out;
  }

  /** Each operation's p99 run by run (operations in the runs' own order of names). */
  private static Map<String, List<Point>> p99s(List<RunGroup.Run> runs, HistoryTrend.Trend t, Path dir) {
    TreeSet<String> ops = new TreeSet<>();
    runs.forEach(r -> ops.addAll(r.phase().operations().keySet()));
    Map<String, List<Point>> out = new LinkedHashMap<>();
    for (String op : ops) {
      List<Point> points = new ArrayList<>();
      for (int i = 0; i < runs.size(); i++) {
        RunGroup.Run r = runs.get(i);
        OperationResult o = r.phase().operations().get(op);
        LatencyPercentiles l = o == null ? null : o.latencyUs();
        if (l == null || l.p99() == null) {
          points.add(null);
          continue;
        }
        Statistics.Sample s = r.noise().percentile(op, 99, l.p99());
        points.add(point(s, dir, t.runs().get(i), l.p99() + " µs"));
      }
      if (points.stream().anyMatch(p -> p != null)) {
        out.put(op, points);
      }
    }
    return out;
  }

  private static Point point(Statistics.Sample s, Path dir, HistoryStore.Entry e, String value) {
    double half = s.withinVariance() > 0 ? 1.96 * Math.sqrt(s.withinVariance()) : Double.NaN;
    Path report = e.resultsPath() == null ? null : Path.of(e.resultsPath()).resolve("report.html");
    String href = report != null && Files.isRegularFile(report) ? relative(dir, report) : null;
    String title = e.runId() + " — " + e.serverVersion() + ": " + value
        + (href == null ? " (its directory is not here)" : "");
    return new Point(s.value(), s.value() * Math.exp(-half), s.value() * Math.exp(half), href, title);
  }

  /** A link from the site to a file: relative when they share a root, else the file's URI. */
  private static String relative(Path dir, Path file) {
    try {
      return dir.toAbsolutePath().normalize().relativize(file.toAbsolutePath().normalize()).toString()
          .replace('\\', '/');
    } catch (IllegalArgumentException e) {
      return file.toUri().toString();
    }
  }

  /** One chart: points with their bars, change points dashed, builds named under the axis at each change. */
  static String chart(String title, List<Point> points, HistoryTrend.Trend t, List<String> changeLinks) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (Point p : points) {
      if (p != null) {
        lo = Math.min(lo, Double.isNaN(p.low()) ? p.value() : p.low());
        hi = Math.max(hi, Double.isNaN(p.high()) ? p.value() : p.high());
      }
    }
    if (!(hi > lo)) {
      lo = lo * 0.9;
      hi = hi * 1.1 + 1;
    }
    double pad = (hi - lo) * 0.08;
    double yMin = Math.max(0, lo - pad);
    double yMax = hi + pad;
    int n = points.size();
    double plotW = WIDTH - LEFT - RIGHT;
    double plotH = HEIGHT - TOP - BOTTOM;
    java.util.function.DoubleUnaryOperator x = i -> LEFT + (n == 1 ? plotW / 2 : i * plotW / (n - 1));
    java.util.function.DoubleUnaryOperator y = v -> TOP + plotH * (1 - (v - yMin) / (yMax - yMin));
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
        + "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">\n", WIDTH, HEIGHT, WIDTH, HEIGHT,
        HtmlText.esc(title)));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"14\" font-weight=\"bold\">%s</text>\n", LEFT,
        HtmlText.esc(title)));
    for (double v : ticks(yMin, yMax)) {
      s.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>"
          + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", LEFT, WIDTH - RIGHT, y.applyAsDouble(v),
          y.applyAsDouble(v), LEFT - 6, y.applyAsDouble(v) + 4, tick(v)));
    }
    s.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n",
        LEFT, WIDTH - RIGHT, TOP + plotH, TOP + plotH));
    // The builds at either end and at each change point, under the axis.
    TreeSet<Integer> named = new TreeSet<>(List.of(0, n - 1));
    t.shifts().forEach(c -> named.add(c.index()));
    for (int i : named) {
      if (i >= 0 && i < t.runs().size()) {
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
            x.applyAsDouble(i), TOP + plotH + 16, HtmlText.esc(t.runs().get(i).serverVersion())));
      }
    }
    s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">runs in "
        + "order, the build under each change</text>\n", LEFT + plotW / 2, HEIGHT - 6));
    for (int k = 0; k < t.shifts().size(); k++) {
      HistoryTrend.Shift c = t.shifts().get(k);
      double cx = (x.applyAsDouble(c.index() - 1) + x.applyAsDouble(c.index())) / 2;
      s.append(String.format(Locale.ROOT, "<a class=\"change\" href=\"%s\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" "
          + "y2=\"%.1f\" stroke=\"#c0392b\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/><text x=\"%.1f\" y=\"%d\" "
          + "fill=\"#c0392b\" text-anchor=\"middle\">%+.1f %%</text><title>change point %+.1f %% between %s and %s: "
          + "where it lives</title></a>\n", HtmlText.esc(changeLinks.get(k)), cx, cx, TOP, TOP + plotH, cx, TOP + 10,
          c.changePct(), c.changePct(), HtmlText.esc(c.before().serverVersion()), HtmlText.esc(c.after().serverVersion())));
    }
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < n; i++) {
      Point p = points.get(i);
      if (p != null) {
        line.append(line.length() == 0 ? "M" : "L").append(String.format(Locale.ROOT, "%.1f %.1f ",
            x.applyAsDouble(i), y.applyAsDouble(p.value())));
      }
    }
    s.append("<path d=\"").append(line.toString().strip()).append("\" fill=\"none\" stroke=\"#2c6fbb\" "
        + "stroke-width=\"1.5\"/>\n");
    for (int i = 0; i < n; i++) {
      Point p = points.get(i);
      if (p == null) {
        continue;
      }
      double px = x.applyAsDouble(i);
      String mark = (Double.isNaN(p.low()) ? "" : String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" "
          + "y1=\"%.1f\" y2=\"%.1f\" stroke=\"#2c6fbb\"/>", px, px, y.applyAsDouble(p.low()),
          y.applyAsDouble(p.high()))) + String.format(Locale.ROOT, "<circle class=\"run\" cx=\"%.1f\" cy=\"%.1f\" "
          + "r=\"3.5\" fill=\"#2c6fbb\"><title>%s</title></circle>", px, y.applyAsDouble(p.value()),
          HtmlText.esc(p.title()));
      s.append(p.href() == null ? mark : "<a href=\"" + HtmlText.esc(p.href()) + "\">" + mark + "</a>").append('\n');
    }
    return s.append("</svg>\n").toString();
  }

  /** About five round values between lo and hi. */
  static List<Double> ticks(double lo, double hi) {
    double raw = (hi - lo) / 5;
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    double step = raw / magnitude < 1.5 ? magnitude : raw / magnitude < 3.5 ? 2 * magnitude
        : raw / magnitude < 7.5 ? 5 * magnitude : 10 * magnitude;
    List<Double> out = new ArrayList<>();
    for (double v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
      out.add(v);
    }
    return out;
  }

  private static String tick(double v) {
    return Math.abs(v) >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.2f", v);
  }
}
