package dev.ybbench.harness.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.results.NodeRates;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The server's own view of a run: counters read from the server before and after each phase, so
 * every run can audit its client-side counts against what the server says it executed.
 */
public interface ServerView {
  /** A server whose counters the harness cannot read (yet): nothing is recorded. */
  ServerView NONE = new ServerView() {
    @Override
    public Snapshot snapshot(Moment moment, Runnable counting) {
      return null;
    }

    @Override
    public String source() {
      return "not available";
    }
  };

  /**
   * The view of a YSQL target: YugabyteDB's nodes through their metrics endpoints (its
   * pg_stat_statements is kept per node, so one connection cannot see the cluster's statements),
   * PostgreSQL through its statistics views.
   *
   * @param serverPid    the postmaster's pid for an embedded PostgreSQL, else null (then looked for,
   *                     for a PostgreSQL on this machine: {@link LocalPostmaster})
   * @param metricsPorts YugabyteDB's metrics ports (null: 9000 and 13000; empty: none)
   */
  static ServerView forYsql(ServerInfo server, YsqlEndpoint endpoint, Long serverPid, List<Integer> metricsPorts,
      Consumer<String> log) {
    return server.isYugabyte()
        ? YugabyteView.of(endpoint.hosts(), metricsPorts, List.of(YugabyteView.TSERVER_PORT, YugabyteView.YSQL_PORT),
            log).withPlans(endpoint)
        : new PostgresView(endpoint, serverPid, log);
  }

  /**
   * What every node present in both snapshots did between them, in the later snapshot's order;
   * empty when either is null.
   */
  static List<NodeRates> nodeRates(Snapshot before, Snapshot after, double seconds) {
    List<NodeRates> out = new ArrayList<>();
    if (before == null || after == null || seconds <= 0) {
      return out;
    }
    for (Map.Entry<String, NodeCounters> e : after.nodes().entrySet()) {
      NodeCounters b = before.nodes().get(e.getKey());
      NodeCounters a = e.getValue();
      if (b != null) {
        out.add(NodeRates.of(e.getKey(), seconds, a.reads() - b.reads(), a.writes() - b.writes(),
            difference(b.readMicros(), a.readMicros()), difference(b.writeMicros(), a.writeMicros()),
            a.readP99Us(), a.writeP99Us(),
            a.cpuNanos() == null || b.cpuNanos() == null ? null : a.cpuNanos() - b.cpuNanos()));
      }
    }
    return out;
  }

  private static Double difference(Double before, Double after) {
    return before == null || after == null ? null : after - before;
  }

  /** When a snapshot is read: what the view waits for first differs. */
  enum Moment {
    /** A phase's measured window opens. */
    PHASE_START,
    /** A sample within the phase, for the server's timeseries. */
    DURING,
    /** The phase's sessions are closing: their last counters are to be waited for. */
    PHASE_END
  }

  /** The phase's wait profile ({@link WaitProfile}). */
  String WAITS = "waits";
  /** The statements' work counters, where they are read apart from the statements (YugabyteDB's nodes over SQL). */
  String WORK = "work";
  /** The part of a snapshot that holds the server's statements, as {@link Snapshot#unavailable} names it. */
  String STATEMENTS = "statements";
  /** The server's counters (pg_stat_database; a YugabyteDB node's metrics). */
  String COUNTERS = "counters";
  /** The phase's statements' plans (plans.json). */
  String PLANS = "plans";
  /** The audit of the harness's counts against the server's statements. */
  String AUDIT = "audit";

  /**
   * The server's cumulative counters at one moment.
   *
   * @param counters    named counters (e.g. pg_stat_database's xact_commit, tup_inserted)
   * @param statements  per statement text (or request kind and table): calls and rows, when the
   *                    server tracks them; what the audit counts
   * @param cpuNanos    the server processes' CPU time, when the server runs on this machine; else null
   * @param nodes       per node (by name, e.g. "10.0.0.1:9000"): what it served, for ops/s per node
   * @param unavailable the parts of the server's view that could not be read (e.g. {@link #STATEMENTS}),
   *                    each with why: an empty part is then not "nothing happened"
   * @param takenNanos  when it was read (System.nanoTime())
   * @param waits       at a phase's end, what its sessions waited on over the window; else null
   */
  record Snapshot(Map<String, Long> counters, Map<String, StatementCount> statements, Long cpuNanos,
      Map<String, NodeCounters> nodes, Map<String, String> unavailable, long takenNanos, WaitProfile waits) {
    public Snapshot(Map<String, Long> counters, Map<String, StatementCount> statements, Long cpuNanos,
        Map<String, NodeCounters> nodes, Map<String, String> unavailable) {
      this(counters, statements, cpuNanos, nodes, Map.copyOf(unavailable), System.nanoTime(), null);
    }

    public Snapshot withWaits(WaitProfile profile) {
      return new Snapshot(counters, statements, cpuNanos, nodes, unavailable, takenNanos, profile);
    }

    public Snapshot(Map<String, Long> counters, Map<String, StatementCount> statements, Long cpuNanos,
        Map<String, NodeCounters> nodes) {
      this(counters, statements, cpuNanos, nodes, Map.of());
    }
  }

