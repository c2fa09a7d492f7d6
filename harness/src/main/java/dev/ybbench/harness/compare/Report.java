package dev.ybbench.harness.compare;

import static dev.ybbench.harness.results.Html.esc;

import dev.ybbench.harness.results.PhaseResult;
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
 * The comparison's outputs, leading with the answer: the verdict per workload (regressions
 * first), the rows flagged suspect, then the table, then charts, with the method, parameters and
 * environment last. On the terminal, in report.md, report.html (with gnuplot SVG charts) and
 * comparison.json.
 */
final class Report {
  private final Side baseline;
  private final Side candidate;
  private final Comparison.Result result;
  private final double threshold;
  private final String gate;

  Report(Side baseline, Side candidate, Comparison.Result result, double threshold, String gate) {
    this.baseline = baseline;
    this.candidate = candidate;
    this.result = result;
    this.threshold = threshold;
    this.gate = gate;
  }

  /** Regressions first, then what is undecided, then improvements, then no change. */
  private static final List<Verdict> ORDER = List.of(Verdict.REGRESSION, Verdict.NOT_COMPARABLE, Verdict.INCONCLUSIVE,
      Verdict.IMPROVEMENT, Verdict.NO_CHANGE);

  private List<Comparison.Row> headlines() {
    return result.rows().stream().filter(Comparison.Row::headline)
        .sorted(Comparator.comparingInt(r -> ORDER.indexOf(r.verdict()))).toList();
  }

  private List<Comparison.Row> suspects() {
    return result.rows().stream().filter(r -> r.verdict() == Verdict.SUSPECT).toList();
  }

  /** The answer: one line per headline, then one per suspect row. */
  List<String> verdictLines() {
    List<String> out = new ArrayList<>();
    for (Comparison.Row r : headlines()) {
      String where = traced(r) ? " — where: " + result.where().get(r.key()).clause() : "";
      out.add(String.format(Locale.ROOT, "%-12s %s%s", r.verdict().toString().toUpperCase(Locale.ROOT), describe(r),
          where));
    }
    for (Comparison.Row r : suspects()) {
      out.add(String.format(Locale.ROOT, "%-12s %s (q %.3f; does not gate)", "suspect", describe(r), r.q()));
    }
    return out;
  }

  /**
   * Whether a headline's line says where its change lives: when it changed or is undecided, a row
   * of its workload was flagged, or a layer changed beneath a headline that did not (a statement
   * 25 times slower in a mix whose tpmC held).
   */
  private boolean traced(Comparison.Row headline) {
    Where.Workload where = result.where().get(headline.key());
    return where != null && (headline.verdict() != Verdict.NO_CHANGE && headline.verdict() != Verdict.NOT_COMPARABLE
        || where.named() || suspects().stream().anyMatch(s -> s.key().equals(headline.key())));
  }

