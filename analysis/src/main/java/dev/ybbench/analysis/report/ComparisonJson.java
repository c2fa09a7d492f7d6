package dev.ybbench.analysis.report;

import dev.ybbench.analysis.compare.Comparison;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.analysis.where.LayerComparison;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** comparison.json: every row and each workload's where, as data for scripts and for later series. */
public final class ComparisonJson {
  private ComparisonJson() {}

  /** The document; NaN becomes null. */
  static Map<String, Object> of(RunGroup baseline, RunGroup candidate, Comparison.Result result,
      Map<String, LayerComparison.Workload> traced, double threshold,
      String gate) {
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
    traced.forEach((key, w) -> {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("clause", w.clause());
      List<Map<String, Object>> layers = new ArrayList<>();
      for (LayerComparison.Layer l : w.layers()) {
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
}
