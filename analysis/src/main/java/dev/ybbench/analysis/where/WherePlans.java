package dev.ybbench.analysis.where;

import static dev.ybbench.analysis.where.LayerComparison.SERVER_P99;
import static dev.ybbench.analysis.where.LayerComparison.STATEMENT_MEAN;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.analysis.compare.RunMatching;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.where.LayerComparison.Finding;
import dev.ybbench.analysis.where.LayerComparison.Layer;
import dev.ybbench.analysis.where.LayerComparison.PlanChange;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.server.ServerView;
import dev.ybbench.harness.server.StatementPlans;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each statement's plan shape compared between the sides ({@link StatementPlans}, plans.json):
 * which plans changed, whether their statement's time moved with them, and why a side has none.
 */
public final class WherePlans {
  private WherePlans() {}

  /**
   * Each side's plan shape per statement: the one most of its runs had (the latest run's among
   * equals). A plan can move between one side's runs as autovacuum analyzes a table the runs
   * changed; the first run's alone would then stand for a side whose other runs planned otherwise.
   * With {@code executed}, of the plans that ran (EXPLAIN ANALYZE with a parameter set the run
   * bound), else of the generic plans.
   */
  static Map<String, String> shapes(List<RunGroup.Run> runs, boolean executed) {
    Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();
    for (RunGroup.Run r : RunMatching.byStart(runs)) {
      JsonNode phase = plans(r);
      phase.forEach(statement -> {
        JsonNode p = executed ? statement.path("executed") : statement;
        if (p.hasNonNull("shape")) {
          Map<String, Integer> of = counts.computeIfAbsent(statement.get("statement").asText(),
              k -> new LinkedHashMap<>());
          String shape = p.get("shape").asText();
            int n = of.getOrDefault(shape, 0) + 1;
          of.remove(shape); // re-inserted last: the latest run's shape wins a tie
          of.put(shape, n);
        }
      });
    }
    Map<String, String> out = new LinkedHashMap<>();
    counts.forEach((statement, of) -> {
      String best = null;
      int most = 0;
      for (Map.Entry<String, Integer> e : of.entrySet()) {
        if (e.getValue() >= most) {
          best = e.getKey();
          most = e.getValue();
        }
      }
      out.put(statement, best);
    });
    return out;
  }

  /** A run's plans of its compared phase (plans.json), or an empty node: a run without plans, which a note names. */
  static JsonNode plans(RunGroup.Run r) {
    Path f = r.dir().resolve(StatementPlans.FILE);
    if (!Files.isRegularFile(f)) {
      return RunDirectory.JSON.missingNode();
    }
    try {
      return RunDirectory.JSON.readTree(f.toFile()).path("phases").path(r.phaseName());
    } catch (IOException e) {
      return RunDirectory.JSON.missingNode(); // unreadable: a run without plans
    }
  }

  /**
   * The shapes compare holds against each other: a statement's executed plans where both sides
   * ran one, else its generic plans. An executed plan is planned for the values it was given, a
   * generic one for any; a side of each would differ by how they were made.
   */
  static Shapes compared(List<RunGroup.Run> b, List<RunGroup.Run> c) {
    Map<String, String> sb = shapes(b, false);
    Map<String, String> sc = shapes(c, false);
    Map<String, String> eb = shapes(b, true);
    Map<String, String> ec = shapes(c, true);
    eb.forEach((q, shape) -> {
      if (ec.containsKey(q)) {
        sb.put(q, shape);
        sc.put(q, ec.get(q));
      }
    });
    return new Shapes(sb, sc);
  }

  /** Each side's plan shape per statement. */
  record Shapes(Map<String, String> baseline, Map<String, String> candidate) {}

  /** The rows statement {@code query}'s executed plan scanned in run {@code r}; null without one. */
  static Double rowsScanned(RunGroup.Run r, String query) {
    for (JsonNode p : plans(r)) {
      if (p.path("statement").asText().equals(query) && p.path("executed").hasNonNull("rows_scanned")) {
        return p.path("executed").get("rows_scanned").asDouble();
      }
    }
    return null;
  }

  /**
   * The statements whose plan changed, the most of the server's change first, each saying
   * whether its statement's time moved with it: detectably (the time of one execution — its mean,
   * or the server's p99 of it — worse or better), or by the threshold where one run a side leaves
   * it untested. Not its time per operation: that moves with how often the mix calls it (a
   * Delivery more or less per second), whatever the plan. A statement whose time the server did
   * not record keeps its plan change as a cause: nothing says it did not matter.
   */
  static List<PlanChange> planChanges(Map<String, String> changed, Map<String, String> candidate,
      List<Layer> layers, double thresholdPct) {
    List<PlanChange> out = new ArrayList<>();
    changed.forEach((q, shape) -> {
      List<Layer> perExecution = layers.stream().filter(l -> l.layer().equals("statement") && l.item().equals(q)
          && (l.metric().equals(STATEMENT_MEAN) || l.metric().equals(SERVER_P99))).toList();
      boolean moved = perExecution.isEmpty() || perExecution.stream().anyMatch(l -> l.finding() == Finding.WORSE
          || l.finding() == Finding.BETTER || l.finding() == Finding.UNTESTED
          && Math.abs(l.change().change()) >= thresholdPct);
      double share = layers.stream().filter(l -> l.layer().equals("statement") && l.item().equals(q)
          && !Double.isNaN(l.share())).mapToDouble(Layer::share).findFirst().orElse(Double.NaN);
      out.add(new PlanChange(q, shape, candidate.get(q), moved, share));
    });
    out.sort(Comparator.comparing((PlanChange p) -> !p.timeMoved())
        .thenComparingDouble(p -> Double.isNaN(p.share()) ? 0 : -Math.abs(p.share())).thenComparing(PlanChange::statement));
    return out;
  }

  /** Why there are no plans to compare, or null when both sides have them. */
  static String plansNote(List<RunGroup.Run> b, List<RunGroup.Run> c, Map<String, String> pb,
      Map<String, String> pc) {
    if (!pb.isEmpty() && !pc.isEmpty()) {
      return null;
    }
    // A YCQL run records where it connected as ycql.hosts.
    if (b.get(0).info().path("parameters").has("ycql.hosts")) {
      return "YCQL has no plans";
    }
    boolean baseline = pb.isEmpty();
    String why = WhereMeasures.unavailable(baseline ? b : c, ServerView.PLANS);
    return "plans not compared: " + (baseline ? "the baseline" : "the candidate") + " recorded none ("
        + (why != null ? why : "plans.json") + ")";
  }

  /** The statements whose plan shape differs between the sides, with the baseline's shape. */
  static Map<String, String> changed(Map<String, String> baseline, Map<String, String> candidate) {
    Map<String, String> changed = new LinkedHashMap<>();
    baseline.forEach((q, shape) -> {
      String other = candidate.get(q);
      if (other != null && !StatementPlans.fingerprint(other).equals(StatementPlans.fingerprint(shape))) {
        changed.put(q, shape);
      }
    });
    return changed;
  }
}
