package dev.ybbench.analysis.report;

import static dev.ybbench.analysis.report.ReportFormat.change;
import static dev.ybbench.analysis.report.ReportFormat.confidence;
import static dev.ybbench.analysis.report.ReportFormat.interval;
import static dev.ybbench.analysis.report.ReportFormat.metricCell;
import static dev.ybbench.analysis.report.ReportFormat.number;
import static dev.ybbench.analysis.report.ReportFormat.planHeading;
import static dev.ybbench.analysis.report.ReportFormat.share;
import static dev.ybbench.analysis.report.ReportFormat.sideLabel;
import static dev.ybbench.harness.results.HtmlText.esc;

import dev.ybbench.analysis.compare.Comparison;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.analysis.where.LayerComparison;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * report.html: the answer, each line coloured by its verdict, then the table, where each change
 * lives, the charts, and the method with each side's parameters and environment folded away.
 */
public final class ReportHtml {
  private final RunGroup baseline;
  private final RunGroup candidate;
  private final Comparison.Result result;
  private final Map<String, LayerComparison.Workload> traced;

  ReportHtml(RunGroup baseline, RunGroup candidate, Comparison.Result result, Map<String, LayerComparison.Workload> traced) {
    this.baseline = baseline;
    this.candidate = candidate;
    this.result = result;
    this.traced = traced;
  }

