package dev.ybbench.analysis.report;

import dev.ybbench.analysis.compare.Comparison;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.analysis.where.LayerComparison;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** How the reports write a figure, an interval or a label: one way in report.md, report.html and the charts. */
public final class ReportFormat {
  private ReportFormat() {}

  static String confidence(double level) {
    double pct = level * 100;
    return (Math.abs(pct - Math.round(pct)) < 0.05 ? String.format(Locale.ROOT, "%.0f", pct)
        : String.format(Locale.ROOT, "%.1f", pct)) + " %";
  }

  static String change(Statistics.Change c) {
    if (Double.isNaN(c.change())) {
      return "—";
    }
    return c.scale() == Statistics.Scale.RATIO ? String.format(Locale.ROOT, "%+.1f %%", c.change())
        : String.format(Locale.ROOT, "%+.2f pp", c.change());
  }

  static String interval(Statistics.Change c) {
    return c.hasInterval() ? interval(c.scale(), c.low(), c.high()) : "—";
  }

  static String interval(Statistics.Scale scale, double low, double high) {
    return scale == Statistics.Scale.RATIO ? String.format(Locale.ROOT, "%+.1f %% … %+.1f %%", low, high)
        : String.format(Locale.ROOT, "%+.2f … %+.2f pp", low, high);
  }

  static String number(double v) {
    return Double.isNaN(v) ? "—" : Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.2f", v);
  }

  /** How wide a text bar of a wait profile is, in characters. */
  static final int BAR = 50;

  /**
   * A statement's wait profile as stacked bars, one per side, each event a letter in proportion
   * to its share of the statement's samples (the most sampled on the candidate first), then the
   * legend: the text form of report.html's bars.
   */
  static String textBars(List<LayerComparison.Layer> waits) {
    List<LayerComparison.Layer> order = byCandidateShare(waits);
    StringBuilder b = new StringBuilder("baseline   ");
    StringBuilder c = new StringBuilder("candidate  ");
    StringBuilder legend = new StringBuilder();
    for (int i = 0; i < order.size(); i++) {
      LayerComparison.Layer l = order.get(i);
      char letter = (char) ('A' + Math.min(i, 25));
      b.append(String.valueOf(letter).repeat(width(l.change().baseline())));
      c.append(String.valueOf(letter).repeat(width(l.change().candidate())));
      legend.append(i == 0 ? "" : ", ").append(letter).append(' ').append(LayerComparison.waitEvent(l))
          .append(String.format(Locale.ROOT, " %.0f %% → %.0f %%", l.change().baseline(), l.change().candidate()));
    }
    return b + "\n" + c + "\n" + legend;
  }

  private static int width(double pct) {
    return Double.isNaN(pct) ? 0 : (int) Math.round(pct / 100 * BAR);
  }

  /** The rows the most sampled on the candidate first. */
  static List<LayerComparison.Layer> byCandidateShare(List<LayerComparison.Layer> waits) {
    return waits.stream().sorted(Comparator.comparingDouble((LayerComparison.Layer l) -> -l.change().candidate())
        .thenComparing(LayerComparison.Layer::metric)).toList();
  }

  /** The metric, and for latency from when it was measured: "p99 (µs), from actual start". */
  static String metricCell(Comparison.Row r) {
    return r.latency() ? r.metric() + ", from " + r.origin() : r.metric();
  }

  static String sideLabel(RunGroup side) {
    return side.name() + " (" + side.runs().get(0).serverLabel() + ", " + side.directories() + " run"
        + (side.directories() == 1 ? "" : "s") + ")";
  }

  /**
   * "Plan changed", or "Plan changed, time unchanged" for a plan that flipped while its statement
   * took as long (the tables' statistics moved between runs): shown, never a cause.
   */
  static String planHeading(LayerComparison.PlanChange p) {
    return p.timeMoved() ? "Plan changed" : "Plan changed, time unchanged";
  }

  static String share(LayerComparison.Layer l) {
    return Double.isNaN(l.share()) ? "" : String.format(Locale.ROOT, "%.0f %%", 100 * l.share());
  }
}
