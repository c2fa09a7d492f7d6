package dev.ybbench.analysis;

import dev.ybbench.analysis.compare.ComparedMetrics;
import dev.ybbench.analysis.compare.RunMatching;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.compare.Verdict;
import dev.ybbench.analysis.report.Report;
import dev.ybbench.analysis.stats.ChangePoints;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.Gnuplot;
import dev.ybbench.harness.results.RunDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./compare.sh --series L1 L2 L3 …}: each workload's headline metric across releases —
 * every release's level with its interval, each step from one release to the next judged as a
 * comparison would, and the change points of the whole series (E-divisive means over every run,
 * {@link ChangePoints}) — as text, series.json and a chart per workload.
 */
public final class SeriesCommand {
  /** One release: the geometric mean of its runs and its interval. */
  record Point(String label, String server, double value, double low, double high, int runs) {}

  /** One release to the next, judged like a headline. */
  record Step(String from, String to, Statistics.Change change, Verdict verdict) {}

  /**
   * A change point of the series: between release {@code before} and the next, the level after
   * against the level before, each the geometric mean of the runs between neighbouring change
   * points.
   */
  record ChangePoint(String before, String after, double changePct) {}

  record Trend(String key, String metric, List<Point> points, List<Step> steps, List<ChangePoint> changePoints) {}

  private SeriesCommand() {}

  static List<Trend> of(List<RunGroup> sides, double threshold, boolean allowEnvDiff) {
    List<Map<String, List<RunGroup.Run>>> byWorkload = sides.stream().map(RunMatching::byWorkload).toList();
    List<String> common = new ArrayList<>(byWorkload.get(0).keySet());
    byWorkload.forEach(m -> common.retainAll(m.keySet()));
    if (common.isEmpty()) {
      throw new UserError("Nothing to follow: no workload ran in every one of " + sides.stream().map(RunGroup::name)
          .toList());
    }
    List<Trend> out = new ArrayList<>();
    for (String key : common) {
      List<List<RunGroup.Run>> runs = byWorkload.stream().map(m -> m.get(key).stream()
          .sorted(Comparator.comparing(RunGroup.Run::started)).toList()).toList();
      for (List<RunGroup.Run> r : runs.subList(1, runs.size())) {
        RunMatching.checkParameters(runs.get(0), r);
        if (!allowEnvDiff) {
          RunMatching.checkEnvironment(runs.get(0), r);
        }
      }
      out.add(trend(key, sides, runs, threshold));
    }
    return out;
  }

  private static Trend trend(String key, List<RunGroup> sides, List<List<RunGroup.Run>> runs, double threshold) {
    List<List<Statistics.Sample>> samples = runs.stream().map(rs -> rs.stream().map(ComparedMetrics::headline).toList())
        .toList();
    List<Point> points = new ArrayList<>();
    List<Step> steps = new ArrayList<>();
    List<Double> all = new ArrayList<>();
    List<Boolean> allowed = new ArrayList<>();
    List<Integer> release = new ArrayList<>();
    for (int i = 0; i < sides.size(); i++) {
      double[] level = Statistics.level(samples.get(i), 0.95);
      points.add(new Point(sides.get(i).name(), runs.get(i).get(0).serverLabel(), level[0], level[1], level[2],
          runs.get(i).size()));
      if (i > 0) {
        Statistics.Change c = Statistics.change(samples.get(i - 1), samples.get(i),
            RunMatching.interleaved(runs.get(i - 1), runs.get(i)), Statistics.Scale.RATIO, 0.95);
        steps.add(new Step(sides.get(i - 1).name(), sides.get(i).name(), c, Verdict.headline(c, true, threshold)));
      }
      for (int j = 0; j < samples.get(i).size(); j++) {
        all.add(Math.log(samples.get(i).get(j).value()));
        allowed.add(j == 0 && i > 0);
        release.add(i);
      }
    }
    boolean[] may = new boolean[allowed.size()];
    for (int i = 0; i < may.length; i++) {
      may[i] = allowed.get(i);
    }
    double[] values = all.stream().mapToDouble(Double::doubleValue).toArray();
    List<Integer> cuts = ChangePoints.find(values, may, key.hashCode());
    List<ChangePoint> changes = new ArrayList<>();
    for (int k = 0; k < cuts.size(); k++) {
      int cut = cuts.get(k);
      changes.add(new ChangePoint(sides.get(release.get(cut) - 1).name(), sides.get(release.get(cut)).name(),
          ChangePoints.changePct(values, cuts, k)));
    }
    return new Trend(key, ComparedMetrics.headlineName(runs.get(0).get(0)), points, steps, changes);
  }

