package dev.ybbench.analysis.where;

import static dev.ybbench.analysis.where.LayerComparison.CLIENT_BUSY;
import static dev.ybbench.analysis.where.LayerComparison.CLIENT_CPU;
import static dev.ybbench.analysis.where.LayerComparison.RETRIES;
import static dev.ybbench.analysis.where.LayerComparison.SERVER_P99;
import static dev.ybbench.analysis.where.LayerComparison.SERVER_TIME;
import static dev.ybbench.analysis.where.LayerComparison.STATEMENT_MEAN;
import static dev.ybbench.analysis.where.LayerComparison.STATEMENT_TIME;

import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.harness.results.NodeRates;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * What {@link LayerComparison} compares, read from each run: the server's time and CPU per operation, each
 * statement's time, calls, rows and blocks, each node's latency, the client's CPU and busy share,
 * and retries, errors and aborts by class; and why a run's server view left a part out.
 */
public final class WhereMeasures {
  private WhereMeasures() {}

  /** A metric's value in one run, or null when the run did not record it. */
  record Measure(String layer, String item, String metric, Statistics.Scale scale,
      Function<RunGroup.Run, Double> value) {}

  /** What "per op" divides by in a run's compared phase ({@link PhaseResult#unitsOfWork}); null when none. */
  static Double ops(RunGroup.Run r) {
    long n = r.phase().unitsOfWork();
    return n > 0 ? (double) n : null;
  }

  static Double perOp(RunGroup.Run r, Double total) {
    Double n = ops(r);
    return total == null || n == null ? null : total / n;
  }

  static PhaseResult.ServerSide server(RunGroup.Run r) {
    return r.phase().server();
  }

  static List<PhaseResult.Statement> statements(RunGroup.Run r) {
    PhaseResult.ServerSide s = server(r);
    return s == null || s.statements() == null ? List.of() : s.statements();
  }

  static PhaseResult.Statement statement(RunGroup.Run r, String query) {
    return statements(r).stream().filter(s -> s.query().equals(query)).findFirst().orElse(null);
  }

  static List<Measure> measures(List<RunGroup.Run> b, List<RunGroup.Run> c) {
    List<RunGroup.Run> all = LayerComparison.all(b, c);
    List<Measure> m = new ArrayList<>();
    Statistics.Scale ratio = Statistics.Scale.RATIO;
    Statistics.Scale pp = Statistics.Scale.DIFFERENCE;
    m.add(new Measure("server", "", SERVER_TIME, ratio, r -> statements(r).isEmpty() ? null
        : perOp(r, 1000 * statements(r).stream().mapToDouble(PhaseResult.Statement::timeMs).sum())));
    m.add(new Measure("server", "", "server CPU per op (µs)", ratio, r -> server(r) == null
        || server(r).serverCpuS() == null ? null : perOp(r, 1e6 * server(r).serverCpuS())));
    Set<String> queries = new TreeSet<>();
    all.forEach(r -> statements(r).forEach(s -> queries.add(s.query())));
    for (String q : queries) {
      m.add(ofStatement(q, STATEMENT_TIME, (r, s) -> perOp(r, 1000 * s.timeMs())));
      m.add(ofStatement(q, STATEMENT_MEAN, (r, s) -> s.meanUs()));
      m.add(ofStatement(q, "calls per op", (r, s) -> perOp(r, (double) s.calls())));
      m.add(ofStatement(q, "rows per call", (r, s) -> s.calls() == 0 ? null : (double) s.rows() / s.calls()));
      m.add(ofStatement(q, "blocks per call", (r, s) -> s.blksHit() == null || s.blksRead() == null
          || s.calls() == 0 ? null : (double) (s.blksHit() + s.blksRead()) / s.calls()));
      // The server's own percentile, where it keeps each statement's latency in buckets (YugabyteDB).
      m.add(ofStatement(q, SERVER_P99, (r, s) -> s.p99Us()));
    }
    Set<String> nodes = new TreeSet<>();
    all.forEach(r -> {
      if (server(r) != null && server(r).nodes() != null && server(r).nodes().size() > 1) {
        server(r).nodes().forEach(n -> nodes.add(n.node()));
      }
    });
    for (String node : nodes) {
      m.add(new Measure("node", node, "read mean (µs)", ratio, r -> node(r, node, NodeRates::readMeanUs)));
      m.add(new Measure("node", node, "write mean (µs)", ratio, r -> node(r, node, NodeRates::writeMeanUs)));
    }
    m.add(new Measure("client", "", CLIENT_CPU, ratio, r -> r.phase().client() == null ? null
        : r.phase().client().cpuUsPerOp()));
    m.add(new Measure("client", "", CLIENT_BUSY, ratio, r -> r.phase().client() == null ? null
        : r.phase().client().busyPct()));
    m.add(new Measure("conflicts", "", RETRIES, pp, r -> {
      Double n = ops(r);
      return n == null ? null : 100.0 * r.phase().retries() / n;
    }));
    Set<String> retried = new TreeSet<>();
    all.forEach(r -> r.phase().operations().values().forEach(o -> {
      if (o.retriesByClass() != null) {
        retried.addAll(o.retriesByClass().keySet());
      }
    }));
    for (String cls : retried) {
      m.add(new Measure("conflicts", "", "retries " + cls + " (% of ops)", pp, r -> {
        Double n = ops(r);
        long retries = r.phase().operations().values().stream().filter(o -> o.retriesByClass() != null)
            .mapToLong(o -> o.retriesByClass().getOrDefault(cls, 0L)).sum();
        return n == null ? null : 100.0 * retries / n;
      }));
    }
    Set<String> classes = new TreeSet<>();
    all.forEach(r -> r.phase().operations().values().forEach(o -> classes.addAll(o.errorsByClass().keySet())));
    for (String cls : classes) {
      m.add(new Measure("conflicts", "", "errors " + cls + " (% of ops)", pp, r -> share(r,
          o -> o.errorsByClass().getOrDefault(cls, 0L))));
    }
    Set<String> aborted = new TreeSet<>();
    all.forEach(r -> r.phase().operations().values().stream().filter(o -> o.abortsByClass() != null)
        .forEach(o -> aborted.addAll(o.abortsByClass().keySet())));
    for (String cls : aborted) {
      m.add(new Measure("conflicts", "", "aborts " + cls + " (% of ops)", pp, r -> share(r,
          o -> o.abortsByClass() == null ? 0L : o.abortsByClass().getOrDefault(cls, 0L))));
    }
    return m;
  }