  /** The "where" section: per workload, its layers' rows, statements ranked by their share of the change, plan changes. */
  String whereMarkdown() {
    StringBuilder s = new StringBuilder();
    for (Map.Entry<String, Where.Workload> e : result.where().entrySet()) {
      Where.Workload w = e.getValue();
      s.append("### Where: ").append(e.getKey()).append("\n\n").append(w.clause()).append("\n\n");
      s.append("| layer | item | metric | baseline | candidate | change | interval | share of change | finding |\n"
          + "|---|---|---|---:|---:|---:|---|---:|---|\n");
      for (Where.Layer l : w.layers()) {
        s.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", l.layer(),
            l.item().replace("|", "\\|"), l.metric(), number(l.change().baseline()),
            number(l.change().candidate()), change(l.change()), interval(l.change()), share(l), l.finding()));
      }
      for (Where.PlanChange p : w.plans()) {
        s.append('\n').append(planHeading(p)).append(": `").append(p.statement()).append("`\n\n    baseline:  ")
            .append(p.baseline()).append("\n    candidate: ").append(p.candidate()).append('\n');
      }
      if (w.plansNote() != null) {
        s.append('\n').append(w.plansNote()).append('\n');
      }
      s.append('\n');
    }
    return s.toString();
  }

  /**
   * "Plan changed", or "Plan changed, time unchanged" for a plan that flipped while its statement
   * took as long (the tables' statistics moved between runs): shown, never a cause.
   */
  private static String planHeading(Where.PlanChange p) {
    return p.timeMoved() ? "Plan changed" : "Plan changed, time unchanged";
  }

  private static String share(Where.Layer l) {
    return Double.isNaN(l.share()) ? "" : String.format(Locale.ROOT, "%.0f %%", 100 * l.share());
  }

  /** One line per workload whose latency rows were not tested, saying why. */
  List<String> notes() {
    Map<String, String> notes = new LinkedHashMap<>();
    for (Comparison.Row r : result.rows()) {
      if (r.verdict() == Verdict.NOT_COMPARABLE && !r.headline()) {
        notes.putIfAbsent(r.key(), "note: " + r.key() + " latency rows " + r.note());
      }
    }
    return List.copyOf(notes.values());
  }

  /** "ycsb/workloada throughput (ops/s) -12.3 % (95 % interval -18.0 % … -6.2 %; 5 rounds, paired)". */
  private String describe(Comparison.Row r) {
    Statistics.Change c = r.change();
    StringBuilder s = new StringBuilder(r.key()).append(r.operation().equals("ALL") ? "" : " " + r.operation())
        .append(' ').append(r.metric())
        .append(r.latency() && !r.origin().equals(PhaseResult.ACTUAL_START) ? " from the " + r.origin() : "")
        .append(' ').append(change(c));
    if (r.verdict() == Verdict.NOT_COMPARABLE) {
      return s.append(" (").append(r.note()).append(')').toString();
    }
    if (c.hasInterval() && r.verdict() == Verdict.NO_CHANGE) {
      double[] tost = c.intervalAt(2 * c.confidence() - 1);
      s.append(String.format(Locale.ROOT, " (within ±%s: %s interval %s, two one-sided tests; %s)",
          c.scale() == Statistics.Scale.RATIO ? threshold + " %" : Comparison.ERROR_MARGIN_PP + " pp",
          confidence(2 * c.confidence() - 1), interval(c.scale(), tost[0], tost[1]), runs(c)));
    } else if (c.hasInterval()) {
      s.append(" (").append(confidence(c.confidence())).append(" interval ").append(interval(c)).append("; ")
          .append(runs(c)).append(')');
    } else {
      s.append(" (").append(runs(c)).append(", no interval: ")
          .append(c.baselineRuns() == 1 && c.candidateRuns() == 1 ? "one run a side says nothing of how runs differ"
              : "a value of zero").append(')');
    }
    if (r.setAside() != null) {
      s.append("; set aside as disturbed, far from the others: ").append(r.setAside());
    }
    if (r.note() != null) {
      s.append("; ").append(r.note());
    }
    String single = whatDecidesSingleRuns(r, threshold);
    if (single != null) {
      s.append("; ").append(single);
    } else if (r.roundsToDecide() != null) {
      int now = (int) Math.ceil(c.effectiveRounds());
      double noisePct = Math.expm1(c.se() * Math.sqrt(c.effectiveRounds())) * 100;
      s.append(r.roundsToDecide() >= Comparison.MAX_ROUNDS
          ? String.format(Locale.ROOT, "; the noise seen (%.1f %% per round) would take more than %d rounds to "
              + "decide a %.1f %% change", noisePct, Comparison.MAX_ROUNDS, threshold)
          : String.format(Locale.ROOT, "; about %d more round%s (%d in all) would likely decide a %.1f %% change at "
              + "the noise seen (%.1f %% per round)", Math.max(1, r.roundsToDecide() - now),
              r.roundsToDecide() - now == 1 ? "" : "s", Math.max(r.roundsToDecide(), now + 1), threshold, noisePct));
    }
    return s.toString();
  }

  /**
   * What would decide an undecided headline of single runs — one run a side, or one run against
   * its history — where more rounds are not the answer; null for any other row.
   */
  static String whatDecidesSingleRuns(Comparison.Row r, double threshold) {
    Statistics.Change c = r.change();
    if (r.roundsToDecide() == null) {
      return null;
    }
    return RunsToDecide.runsUnknown(c) ? undecidedSingleRuns(c, r.roundsToDecide(), threshold)
        : RunsToDecide.oneAgainstSeveral(c) ? undecidedAgainstSeveral(c, r.roundsToDecide(), threshold) : null;
  }

  /**
   * What would decide a comparison of one run a side: "at least 2 more runs a side, or a history
   * of 6 runs of this key, would decide a 5.0 % change (runs differ at least by their own seconds'
   * 1.2 %)"; at least, since runs differ by more than their own seconds say.
   */
  static String undecidedSingleRuns(Statistics.Change c, int runsInAll, double threshold) {
    int history = RunsToDecide.history(c, threshold, Comparison.MAX_ROUNDS);
    if (c.se() == 0) {
      return String.format(Locale.ROOT, "at least %d more runs a side, or a history of at least %d runs of this key, "
          + "would decide (these runs are too short to say how noisy they are)", Statistics.FLOORLESS - 1, history);
    }
    double perRunPct = Math.expm1(c.se() / Math.sqrt(2)) * 100;
    if (runsInAll >= Comparison.MAX_ROUNDS) {
      return String.format(Locale.ROOT, "runs that vary by their own seconds' %.1f %% alone would take more than %d "
          + "a side to decide a %.1f %% change", perRunPct, Comparison.MAX_ROUNDS, threshold);
    }
    int more = Math.max(1, runsInAll - 1);
    return String.format(Locale.ROOT, "at least %d more run%s a side%s would decide a %.1f %% change (runs differ "
            + "at least by their own seconds' %.1f %%)", more, more == 1 ? "" : "s",
        history >= Comparison.MAX_ROUNDS ? "" : ", or a history of " + history + " runs of this key", threshold,
        perRunPct);
  }

  /**
   * What would decide one run judged against several (its history): "against these 8 runs one run
   * is decided beyond −11.8 % or +13.4 % (they differ by 5.1 %); about 3 runs of the candidate
   * would likely decide a 5.0 % change".
   */
  static String undecidedAgainstSeveral(Statistics.Change c, int candidateRuns, double threshold) {
    int n = c.baselineRuns();
    double[] beyond = RunsToDecide.decidedBeyond(c);
    double spreadPct = Math.expm1(c.se() / Math.sqrt(1 + 1.0 / n)) * 100;
    String then = candidateRuns >= Comparison.MAX_ROUNDS
        ? String.format(Locale.ROOT, "no number of candidate runs would decide a %.1f %% change against them: more "
            + "runs in the history, or steadier ones, would", threshold)
        : String.format(Locale.ROOT, "about %d runs of the candidate would likely decide a %.1f %% change",
            candidateRuns, threshold);
    return String.format(Locale.ROOT, "against these %d runs one run is decided beyond %+.1f %% or %+.1f %% (they "
        + "differ by %.1f %%); %s", n, beyond[0], beyond[1], spreadPct, then);
  }

  private static String runs(Statistics.Change c) {
    if (c.paired()) {
      return c.baselineRuns() + " rounds, paired";
    }
    return c.baselineRuns() == c.candidateRuns() ? c.baselineRuns() + " run" + (c.baselineRuns() == 1 ? "" : "s")
        + " a side" : c.baselineRuns() + " vs " + c.candidateRuns() + " runs";
  }

  private static String confidence(double level) {
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

  private static String interval(Statistics.Change c) {
    return c.hasInterval() ? interval(c.scale(), c.low(), c.high()) : "—";
  }

  private static String interval(Statistics.Scale scale, double low, double high) {
    return scale == Statistics.Scale.RATIO ? String.format(Locale.ROOT, "%+.1f %% … %+.1f %%", low, high)
        : String.format(Locale.ROOT, "%+.2f … %+.2f pp", low, high);
  }

  private static String number(double v) {
    return Double.isNaN(v) ? "—" : Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.2f", v);
  }

  /** The metric, and for latency from when it was measured: "p99 (µs), from actual start". */
  private static String metricCell(Comparison.Row r) {
    return r.latency() ? r.metric() + ", from " + r.origin() : r.metric();
  }

  private static String verdictCell(Comparison.Row r) {
    return r.verdict() == Verdict.REGRESSION ? "**regression**" : r.verdict().toString();
  }

  String markdownTable() {
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

  static String sideLabel(Side side) {
    return side.name() + " (" + side.runs().get(0).serverLabel() + ", " + side.directories() + " run"
        + (side.directories() == 1 ? "" : "s") + ")";
  }

  private String method() {
    return "★ marks the headline rows, which decide the exit code (throughput; tpmC for TPC-C"
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
  String write(Path dir, Runnable checkpoint) throws IOException {
    String header = "Baseline: " + sideLabel(baseline) + "  \nCandidate: " + sideLabel(candidate) + "  \n";
    StringBuilder md = new StringBuilder("# ybbench comparison\n\n").append(header).append('\n');
    verdictLines().forEach(l -> md.append("    ").append(l).append('\n'));
    notes().forEach(n -> md.append('\n').append(n).append('\n'));
    result.warnings().forEach(w -> md.append("\nwarning: ").append(w).append('\n'));
    md.append('\n').append(markdownTable()).append("\n\n").append(whereMarkdown()).append(method()).append('\n');
    Files.writeString(dir.resolve("report.md"), md.toString());
    RunDirectory.JSON.writeValue(dir.resolve("comparison.json").toFile(), json());
    List<String> charts = new ArrayList<>();
    String warning = new ReportCharts(baseline, candidate, result).draw(dir, charts, checkpoint);
    Files.writeString(dir.resolve("report.html"), html(warning == null ? charts : List.of(), warning));
    return warning;
  }

  /** The rows as data, for scripts and for later series; NaN becomes null. */
  private Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("baseline", baseline.name());
    m.put("candidate", candidate.name());
    m.put("threshold_pct", threshold);
    m.put("gate", gate);
    m.put("warnings", result.warnings());
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Comparison.Row r : result.rows()) {
      Statistics.Change c = r.change();
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("bench", r.bench());
      row.put("workload", r.workload());
      row.put("operation", r.operation());
      row.put("metric", r.metric());
      row.put("headline", r.headline());
      row.put("scale", c.scale() == Statistics.Scale.RATIO ? "ratio_pct" : "difference");
      row.put("baseline", finite(c.baseline()));
      row.put("candidate", finite(c.candidate()));
      row.put("change", finite(c.change()));
      row.put("low", finite(c.low()));
      row.put("high", finite(c.high()));
      row.put("confidence", c.confidence());
      row.put("p", finite(c.p()));
      row.put("q", finite(r.q()));
      row.put("verdict", r.verdict().toString());
      row.put("baseline_runs", c.baselineRuns());
      row.put("candidate_runs", c.candidateRuns());
      row.put("paired", c.paired());
      row.put("rounds_to_decide", r.roundsToDecide());
      row.put("set_aside", r.setAside());
      row.put("latency_from", r.origin());
      row.put("note", r.note());
      rows.add(row);
    }
    m.put("rows", rows);
    Map<String, Object> where = new LinkedHashMap<>();
    result.where().forEach((key, w) -> {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("clause", w.clause());
      List<Map<String, Object>> layers = new ArrayList<>();
      for (Where.Layer l : w.layers()) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("layer", l.layer());
        row.put("item", l.item());
        row.put("metric", l.metric());
        row.put("baseline", finite(l.change().baseline()));
        row.put("candidate", finite(l.change().candidate()));
        row.put("change", finite(l.change().change()));
        row.put("low", finite(l.change().low()));
        row.put("high", finite(l.change().high()));
        row.put("q", finite(l.q()));
        row.put("share_of_change", finite(l.share()));
        row.put("finding", l.finding().toString());
        layers.add(row);
      }
      o.put("layers", layers);
      o.put("plan_changes", w.plans().stream().map(pc -> {
        Map<String, Object> change = new LinkedHashMap<>();
        change.put("statement", pc.statement());
        change.put("baseline", pc.baseline());
        change.put("candidate", pc.candidate());
        change.put("time_moved", pc.timeMoved());
        change.put("share_of_change", finite(pc.share()));
        return change;
      }).toList());
      o.put("plans_note", w.plansNote());
      where.put(key, o);
    });
    m.put("where", where);
    return m;
  }

  private static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }

  private String html(List<String> charts, String chartsWarning) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        + "<title>ybbench comparison</title><style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
        + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
        + "td:nth-child(-n+3),th{text-align:left}.regression,.suspect{background:#fdd}.improvement{background:#dfd}"
        + ".inconclusive{background:#ffd}.not-comparable{color:#777}ul.answer li{margin:4px 0;font-family:monospace}</style></head><body>\n");
    h.append("<h1>").append(esc(baseline.name())).append(" → ").append(esc(candidate.name())).append("</h1>\n");
    h.append("<p>Baseline: <b>").append(esc(sideLabel(baseline))).append("</b><br>Candidate: <b>")
        .append(esc(sideLabel(candidate))).append("</b></p>\n<ul class=\"answer\">\n");
    List<Comparison.Row> answer = new ArrayList<>(headlines());
    answer.addAll(suspects());
    List<String> lines = verdictLines();
    for (int i = 0; i < lines.size(); i++) {
      h.append("<li class=\"").append(cssClass(answer.get(i))).append("\">").append(esc(lines.get(i)))
          .append("</li>\n");
    }
    h.append("</ul>\n");
    for (String n : notes()) {
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
    for (Map.Entry<String, Where.Workload> e : result.where().entrySet()) {
      Where.Workload w = e.getValue();
      h.append("<h2>Where: ").append(esc(e.getKey())).append("</h2>\n<p class=\"where\">").append(esc(w.clause()))
          .append("</p>\n<table><tr><th>layer</th><th>item</th><th>metric</th><th>baseline</th><th>candidate</th>"
              + "<th>change</th><th>interval</th><th>share of change</th><th>finding</th></tr>\n");
      for (Where.Layer l : w.layers()) {
        h.append("<tr class=\"").append(l.finding() == Where.Finding.WORSE ? "suspect" : "").append("\"><td>")
            .append(esc(l.layer())).append("</td><td>").append(esc(Where.abbreviate(l.item()))).append("</td><td>")
            .append(esc(l.metric())).append("</td><td>").append(number(l.change().baseline())).append("</td><td>")
            .append(number(l.change().candidate())).append("</td><td>").append(esc(change(l.change())))
            .append("</td><td>").append(esc(interval(l.change()))).append("</td><td>").append(share(l))
            .append("</td><td>").append(l.finding()).append("</td></tr>\n");
      }
      h.append("</table>\n");
      for (Where.PlanChange p : w.plans()) {
        h.append("<p>").append(planHeading(p)).append(": <code>").append(esc(p.statement()))
            .append("</code></p>\n<pre>baseline:  ").append(esc(p.baseline())).append("\ncandidate: ")
            .append(esc(p.candidate())).append("</pre>\n");
      }
      if (w.plansNote() != null) {
        h.append("<p>").append(esc(w.plansNote())).append("</p>\n");
      }
    }
    if (!charts.isEmpty()) {
      h.append("<h2>Charts</h2>\n");
      for (String chart : charts) {
        h.append("<p><img src=\"").append(chart).append("\" alt=\"").append(chart).append("\"></p>\n");
      }
    } else if (chartsWarning != null) {
      h.append("<p>No charts: ").append(esc(chartsWarning)).append("</p>\n");
    }
    h.append("<details><summary>Method, parameters and environment</summary>\n<p>").append(esc(method()))
        .append("</p>\n");
    for (Side s : List.of(baseline, candidate)) {
      Side.Run first = s.runs().get(0);
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