  /** The trend as lines for the terminal and series.md. */
  static List<String> lines(Trend t) {
    List<String> out = new ArrayList<>();
    out.add(t.key() + " " + t.metric() + ", release by release (95 % intervals):");
    int width = t.points().stream().mapToInt(p -> p.label().length()).max().orElse(8);
    for (int i = 0; i < t.points().size(); i++) {
      Point p = t.points().get(i);
      StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "  %-" + width + "s %10.1f  %s", p.label(),
          p.value(), Double.isNaN(p.low()) ? "(no interval)" : String.format(Locale.ROOT, "[%.1f … %.1f]", p.low(),
              p.high())));
      s.append(String.format(Locale.ROOT, "  %s, %d run%s", p.server(), p.runs(), p.runs() == 1 ? "" : "s"));
      if (i > 0) {
        Step step = t.steps().get(i - 1);
        Statistics.Change c = step.change();
        s.append(String.format(Locale.ROOT, "; %+.1f %% vs %s", c.change(), step.from()));
        if (c.hasInterval()) {
          s.append(String.format(Locale.ROOT, " (%+.1f %% … %+.1f %%)", c.low(), c.high()));
        }
        s.append(": ").append(step.verdict());
      }
      out.add(s.toString());
    }
    if (t.changePoints().isEmpty()) {
      out.add("  no change point (E-divisive means, permutation test at 5 %)");
    }
    for (ChangePoint c : t.changePoints()) {
      out.add(String.format(Locale.ROOT, "  change point between %s and %s: %+.1f %% (E-divisive means, permutation "
          + "test at 5 %%)", c.before(), c.after(), c.changePct()));
    }
    return out;
  }

  /**
   * series.md, series.json and series-<workload>.svg; returns a warning if the charts could not be
   * drawn. {@code checkpoint} is called before each chart.
   */
  static String write(Path dir, List<Trend> trends, Runnable checkpoint) throws IOException {
    StringBuilder md = new StringBuilder("# ybbench series\n\n");
    List<Map<String, Object>> json = new ArrayList<>();
    List<String> charts = new ArrayList<>();
    for (Trend t : trends) {
      md.append("```\n").append(String.join("\n", lines(t))).append("\n```\n\n");
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("workload", t.key());
      m.put("metric", t.metric());
      m.put("points", t.points().stream().map(p -> {
        Map<String, Object> point = new LinkedHashMap<>();
        point.put("label", p.label());
        point.put("server", p.server());
        point.put("value", p.value());
        point.put("low", Double.isNaN(p.low()) ? null : p.low());
        point.put("high", Double.isNaN(p.high()) ? null : p.high());
        point.put("runs", p.runs());
        return point;
      }).toList());
      m.put("steps", t.steps().stream().map(s -> {
        Map<String, Object> step = new LinkedHashMap<>();
        step.put("from", s.from());
        step.put("to", s.to());
        step.put("change_pct", Double.isFinite(s.change().change()) ? s.change().change() : null);
        step.put("verdict", s.verdict().toString());
        return step;
      }).toList());
      m.put("change_points", t.changePoints());
      json.add(m);
      String slug = t.key().substring(t.key().indexOf('/') + 1).replaceAll("[^A-Za-z0-9._-]", "_");
      Path data = dir.resolve("series-" + slug + ".dat");
      List<String> rows = new ArrayList<>();
      for (int i = 0; i < t.points().size(); i++) {
        Point p = t.points().get(i);
        rows.add(String.format(Locale.ROOT, "%d \"%s\" %.3f %.3f %.3f", i, p.label().replace("\"", ""), p.value(),
            Double.isNaN(p.low()) ? p.value() : p.low(), Double.isNaN(p.high()) ? p.value() : p.high()));
      }
      Files.write(data, rows);
      List<String> xs = new ArrayList<>();
      List<String> labels = new ArrayList<>();
      for (ChangePoint c : t.changePoints()) {
        int after = t.points().stream().map(Point::label).toList().indexOf(c.after());
        xs.add(String.format(Locale.ROOT, "%.1f", after - 0.5));
        labels.add(String.format(Locale.ROOT, "%+.1f%%", c.changePct()));
      }
      charts.add("mode='series'; datafile=" + Gnuplot.quote(data.toString()) + "; cps=" + Gnuplot.quote(String.join(
          " ", xs)) + "; cplabels=" + Gnuplot.quote(String.join(" ", labels)) + "; out=" + Gnuplot.quote(dir.resolve(
          "series-" + slug + ".svg").toString()) + "; title=" + Gnuplot.quote(t.key() + ": " + t.metric()
          + " by release, 95 % intervals, change points dashed") + "; base=''; cand=''");
    }
    Files.writeString(dir.resolve("series.md"), md.toString());
    RunDirectory.JSON.writeValue(dir.resolve("series.json").toFile(), json);
    return Gnuplot.run(Report.class, "compare.gp", charts, checkpoint);
  }
}
