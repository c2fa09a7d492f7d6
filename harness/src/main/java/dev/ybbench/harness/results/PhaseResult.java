package dev.ybbench.harness.results;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationMetrics;
import dev.ybbench.harness.metrics.Outages;
import dev.ybbench.harness.metrics.PhaseRecorder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * One phase of summary.json: totals over its measurement window ({@code duration_s}), the server
 * outages its threads saw, and every operation type; where a binding wrote operations in batches
 * (YSQL's batched load, CassandraBatchKeyValue's LOGGED batches), each batch statement's latency
 * per operation type under {@code batches}, apart from the operations and their totals; where an
 * operation is a transaction of several
 * statements counted by kind but not timed one by one (sysbench's reads, writes and others), those
 * under {@code queries}, also apart from the operations, and {@code queries_on_tables} of them on
 * the benchmark's tables. {@code aborts} counts operations that ended on a
 * conflict after their retries (see {@link OperationResult}), apart from {@code errors}. TPC-C
 * adds tpmC, efficiency and the p90 limits to its measurement, and rows and the population check
 * to its load; absent elsewhere.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"duration_s", "successes", "errors", "aborts", "retries"})
public record PhaseResult(
    double durationS,
    long successes,
    long errors,
    long retries,
    double throughputOps,
    String latencyFrom,
    List<Outage> outages,
    Map<String, OperationResult> operations,
    Map<String, OperationResult> batches,
    Map<String, OperationResult> queries,
    Long queriesOnTables,
    @JsonProperty("tpmC") Double tpmC,
    Double efficiencyPct,
    Map<String, ResponseTimeLimit> responseTimeLimits,
    Long rows,
    Long rowsPerS,
    String populationCheck,
    Map<String, Long> afterWindow,
    Map<String, TerminalWaits> terminalWaits,
    ServerSide server,
    ClientSide client,
    long aborts) {

  /**
   * What {@code latency_us} measures from: operations run to a target rate are measured from when
   * the schedule said they should start, so a stalled server shows in the tail instead of hiding
   * in the schedule (coordinated omission); others from when they started.
   */
  public static final String INTENDED_START = "intended start";
  public static final String ACTUAL_START = "actual start";

  /** A stretch of the phase when the server could not be reached, from the phase's start. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Outage(double startS, double durationS) {}

  /**
   * The server's side of the phase (details in server.json): the audit of the harness's completed
   * operations against the statements the server completed on the benchmark's table, CPU seconds
   * of the server when it runs here, what each node served, the statements, and the parts of the
   * server's view that could not be read, each with why ({@code unavailable}: e.g. "statements",
   * "audit"), so that a part left out is never read as a part with nothing in it. Earlier runs of
   * this format kept the client's CPU here too ({@code client_cpu_s}); it is read past, now in
   * {@link ClientSide}.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties("client_cpu_s")
  public record ServerSide(Long harnessOperations, Long serverStatements, Double deltaPct, Double serverCpuS,
      List<NodeRates> nodes, List<Statement> statements, Map<String, String> unavailable) {
    public ServerSide(Long harnessOperations, Long serverStatements, Double deltaPct, Double serverCpuS,
        List<NodeRates> nodes, List<Statement> statements) {
      this(harnessOperations, serverStatements, deltaPct, serverCpuS, nodes, statements, null);
    }

    public ServerSide(Long harnessOperations, Long serverStatements, Double deltaPct, Double serverCpuS,
        List<NodeRates> nodes) {
      this(harnessOperations, serverStatements, deltaPct, serverCpuS, nodes, null, null);
    }

    /** Why {@code part} of the server's view was not recorded, or null when it was. */
    public String unavailable(String part) {
      return unavailable == null ? null : unavailable.get(part);
    }
  }

  /**
   * One statement the benchmark ran in the phase, as the server counted it (pg_stat_statements'
   * difference over the phase): its normalized text, calls, rows, total and mean execution time,
   * shared blocks found in the buffer cache ({@code blks_hit}) or read ({@code blks_read}), the
   * median and 99th percentile of its executions where the server keeps their latency in buckets
   * (YugabyteDB's yb_latency_histogram: each the upper bound of its bucket, as yb_get_percentile
   * gives it); {@code operations}, where the benchmark says, the operations (TPC-C's transaction
   * types) that issue it.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Statement(String query, long calls, long rows, double timeMs, double meanUs, Long blksHit,
      Long blksRead, Double p50Us, Double p99Us, List<String> operations) {
    public Statement(String query, long calls, long rows, double timeMs, double meanUs, Long blksHit, Long blksRead) {
      this(query, calls, rows, timeMs, meanUs, blksHit, blksRead, null, null, null);
    }
  }

  /**
   * What the client process spent on the measured window: CPU seconds (every thread of the JVM,
   * JIT and garbage collector included), those per operation (per row for a load measured in
   * rows), the share of its cores they kept busy, and its peak resident set so far. A merged run
   * sums CPU and cores over its clients and keeps the busiest client's share and the largest
   * client's peak.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ClientSide(double cpuS, Double cpuUsPerOp, int cores, double busyPct, Long peakRssMb) {
    /** Above this share of its cores busy, the client may be what limited the figures. */
    public static final double BUSY_WARNING_PCT = 80;

    public static ClientSide of(double cpuS, long operations, int cores, double busyPct, Long peakRssBytes) {
      return new ClientSide(Math.round(cpuS * 1000) / 1000.0,
          operations == 0 ? null : Math.round(1e7 * cpuS / operations) / 10.0, cores, round(busyPct),
          peakRssBytes == null ? null : Math.round(peakRssBytes / 1048576.0));
    }

    /** Several clients' windows together: their CPU over their operations. */
    public static ClientSide merged(List<ClientSide> clients, long operations) {
      double cpu = clients.stream().mapToDouble(ClientSide::cpuS).sum();
      int cores = clients.stream().mapToInt(ClientSide::cores).sum();
      double busiest = clients.stream().mapToDouble(ClientSide::busyPct).max().orElse(0);
      Long peak = clients.stream().map(ClientSide::peakRssMb).filter(Objects::nonNull)
          .max(Long::compare).orElse(null);
      return of(cpu, operations, cores, busiest, peak == null ? null : peak * 1048576);
    }
  }

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

  /** Clause 5.2.5.3: a transaction type's 90th percentile against its limit. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ResponseTimeLimit(double p90S, double limitS, boolean pass) {}

  /**
   * Throughput counts successes only, over {@code seconds}; latency comes from the phase's
   * HdrHistogram totals; outages are placed from {@code startNanos}, when the phase began.
   */
  public static PhaseResult of(Metrics metrics, PhaseRecorder recorder, double seconds) {
    List<Outage> outages = new ArrayList<>();
    for (Outages.Interval i : metrics.outages().intervals(System.nanoTime())) {
      outages.add(new Outage(round(Math.max(0, i.startNanos() - recorder.startNanos()) / 1e9), round(i.seconds())));
    }
    Map<String, Histogram> latency = recorder.totals();
    Map<String, Histogram> actual = recorder.actualTotals();
    Map<String, OperationResult> ops = new LinkedHashMap<>();
    for (OperationMetrics op : metrics.operations()) {
      ops.put(op.name(), new OperationResult(op.successes(), op.errorCount(), op.errors(), op.retries(),
          round(op.successes() / seconds), Latency.of(latency.get(op.name())),
          actual.isEmpty() ? null : Latency.of(actual.get(op.name())),
          op.unknownOutcomes() == 0 ? null : op.unknownOutcomes(),
          op.retriesByClass().isEmpty() ? null : op.retriesByClass()).withAborts(op.aborts()));
    }
    Map<String, Histogram> batchLatency = recorder.batchTotals();
    Map<String, OperationResult> batches = new LinkedHashMap<>();
    for (OperationMetrics b : metrics.batches()) {
      batches.put(b.name(), new OperationResult(b.successes(), 0, Map.of(), 0, round(b.successes() / seconds),
          Latency.of(batchLatency.get(b.name()))));
    }
    PhaseResult p = ofOperations(ops, seconds, outages).withBatches(batches.isEmpty() ? null : batches);
    return actual.isEmpty() ? p : p.withLatencyFrom(INTENDED_START);
  }

  /** Phase totals as the sums of its operations. */
  public static PhaseResult ofOperations(Map<String, OperationResult> ops, double seconds, List<Outage> outages) {
    long successes = ops.values().stream().mapToLong(OperationResult::successes).sum();
    long errors = ops.values().stream().mapToLong(OperationResult::errors).sum();
    long retries = ops.values().stream().mapToLong(OperationResult::retries).sum();
    long aborts = ops.values().stream().mapToLong(OperationResult::aborts).sum();
    return new PhaseResult(round(seconds), successes, errors, retries, round(successes / seconds), ACTUAL_START,
        outages.isEmpty() ? null : List.copyOf(outages), ops, null, null, null, null, null, null, null, null, null,
        null, null, null, null, aborts);
  }

  /** A load measured in rows rather than operations (TPC-C's COPY load). */
  public static PhaseResult ofRows(long rows, double seconds, String populationCheck) {
    return new PhaseResult(round(seconds), 0, 0, 0, 0, null, null, Map.of(), null, null, null, null, null, null, rows,
        Math.round(rows / seconds), populationCheck, null, null, null, null, 0);
  }

  /** The same phase with TPC-C's figures. */
  /** @param efficiencyPct null without keying and think times, where efficiency means nothing */
  public PhaseResult withTpcc(double tpmC, Double efficiencyPct, Map<String, ResponseTimeLimit> limits) {
    return new PhaseResult(durationS, successes, errors, retries, throughputOps, latencyFrom, outages, operations,
        batches, queries, queriesOnTables, round(tpmC),
        efficiencyPct == null ? null : Math.round(efficiencyPct * 100) / 100.0, limits, rows, rowsPerS,
        populationCheck, afterWindow, terminalWaits, server, client, aborts);
  }

  /**
   * The same phase with what completed after its window closed: transactions in flight at the
   * edge, which changed the database but are not in the figures (database growth = counted +
   * after window).
   */
  public PhaseResult withAfterWindow(Map<String, Long> after) {
    return new PhaseResult(durationS, successes, errors, retries, throughputOps, latencyFrom, outages, operations,
        batches, queries, queriesOnTables, tpmC, efficiencyPct, responseTimeLimits, rows, rowsPerS, populationCheck,
        after, terminalWaits, server, client, aborts);
  }

  /** The same phase with its terminals' keying, think and connection waits per transaction type. */
  public PhaseResult withTerminalWaits(Map<String, TerminalWaits> waits) {
    return new PhaseResult(durationS, successes, errors, retries, throughputOps, latencyFrom, outages, operations,
        batches, queries, queriesOnTables, tpmC, efficiencyPct, responseTimeLimits, rows, rowsPerS, populationCheck,
        afterWindow, waits, server, client, aborts);
  }

  /** The same phase with the server's side of it. */
  public PhaseResult withServer(ServerSide side) {
    return new PhaseResult(durationS, successes, errors, retries, throughputOps, latencyFrom, outages, operations,
        batches, queries, queriesOnTables, tpmC, efficiencyPct, responseTimeLimits, rows, rowsPerS, populationCheck,
        afterWindow, terminalWaits, side, client, aborts);
  }

  /** The same phase with what its client spent on it. */
  /**
   * What "per operation" divides by: the successes, or the rows of a load measured in rows
   * (TPC-C's), for the client's and the server's cost alike.
   */
  public long unitsOfWork() {
    return successes > 0 || rows == null ? successes : rows;
  }

  public PhaseResult withClient(ClientSide side) {
    return new PhaseResult(durationS, successes, errors, retries, throughputOps, latencyFrom, outages, operations,
        batches, queries, queriesOnTables, tpmC, efficiencyPct, responseTimeLimits, rows, rowsPerS, populationCheck,
        afterWindow, terminalWaits, server, side, aborts);
  }

  /** The same figures, their latency measured from {@code from} ({@link #INTENDED_START} or {@link #ACTUAL_START}). */
  public PhaseResult withLatencyFrom(String from) {
    return new PhaseResult(durationS, successes, errors, retries, throughputOps, from, outages, operations, batches,
        queries, queriesOnTables, tpmC, efficiencyPct, responseTimeLimits, rows, rowsPerS, populationCheck, afterWindow,
        terminalWaits, server, client, aborts);
  }

  /**
   * The same phase with its statements counted by kind (sysbench's read, write, other), and how
   * many of them were on the benchmark's tables: what the server's count of statements on them is
   * audited against, in place of the operations.
   */
  public PhaseResult withQueries(Map<String, OperationResult> byKind, long onTables) {
    return new PhaseResult(durationS, successes, errors, retries, throughputOps, latencyFrom, outages, operations,
        batches, byKind, onTables, tpmC, efficiencyPct, responseTimeLimits, rows, rowsPerS, populationCheck,
        afterWindow, terminalWaits, server, client, aborts);
  }

  /** The same figures with the batch statements that wrote them, per operation type (null: none). */
  public PhaseResult withBatches(Map<String, OperationResult> b) {
    return new PhaseResult(durationS, successes, errors, retries, throughputOps, latencyFrom, outages, operations, b,
        queries, queriesOnTables, tpmC, efficiencyPct, responseTimeLimits, rows, rowsPerS, populationCheck, afterWindow,
        terminalWaits, server, client, aborts);
  }

  /** Seconds the server was unreachable during the phase. */
  public double outageSeconds() {
    return outages == null ? 0 : outages.stream().mapToDouble(Outage::durationS).sum();
  }

  public static double round(double v) {
    return Math.round(v * 10.0) / 10.0;
  }
}