  /** Colours of a wait profile's events, in the order of their share on the candidate. */
  private static final List<String> COLOURS = List.of("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd",
      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf");

  /** A statement's wait profile as one stacked bar per side, each event's share of its samples, and a legend. */
  static String waitBars(String statement, List<LayerComparison.Layer> waits) {
    List<LayerComparison.Layer> order = ReportFormat.byCandidateShare(waits);
    StringBuilder h = new StringBuilder("<p>Wait profile (share of its samples): <code>").append(esc(statement))
        .append("</code></p>\n<table class=\"waits\">\n");
    for (boolean candidate : new boolean[] {false, true}) {
      h.append("<tr><td>").append(candidate ? "candidate" : "baseline")
          .append("</td><td style=\"width:600px;padding:0\"><div style=\"display:flex;height:18px\">");
      for (int i = 0; i < order.size(); i++) {
        LayerComparison.Layer l = order.get(i);
        double pct = candidate ? l.change().candidate() : l.change().baseline();
        if (pct > 0) {
          h.append(String.format(Locale.ROOT, "<div style=\"width:%.1f%%;background:%s\" title=\"%s %.0f %%\"></div>",
              pct, COLOURS.get(i % COLOURS.size()), esc(LayerComparison.waitEvent(l)), pct));
        }
      }
      h.append("</div></td></tr>\n");
    }
    h.append("</table>\n<p>");
    for (int i = 0; i < order.size(); i++) {
      LayerComparison.Layer l = order.get(i);
      h.append(String.format(Locale.ROOT, "<span style=\"color:%s\">■</span> %s %.0f %% → %.0f %% ",
          COLOURS.get(i % COLOURS.size()), esc(LayerComparison.waitEvent(l)), l.change().baseline(),
          l.change().candidate()));
    }
    return h.append("</p>\n").toString();
  }

  /** The whole page, with {@code charts} (file names beside it), or why there are none. */
  String document(VerdictLines verdicts, String method, List<String> charts, String chartsWarning) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        + "<title>ybbench comparison</title><style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
        + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
        + "td:nth-child(-n+3),th{text-align:left}.regression,.suspect{background:#fdd}.improvement{background:#dfd}"
        + ".inconclusive{background:#ffd}.not-comparable{color:#777}ul.answer li{margin:4px 0;font-family:monospace}</style></head><body>\n");
    h.append("<h1>").append(esc(baseline.name())).append(" → ").append(esc(candidate.name())).append("</h1>\n");
    h.append("<p>Baseline: <b>").append(esc(sideLabel(baseline))).append("</b><br>Candidate: <b>")
        .append(esc(sideLabel(candidate))).append("</b></p>\n<ul class=\"answer\">\n");
    List<Comparison.Row> answer = verdicts.rows();
    List<String> lines = verdicts.lines();
    for (int i = 0; i < lines.size(); i++) {
      h.append("<li class=\"").append(cssClass(answer.get(i))).append("\">").append(esc(lines.get(i)))
          .append("</li>\n");
    }
    h.append("</ul>\n");
    for (String n : verdicts.notes()) {
      h.append("<p>").append(esc(n)).append("</p>\n");
    }
    for (String w : result.warnings()) {
      h.append("<p><b>warning:</b> ").append(esc(w)).append("</p>\n");
    }
    h.append("<h2>Metrics</h2>\n<table><tr><th>workload</th><th>operation</th><th>metric</th><th>baseline</th>"
        + "<th>candidate</th><th>change</th><th>interval</th><th>q</th><th>verdict</th></tr>\n");
    for (Comparison.Row r : result.rows()) {
      Statistics.Change ch = r.change();
      h.append("<tr class=\"").append(cssClass(r)).append("\"><td>").append(esc(r.workload())).append("</td><td>")
          .append(esc(r.operation())).append("</td><td>").append(r.headline() ? "<b>" : "").append(esc(metricCell(r)))
          .append(r.headline() ? " ★</b>" : "").append("</td><td>").append(number(ch.baseline())).append("</td><td>")
          .append(number(ch.candidate())).append("</td><td>").append(esc(change(ch))).append("</td><td>")
          .append(esc(interval(ch))).append(" (").append(confidence(ch.confidence())).append(")</td><td>")
          .append(Double.isNaN(r.q()) ? "" : String.format(Locale.ROOT, "%.3f", r.q())).append("</td><td>")
          .append(r.verdict()).append("</td></tr>\n");
    }
    h.append("</table>\n");
    for (Map.Entry<String, LayerComparison.Workload> e : traced.entrySet()) {
      LayerComparison.Workload w = e.getValue();
      h.append("<h2>Where: ").append(esc(e.getKey())).append("</h2>\n<p class=\"where\">").append(esc(w.clause()))
          .append("</p>\n<table><tr><th>layer</th><th>item</th><th>metric</th><th>baseline</th><th>candidate</th>"
              + "<th>change</th><th>interval</th><th>share of change</th><th>finding</th></tr>\n");
      for (LayerComparison.Layer l : w.layers()) {
        h.append("<tr class=\"").append(l.finding() == LayerComparison.Finding.WORSE ? "suspect" : "").append("\"><td>")
            .append(esc(l.layer())).append("</td><td>").append(esc(LayerComparison.abbreviate(l.item()))).append("</td><td>")
            .append(esc(l.metric())).append("</td><td>").append(number(l.change().baseline())).append("</td><td>")
            .append(number(l.change().candidate())).append("</td><td>").append(esc(change(l.change())))
            .append("</td><td>").append(esc(interval(l.change()))).append("</td><td>").append(share(l))
            .append("</td><td>").append(l.finding()).append("</td></tr>\n");
      }
      h.append("</table>\n");
      for (LayerComparison.PlanChange p : w.plans()) {
        h.append("<p>").append(planHeading(p)).append(": <code>").append(esc(p.statement()))
            .append("</code></p>\n<pre>baseline:  ").append(esc(p.baseline())).append("\ncandidate: ")
            .append(esc(p.candidate())).append("</pre>\n");
      }
      if (w.plansNote() != null) {
        h.append("<p>").append(esc(w.plansNote())).append("</p>\n");
      }
      LayerComparison.waitProfiles(w).forEach((q, waits) -> h.append(waitBars(q, waits)));
    }
    if (!charts.isEmpty()) {
      h.append("<h2>Charts</h2>\n");
      for (String chart : charts) {
        h.append("<p><img src=\"").append(chart).append("\" alt=\"").append(chart).append("\"></p>\n");
      }
    } else if (chartsWarning != null) {
      h.append("<p>No charts: ").append(esc(chartsWarning)).append("</p>\n");
    }
    h.append("<details><summary>Method, parameters and environment</summary>\n<p>").append(esc(method))
        .append("</p>\n");
    for (RunGroup s : List.of(baseline, candidate)) {
      RunGroup.Run first = s.runs().get(0);
      h.append("<h3>").append(esc(sideLabel(s))).append("</h3>\n<pre>").append(esc(
          "server: " + first.info().path("server").toPrettyString() + "\nhost: " + first.info().path("host")
              .toPrettyString() + "\nharness: " + first.info().path("harness").toPrettyString()
              + "\nparameters: " + first.info().path("parameters").toPrettyString())).append("</pre>\n<p>Runs: ");
      s.runs().stream().map(r -> r.dir().getFileName().toString()).distinct().forEach(d -> h.append(esc(d))
          .append(' '));
      h.append("</p>\n");
    }
    return h.append("</details>\n</body></html>\n").toString();
  }

  private static String cssClass(Comparison.Row r) {
    return r.verdict().name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
