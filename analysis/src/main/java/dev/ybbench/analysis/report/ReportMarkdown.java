package dev.ybbench.analysis.report;

import static dev.ybbench.analysis.report.ReportFormat.change;
import static dev.ybbench.analysis.report.ReportFormat.interval;
import static dev.ybbench.analysis.report.ReportFormat.metricCell;
import static dev.ybbench.analysis.report.ReportFormat.number;
import static dev.ybbench.analysis.report.ReportFormat.planHeading;
import static dev.ybbench.analysis.report.ReportFormat.share;
import static dev.ybbench.analysis.report.ReportFormat.textBars;
import static dev.ybbench.analysis.report.ReportFormat.sideLabel;

import dev.ybbench.analysis.compare.Comparison;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.compare.Verdict;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.analysis.where.LayerComparison;
import java.util.Locale;
import java.util.Map;

/** report.md, and the table compare.sh prints: the answer, the table, where each change lives, the method. */
public final class ReportMarkdown {
  private final RunGroup baseline;
  private final RunGroup candidate;
  private final Comparison.Result result;
  private final Map<String, LayerComparison.Workload> traced;

  ReportMarkdown(RunGroup baseline, RunGroup candidate, Comparison.Result result, Map<String, LayerComparison.Workload> traced) {
    this.baseline = baseline;
    this.candidate = candidate;
    this.result = result;
    this.traced = traced;
  }

  /** The whole of report.md. */
  String document(VerdictLines verdicts, String method) {
    String header = "Baseline: " + sideLabel(baseline) + "  \nCandidate: " + sideLabel(candidate) + "  \n";
    StringBuilder md = new StringBuilder("# ybbench comparison\n\n").append(header).append('\n');
    verdicts.lines().forEach(l -> md.append("    ").append(l).append('\n'));
    verdicts.notes().forEach(n -> md.append('\n').append(n).append('\n'));
    result.warnings().forEach(w -> md.append("\nwarning: ").append(w).append('\n'));
    md.append('\n').append(table()).append("\n\n").append(where()).append(method).append('\n');
    return md.toString();
  }

  private static String verdictCell(Comparison.Row r) {
    return r.verdict() == Verdict.REGRESSION ? "**regression**" : r.verdict().toString();
  }

  /** Every row, the headlines starred: what compare.sh prints after the answer. */
  String table() {
    StringBuilder s = new StringBuilder(
        "| workload | operation | metric | baseline | candidate | change | interval | verdict |\n"
            + "|---|---|---|---:|---:|---:|---|---|\n");
    for (Comparison.Row r : result.rows()) {
      Statistics.Change c = r.change();
      s.append(String.format(Locale.ROOT, "| %s | %s | %s%s | %s | %s | %s | %s | %s |%n", r.workload(),
          r.operation(), metricCell(r), r.headline() ? " ★" : "", number(c.baseline()), number(c.candidate()), change(c),
          interval(c), verdictCell(r)));
    }
    return s.toString().stripTrailing();
  }

  /** The "where" section: per workload, its layers' rows, statements ranked by their share of the change, plan changes. */
  String where() {
    StringBuilder s = new StringBuilder();
    for (Map.Entry<String, LayerComparison.Workload> e : traced.entrySet()) {
      LayerComparison.Workload w = e.getValue();
      s.append("### Where: ").append(e.getKey()).append("\n\n").append(w.clause()).append("\n\n");
      s.append("| layer | item | metric | baseline | candidate | change | interval | share of change | finding |\n"
          + "|---|---|---|---:|---:|---:|---|---:|---|\n");
      for (LayerComparison.Layer l : w.layers()) {
        s.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", l.layer(),
            l.item().replace("|", "\\|"), l.metric(), number(l.change().baseline()),
            number(l.change().candidate()), change(l.change()), interval(l.change()), share(l), l.finding()));
      }
      for (LayerComparison.PlanChange p : w.plans()) {
        s.append('\n').append(planHeading(p)).append(": `").append(p.statement()).append("`\n\n    baseline:  ")
            .append(p.baseline()).append("\n    candidate: ").append(p.candidate()).append('\n');
      }
      if (w.plansNote() != null) {
        s.append('\n').append(w.plansNote()).append('\n');
      }
      LayerComparison.waitProfiles(w).forEach((q, waits) -> s.append("\nWait profile (share of its samples): `")
          .append(q).append("`\n\n```text\n").append(textBars(waits)).append("\n```\n"));
      s.append('\n');
    }
    return s.toString();
  }
}
