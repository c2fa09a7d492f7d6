package dev.ybbench.tpcc.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.results.Format2;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunSummary;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * TPC-C's own figures in summary.json, under its key "tpcc": a work's (tpmC, efficiency, the p90
 * limits, what completed after the window, the terminals' waits) and the run's (warehouses,
 * terminals, the consistency check). A work with New-Orders names tpmC as its headline and
 * efficiency, where it means something, as a figure compared beside it.
 */
public final class TpccFigures {
  /** Where summary.json keeps them. */
  public static final String KEY = "tpcc";
  /** tpmC counts New-Orders, those rolled back by design included (clause 5.4.2). */
  public static final List<String> NEW_ORDERS = List.of("NewOrder", "NewOrderRollback");

  private TpccFigures() {}

  /**
   * A work's figures.
   *
   * @param efficiencyPct null without the spec's keying and think times, where efficiency means nothing
   * @param afterWindow   transactions in flight at the window's edge that completed after it
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Work(@JsonProperty("tpmC") Double tpmC, Double efficiencyPct,
      Map<String, ResponseTimeLimit> responseTimeLimits, Map<String, Long> afterWindow,
      Map<String, TerminalWaits> terminalWaits) {
    static final Work NONE = new Work(null, null, null, null, null);
  }

  /** The run's: warehouses and terminals, and clause 3.3.2's consistency conditions when they were checked. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Run(Integer warehouses, Integer terminals, Consistency consistency) {}

  /** Clause 3.3.2's consistency conditions after a TPC-C run. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Consistency(boolean allPass, Map<String, Condition> conditions) {}

  /** One condition: its statement, and when it fails, how many rows break it and the first offender. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Condition(String condition, boolean pass, Long violations, String first) {}

  /** Clause 5.2.5.3: a transaction type's 90th percentile against its limit. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ResponseTimeLimit(double p90S, double limitS, boolean pass) {}

  /**
   * A TPC-C transaction type's waits in its measured window: the keying time before it and the
   * think time after it (clause 5.2.5; the full disclosure report lists their minimum, mean and
   * maximum), and how long its submissions waited for a free connection.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record TerminalWaits(long transactions, Range keyingS, Range thinkS, Range connectionWaitS) {
    /** Both clients' waits together (a merge): extremes of both, means weighted by transactions. */
    public TerminalWaits plus(TerminalWaits o) {
      double wa = transactions;
      double wb = o.transactions;
      return new TerminalWaits(transactions + o.transactions, Range.plus(keyingS, wa, o.keyingS, wb),
          Range.plus(thinkS, wa, o.thinkS, wb), Range.plus(connectionWaitS, wa, o.connectionWaitS, wb));
    }

    /** Seconds, to the millisecond. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Range(double min, double mean, double max) {
      public Range {
        min = Math.round(min * 1000) / 1000.0;
        mean = Math.round(mean * 1000) / 1000.0;
        max = Math.round(max * 1000) / 1000.0;
      }

      static Range plus(Range a, double wa, Range b, double wb) {
        if (a == null || b == null) {
          return a == null ? b : a;
        }
        return new Range(Math.min(a.min, b.min), (a.mean * wa + b.mean * wb) / (wa + wb), Math.max(a.max, b.max));
      }
    }
  }

  /** A work's figures, or none where it has none (a load, another benchmark's phase). */
  public static Work of(PhaseResult p) {
    Work w = p.extension(KEY, Work.class);
    return w == null ? Work.NONE : w;
  }

  /** The run's figures, or null. */
  public static Run of(RunSummary s) {
    return s.extension(KEY, Run.class);
  }

  /**
   * The work with its figures: under "tpcc", and tpmC as its headline where it ran New-Orders
   * (a work of Payments alone has none), efficiency compared beside it where it means something.
   */
  public static PhaseResult with(PhaseResult p, Work w) {
    PhaseResult.Builder b = p.toBuilder().extension(KEY, w);
    boolean newOrders = p.operations() != null && p.operations().containsKey(NEW_ORDERS.get(0));
    if (w.tpmC() != null && newOrders) {
      double tpmC = PhaseResult.round(w.tpmC());
      b.headline(new PhaseResult.Figure("tpmC", "tpmC", tpmC, true, NEW_ORDERS));
    }
    List<PhaseResult.Figure> figures = new ArrayList<>();
    if (w.efficiencyPct() != null) {
      figures.add(new PhaseResult.Figure("efficiency", "%", w.efficiencyPct(), true, NEW_ORDERS));
    }
    return b.figures(figures).build();
  }

  /** The work's figures, rounded as summary.json keeps them. */
  public static Work work(double tpmC, Double efficiencyPct, Map<String, ResponseTimeLimit> limits,
      Map<String, Long> afterWindow, Map<String, TerminalWaits> waits) {
    return new Work(PhaseResult.round(tpmC), efficiencyPct == null ? null : Math.round(efficiencyPct * 100) / 100.0,
        limits, afterWindow == null || afterWindow.isEmpty() ? null : afterWindow,
        waits == null || waits.isEmpty() ? null : waits);
  }

  /** Format 2 kept TPC-C's figures among the common ones: they move under "tpcc" and into the headline. */
  public static void upgradeFormat2(ObjectNode summary) {
    ObjectNode run = summary.objectNode();
    for (String f : List.of("warehouses", "terminals", "consistency")) {
      Format2.move(summary, f, run, f);
    }
    if (!run.isEmpty()) {
      summary.set(KEY, run);
    }
    for (Iterator<Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>> it = summary.path("phases").fields();
        it.hasNext(); ) {
      if (!(it.next().getValue() instanceof ObjectNode phase)) {
        continue;
      }
      ObjectNode work = phase.objectNode();
      for (String f : List.of("tpmC", "efficiency_pct", "response_time_limits", "after_window", "terminal_waits")) {
        Format2.move(phase, f, work, f);
      }
      if (work.isEmpty()) {
        continue;
      }
      phase.set(KEY, work);
      boolean newOrders = phase.path("operations").has(NEW_ORDERS.get(0));
      if (work.has("tpmC") && newOrders) {
        phase.set("headline", figure("tpmC", "tpmC", work.get("tpmC").asDouble(), phase));
      }
      if (work.has("efficiency_pct")) {
        phase.putArray("figures").add(figure("efficiency", "%", work.get("efficiency_pct").asDouble(), phase));
      }
    }
  }

  private static ObjectNode figure(String metric, String unit, double value, ObjectNode near) {
    ObjectNode f = near.objectNode().put("metric", metric).put("unit", unit).put("value", value)
        .put("higher_is_better", true);
    NEW_ORDERS.forEach(f.putArray("operations")::add);
    return f;
  }
}
