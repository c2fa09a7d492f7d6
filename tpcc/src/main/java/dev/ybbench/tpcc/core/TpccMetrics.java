package dev.ybbench.tpcc.core;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationMetrics;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.run.StatusLine;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.config.TransactionSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * TPC-C's own numbers from a measurement window: tpmC, efficiency and the response-time limits
 * of clause 5.2.5.7, named by their clauses (as CockroachDB's workload does).
 */
public final class TpccMetrics {
  /** Clause 4.2: the most New-Orders a warehouse can complete per minute with its 10 terminals. */
  public static final double SPEC_WAREHOUSE_FACTOR = 12.86;

  private TpccMetrics() {}

  /**
   * New-Orders completed per minute of the measurement window. The 1 % rolled back by design
   * (an unused item) are completed transactions too and count (clause 5.4.2), but are shown apart.
   */
  public static double tpmC(Metrics m, double seconds) {
    // Read, not created: a work without New-Orders (a single-type work) must not list them.
    long completed = m.operations().stream().filter(op -> op.name().equals(TransactionSpec.NEW_ORDER.benchbaseName())
        || op.name().equals(TransactionSpec.NEW_ORDER_ROLLBACK)).mapToLong(OperationMetrics::successes).sum();
    return completed * 60.0 / seconds;
  }

  /** The same from a phase's results (an imported run's). */
  public static double tpmC(Map<String, OperationResult> ops, double seconds) {
    long completed = 0;
    for (String name : List.of(TransactionSpec.NEW_ORDER.benchbaseName(), TransactionSpec.NEW_ORDER_ROLLBACK)) {
      completed += ops.containsKey(name) ? ops.get(name).successes() : 0;
    }
    return completed * 60.0 / seconds;
  }

  /** tpmC as a percentage of the theoretical maximum for {@code warehouses}. */
  public static double efficiency(double tpmC, int warehouses) {
    return 100.0 * tpmC / (SPEC_WAREHOUSE_FACTOR * warehouses);
  }

  /**
   * Per type that ran, in the spec's order: the p90 in seconds against clause 5.2.5.3's limit;
   * for a deferred Delivery, from its queueing to its end against clause 2.7.2's 80 s.
   */
  public static Map<String, TpccFigures.ResponseTimeLimit> responseTimeLimits(Map<String, Histogram> latency,
      boolean deferredDelivery) {
    Map<String, TpccFigures.ResponseTimeLimit> out = new LinkedHashMap<>();
    for (TransactionSpec k : TransactionSpec.values()) {
      Histogram h = latency.get(k.benchbaseName());
      if (h == null || h.getTotalCount() == 0) {
        continue;  // a type its work did not run has no response time to judge
      }
      double p90 = h.getValueAtPercentile(90) / 1e6;
      double limit = deferredDelivery && k == TransactionSpec.DELIVERY ? TransactionSpec.DEFERRED_DELIVERY_LIMIT_SECONDS
          : k.p90LimitSeconds();
      out.put(k.benchbaseName(), new TpccFigures.ResponseTimeLimit(Math.round(p90 * 1000) / 1000.0, limit,
          p90 <= limit));
    }
    return out;
  }

  /**
   * "Waits (mean s): NewOrder keying 18.000 think 12.041 connection 0.002, …", or nothing when no
   * terminal keyed, thought or waited for a connection.
   */
  public static Optional<String> waitsLine(Map<String, TpccFigures.TerminalWaits> waits) {
    boolean any = waits.values().stream().anyMatch(w -> w.keyingS().max() > 0
        || (w.thinkS() != null && w.thinkS().max() > 0) || w.connectionWaitS().max() >= 0.001);
    if (!any) {
      return Optional.empty();
    }
    StringBuilder s = new StringBuilder("  waits, mean s (max):");
    waits.forEach((type, w) -> s.append(String.format(Locale.ROOT, " %s keying %.3f think %s connection %.3f (%.3f);",
        type, w.keyingS().mean(), w.thinkS() == null ? "-" : String.format(Locale.ROOT, "%.3f", w.thinkS().mean()),
        w.connectionWaitS().mean(), w.connectionWaitS().max())));
    s.setLength(s.length() - 1);
    return Optional.of(s.toString());
  }

  /** "tpmC 123.4 (NewOrder 2.1/s, Payment 2.0/s, …), errors 0, aborts 0, retries 0[, server unreachable for 5 s]". */
  public static String status(Metrics m, double seconds) {
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "tpmC %.1f (", tpmC(m, seconds)));
    boolean first = true;
    for (OperationMetrics op : m.operations()) {
      s.append(first ? "" : ", ").append(op.name())
          .append(String.format(Locale.ROOT, " %.1f/s", op.successes() / seconds));
      first = false;
    }
    return s.append(")").append(StatusLine.outcomes(m)).toString();
  }

  /**
   * The table across a config's works, one line each: its weights, transactions per second
   * (successes of every type), tpmC where New-Orders ran, and each type's p50/p90/p99 in ms —
   * for the throughput run, the YugabyteDB 2.1 post's table of the mix and each type alone.
   */
  public static List<String> worksTable(Map<String, PhaseResult> phases, List<TpccConfig.Work> works) {
    List<String> out = new ArrayList<>();
    out.add("Works (transactions/s of successes; tpmC where New-Orders ran; p50/p90/p99 ms per type):");
    int i = 0;
    for (Map.Entry<String, PhaseResult> e : phases.entrySet()) {
      PhaseResult p = e.getValue();
      StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "  %-10s %-16s %10.1f tx/s",
          e.getKey(), works.get(i++).weights().toString().replace(" ", ""), p.throughputOps()));
      boolean newOrders = p.operations().containsKey(TransactionSpec.NEW_ORDER.benchbaseName());
      Double tpmC = TpccFigures.of(p).tpmC();
      s.append(newOrders && tpmC != null ? String.format(Locale.ROOT, "  tpmC %10.1f", tpmC)
          : String.format("  %15s", ""));
      for (TransactionSpec k : TransactionSpec.values()) {
        OperationResult op = p.operations().get(k.benchbaseName());
        if (op != null && op.latencyUs() != null && op.latencyUs().count() > 0) {
          s.append(String.format(Locale.ROOT, "  %s %.1f/%.1f/%.1f", k.benchbaseName(),
              op.latencyUs().p50() / 1000.0, op.latencyUs().p90() / 1000.0, op.latencyUs().p99() / 1000.0));
        }
      }
      out.add(s.toString());
    }
    return out;
  }
}
