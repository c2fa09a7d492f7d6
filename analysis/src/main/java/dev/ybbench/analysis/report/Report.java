package dev.ybbench.analysis.report;

import dev.ybbench.analysis.compare.Comparison;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.where.LayerComparison;
import dev.ybbench.harness.results.RunDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The comparison's outputs, leading with the answer: the verdict per workload (regressions
 * first), the rows flagged suspect, then the table, then charts, with the method, parameters and
 * environment last. On the terminal, in report.md ({@link ReportMarkdown}), report.html
 * ({@link ReportHtml}, with gnuplot SVG charts: {@link ReportCharts}) and comparison.json
 * ({@link ComparisonJson}); the answer itself is {@link VerdictLines}.
 */
public final class Report {
  private final RunGroup baseline;
  private final RunGroup candidate;
  private final Comparison.Result result;
  /** Where each workload's change lives, traced once for every format. */
  private final Map<String, LayerComparison.Workload> where;
  private final double threshold;
  private final String gate;
  private final VerdictLines verdicts;

  public Report(RunGroup baseline, RunGroup candidate, Comparison.Result result, double threshold, String gate) {
    this.baseline = baseline;
    this.candidate = candidate;
    this.result = result;
    this.where = LayerComparison.of(result, threshold);
    this.threshold = threshold;
    this.gate = gate;
    this.verdicts = new VerdictLines(result, where, threshold);
  }

  /** The answer: one line per headline, then one per suspect row. */
  public List<String> verdictLines() {
    return verdicts.lines();
  }

  /** One line per workload whose latency rows were not tested, saying why. */
  public List<String> notes() {
    return verdicts.notes();
  }

  /** The table of every row, as report.md has it. */
  public String markdownTable() {
    return new ReportMarkdown(baseline, candidate, result, where).table();
  }

  /** How the rows were judged, for the end of report.md and report.html. */
  private String method() {
    return "★ marks the headline rows, which decide the exit code (the headline each run names: its throughput, "
        + "or its benchmark's own, such as tpmC"
        + (gate == null ? "" : "; " + gate + " per operation") + "). Values are geometric means over runs. "
        + "Changes are ratios candidate/baseline on the log scale; runs that alternated in time are paired by "
        + "round. Each interval is the change ± Student's t for the rounds × the rounds' standard error, never "
        + "narrower than each run's own blocks of seconds imply when there are fewer than three; a run far from "
        + "the others on that evidence is set aside and named. A regression is an interval wholly below zero with "
        + "a change beyond the " + threshold + " % threshold; no change, a change shown within ± the threshold by "
        + "two one-sided tests (the interval at twice the error rate within it). Other rows are judged after a "
        + "Benjamini–Hochberg correction (false-discovery rate 5 %) and flagged suspect instead of failing. Error "
        + "ratios are compared in percentage points (within ±" + Comparison.ERROR_MARGIN_PP + " pp is no change).";
  }

  /**
   * Writes report.md, report.html, comparison.json and the charts; returns a warning if the
   * charts could not be drawn. {@code checkpoint} is called between the charts.
   */
  public String write(Path dir, Runnable checkpoint) throws IOException {
    Files.writeString(dir.resolve("report.md"), new ReportMarkdown(baseline, candidate, result, where).document(verdicts,
        method()));
    RunDirectory.JSON.writeValue(dir.resolve("comparison.json").toFile(), ComparisonJson.of(baseline, candidate,
        result, where, threshold, gate));
    List<String> charts = new ArrayList<>();
    String warning = new ReportCharts(baseline, candidate, result).draw(dir, charts, checkpoint);
    Files.writeString(dir.resolve("report.html"), new ReportHtml(baseline, candidate, result, where).document(verdicts,
        method(), warning == null ? charts : List.of(), warning));
    return warning;
  }
}