  /** The metric of a wait event's share of a statement's samples: "wait Lock:transactionid (% of samples)". */
  static String waitMetric(String event) {
    return WAIT_PREFIX + event + WAIT_SUFFIX;
  }

  static final String WAIT_PREFIX = "wait ";
  static final String WAIT_SUFFIX = " (% of samples)";
  static final String PER_CALL = " per call";
  static final String EXECUTED_ROWS = "rows scanned by its executed plan" + PER_CALL;

  /**
   * What lies beneath statement {@code query}'s time per call: each wait event's share of its
   * samples (percentage points), and each counter of its work per call (a counter a run kept no
   * entry for did nothing in it: 0) — as the runs that ran it recorded them.
   */
  static List<Measure> beneath(String query, List<RunGroup.Run> b, List<RunGroup.Run> c) {
    Set<String> events = new TreeSet<>();
    Set<String> counters = new TreeSet<>();
    for (RunGroup.Run r : LayerComparison.all(b, c)) {
      PhaseResult.Statement s = statement(r, query);
      if (s != null && s.waits() != null) {
        events.addAll(s.waits().keySet());
      }
      if (s != null && s.workPerCall() != null) {
        counters.addAll(s.workPerCall().keySet());
      }
    }
    List<Measure> m = new ArrayList<>();
    for (String e : events) {
      m.add(new Measure("statement", query, waitMetric(e), Statistics.Scale.DIFFERENCE, r -> {
        PhaseResult.Statement s = statement(r, query);
        return s == null || s.waitSamples() <= 0 ? null : 100 * s.waits().getOrDefault(e, 0.0) / s.waitSamples();
      }));
    }
    for (String k : counters) {
      m.add(ofStatement(query, k + PER_CALL, (r, s) -> s.workPerCall() == null ? null
          : s.workPerCall().getOrDefault(k, 0.0)));
    }
    // The one execution EXPLAIN ANALYZE ran after the phase, with a parameter set the run bound.
    m.add(new Measure("statement", query, EXECUTED_ROWS, Statistics.Scale.RATIO,
        r -> WherePlans.rowsScanned(r, query)));
    return m;
  }

  /** What {@code count} counts over the phase's operations, in % of those that ended. */
  static Double share(RunGroup.Run r, ToLongFunction<OperationResult> count) {
    long n = r.phase().operations().values().stream().mapToLong(count).sum();
    long ended = r.phase().successes() + r.phase().errors() + r.phase().aborts();
    return ended == 0 ? null : 100.0 * n / ended;
  }

  /** A metric of statement {@code query} in each run that ran it. */
  static Measure ofStatement(String query, String metric,
      BiFunction<RunGroup.Run, PhaseResult.Statement, Double> value) {
    return new Measure("statement", query, metric, Statistics.Scale.RATIO, r -> {
      PhaseResult.Statement s = statement(r, query);
      return s == null ? null : value.apply(r, s);
    });
  }

  static Double node(RunGroup.Run r, String node, Function<NodeRates, Double> value) {
    if (server(r) == null || server(r).nodes() == null) {
      return null;
    }
    return server(r).nodes().stream().filter(n -> n.node().equals(node)).map(value).filter(Objects::nonNull)
        .findFirst().orElse(null);
  }

  /** Why a side's runs did not record {@code part} of the server's view (the first that says), or null. */
  static String unavailable(List<RunGroup.Run> runs, String part) {
    return runs.stream().map(r -> server(r) == null ? null : server(r).unavailable(part)).filter(Objects::nonNull)
        .findFirst().orElse(null);
  }
}