  /**
   * One node's cumulative counters as the server keeps them. What counts as a read or a write is
   * the server's own unit (results/README.md): PostgreSQL's statements, a YugabyteDB tserver's
   * Read and Write RPCs, a Cassandra coordinator's read (and range) and write requests.
   *
   * @param readMicros  total server-side time of the reads, where the server sums it; else null
   * @param writeMicros the same for writes
   * @param readP99Us   the server's own recent p99 of reads, where it keeps percentiles instead of sums
   * @param writeP99Us  the same for writes
   * @param cpuNanos    CPU time of the node's processes, where known
   */
  record NodeCounters(long reads, long writes, Double readMicros, Double writeMicros, Double readP99Us,
      Double writeP99Us, Long cpuNanos) {}

  /**
   * One statement's cumulative calls and rows (pg_stat_statements), the server's time in it, the
   * shared blocks it found cached or read, every other counter of its work the server's view keeps
   * ({@code work}, by column: temp blocks and WAL records on PostgreSQL, storage requests, rows
   * scanned and retries on YugabyteDB), and its executions' latency in the server's own buckets
   * (YugabyteDB's {@code yb_latency_histogram}); each null where the server does not say.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record StatementCount(long calls, long rows, Double timeMs, Long blksHit, Long blksRead, Map<String, Double> work,
      LatencyBuckets latencyHistogram) {
    public StatementCount(long calls, long rows, Double timeMs) {
      this(calls, rows, timeMs, null, null, null, null);
    }

    /** Nothing yet: the starting point of a statement first seen at a phase's end. */
    static StatementCount none(StatementCount like) {
      return new StatementCount(0, 0, like.timeMs == null ? null : 0.0, like.blksHit == null ? null : 0L,
          like.blksRead == null ? null : 0L, like.work == null ? null : Map.of(),
          like.latencyHistogram == null ? null : LatencyBuckets.EMPTY);
    }

    /** The calls, rows, time, blocks, work and executions between {@code before} and this. */
    StatementCount minus(StatementCount before) {
      return new StatementCount(calls - before.calls, rows - before.rows,
          timeMs == null || before.timeMs == null ? null : Math.round((timeMs - before.timeMs) * 1000) / 1000.0,
          blksHit == null || before.blksHit == null ? null : blksHit - before.blksHit,
          blksRead == null || before.blksRead == null ? null : blksRead - before.blksRead,
          difference(work, before.work),
          latencyHistogram == null || before.latencyHistogram == null ? null
              : latencyHistogram.minus(before.latencyHistogram));
    }

    /** This and {@code other} together: the same statement's rows of several users, or of several nodes. */
    StatementCount plus(StatementCount other) {
      return new StatementCount(calls + other.calls, rows + other.rows,
          timeMs == null || other.timeMs == null ? null : timeMs + other.timeMs,
          blksHit == null || other.blksHit == null ? null : blksHit + other.blksHit,
          blksRead == null || other.blksRead == null ? null : blksRead + other.blksRead,
          sum(work, other.work),
          latencyHistogram == null || other.latencyHistogram == null ? null
              : latencyHistogram.plus(other.latencyHistogram));
    }

    /** Counter by counter, {@code a − b}: a counter {@code b} lacks was 0 (a statement first seen at a phase's end). */
    private static Map<String, Double> difference(Map<String, Double> a, Map<String, Double> b) {
      if (a == null || b == null) {
        return null;
      }
      Map<String, Double> out = new TreeMap<>();
      a.forEach((k, v) -> out.put(k, thousandths(v - b.getOrDefault(k, 0.0))));
      return out;
    }

    /** Counter by counter, {@code a + b}, over the counters both have: one side's alone is no sum. */
    private static Map<String, Double> sum(Map<String, Double> a, Map<String, Double> b) {
      if (a == null || b == null) {
        return null;
      }
      Map<String, Double> out = new TreeMap<>();
      a.forEach((k, v) -> {
        if (b.containsKey(k)) {
          out.put(k, thousandths(v + b.get(k)));
        }
      });
      return out;
    }

    /** Times are in ms: a thousandth keeps µs and drops floating-point dust. */
    private static double thousandths(double v) {
      return Math.round(v * 1000) / 1000.0;
    }
  }

  /**
   * The plans of the phase's statements ({@link StatementPlans}), or null where the server has none to
   * show (YCQL).
   *
   * @param phaseStatements the statements the phase ran, as {@link ServerReport#phase} found them
   */
  default StatementPlans.Explained plans(Map<String, StatementCount> phaseStatements) {
    return null;
  }

  /**
   * A sampler of what the phase's sessions wait on, looking every {@code intervalMillis} where the
   * harness does the sampling; null where the server's view has no wait events (YCQL).
   */
  default WaitSampler waits(long intervalMillis) {
    return null;
  }

  /**
   * Reads the counters now; null when unavailable.
   *
   * @param moment   at a phase's end, the view waits (briefly) until the phase's sessions have
   *                 closed and the server has counted what they reported
   * @param counting run once, just before the counts the audit reads are read (not at all when the
   *                 view reads none): a window that opens while the clients run opens then, so
   *                 that the client's count and the server's start at one instant
   */
  Snapshot snapshot(Moment moment, Runnable counting);

  /** {@link #snapshot(Moment, Runnable)} with nothing to do at the counting instant. */
  default Snapshot snapshot(Moment moment) {
    return snapshot(moment, () -> {});
  }

  /** Where the counters come from, e.g. "pg_stat_database + pg_stat_statements". */
  String source();

  /** This view, with the plans of a YSQL endpoint's statements ({@link #plans}). */
  default ServerView withPlans(YsqlEndpoint endpoint) {
    return this;
  }
}
