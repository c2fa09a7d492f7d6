package dev.ybbench.harness.results;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationMetrics;
import dev.ybbench.harness.metrics.Outages;
import dev.ybbench.harness.metrics.PhaseRecorder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * One phase of summary.json: what every benchmark's phase has. Totals over its measurement window
 * ({@code duration_s}), the server outages its threads saw, every operation type; where a binding
 * wrote operations in batches (YSQL's batched load, CassandraBatchKeyValue's LOGGED batches), each
 * batch statement's latency per operation type under {@code batches}, apart from the operations;
 * where an operation is several statements counted but not timed one by one (sysbench's
 * transactions), {@code audited_statements}: those the client counted on the benchmark's tables,
 * which the server's count is audited against. {@code aborts} counts operations that ended on a
 * conflict after their retries (see {@link OperationResult}), apart from {@code errors}. A load
 * measured in rows has {@code rows}; a check the phase's data must pass, {@code checks} ("pass",
 * or what failed).
 *
 * <p>{@code headline} names the figure a comparison gates on, with its unit and direction: the
 * phase's throughput unless the benchmark names its own (TPC-C's tpmC); {@code figures} are the
 * benchmark's other compared figures. A benchmark's own figures beyond these live under its own key
 * ({@link #extension}), e.g. {@code "tpcc": {…}}: the core knows no benchmark by name.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"duration_s", "successes", "errors", "aborts", "retries", "throughput_ops", "headline",
    "figures"})
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
    Long auditedStatements,
    Long rows,
    Long rowsPerS,
    Map<String, String> checks,
    Figure headline,
    List<Figure> figures,
    ServerSide server,
    ClientSide client,
    long aborts,
    @JsonAnySetter @JsonAnyGetter Map<String, JsonNode> extensions) {

  /** A check's value when it passed. */
  public static final String PASS = "pass";

  /** The headline is the throughput unless the benchmark names another; either way it states its value. */
  public PhaseResult {
    extensions = extensions == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
    if (headline == null || headline.throughput()) {
      headline = successes == 0 && rows != null ? Figure.rows(rowsPerS == null ? 0 : rowsPerS)
          : Figure.throughput(throughputOps);
    }
  }

  /**
   * A figure a comparison reads: its value, unit and direction, and the operations it counts (its
   * noise is their rate's; none: the phase's throughput's).
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Figure(String metric, String unit, double value, boolean higherIsBetter, List<String> operations) {
    public static final String THROUGHPUT = "throughput";

    /** The phase's successes per second. */
    public static Figure throughput(double opsPerS) {
      return new Figure(THROUGHPUT, "ops/s", opsPerS, true, null);
    }

    /** A load measured in rows: rows per second. */
    static Figure rows(double rowsPerS) {
      return new Figure("load", "rows/s", rowsPerS, true, null);
    }

    @JsonIgnore
    public boolean throughput() {
      return THROUGHPUT.equals(metric) && operations == null;
    }

    /** As a comparison's rows name it: "throughput (ops/s)", "efficiency (%)", or "tpmC" when its unit is its name. */
    public String label() {
      return unit.equals(metric) ? metric : metric + " (" + unit + ")";
    }
  }

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
   * types) that issue it; {@code work_per_call}, every other counter of its work the server keeps
   * (by its column's name: {@code temp_blks_read}, {@code wal_records}, YugabyteDB's
   * {@code docdb_rows_scanned} …) divided by its calls; {@code waits}, its sessions' samples by
   * wait event over the phase (server.json's wait profile), the most first.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Statement(String query, long calls, long rows, double timeMs, double meanUs, Long blksHit,
      Long blksRead, Double p50Us, Double p99Us, List<String> operations, Map<String, Double> workPerCall,
      Map<String, Double> waits) {
    public Statement(String query, long calls, long rows, double timeMs, double meanUs, Long blksHit, Long blksRead) {
      this(query, calls, rows, timeMs, meanUs, blksHit, blksRead, null, null, null, null, null);
    }

    /** This statement's samples in all, weighted; 0 without a wait profile. */
    public double waitSamples() {
      return waits == null ? 0 : waits.values().stream().mapToDouble(Double::doubleValue).sum();
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
          round(op.successes() / seconds), LatencyPercentiles.of(latency.get(op.name())),
          actual.isEmpty() ? null : LatencyPercentiles.of(actual.get(op.name())),
          op.unknownOutcomes() == 0 ? null : op.unknownOutcomes(),
          op.retriesByClass().isEmpty() ? null : op.retriesByClass()).withAborts(op.aborts()));
    }
    Map<String, Histogram> batchLatency = recorder.batchTotals();
    Map<String, OperationResult> batches = new LinkedHashMap<>();
    for (OperationMetrics b : metrics.batches()) {
      batches.put(b.name(), new OperationResult(b.successes(), 0, Map.of(), 0, round(b.successes() / seconds),
          LatencyPercentiles.of(batchLatency.get(b.name()))));
    }
    Builder p = ofOperations(ops, seconds, outages).toBuilder().batches(batches.isEmpty() ? null : batches);
    return (actual.isEmpty() ? p : p.latencyFrom(INTENDED_START)).build();
  }

  /** Phase totals as the sums of its operations. */
  public static PhaseResult ofOperations(Map<String, OperationResult> ops, double seconds, List<Outage> outages) {
    long successes = ops.values().stream().mapToLong(OperationResult::successes).sum();
    return new Builder().durationS(round(seconds)).successes(successes)
        .errors(ops.values().stream().mapToLong(OperationResult::errors).sum())
        .retries(ops.values().stream().mapToLong(OperationResult::retries).sum())
        .aborts(ops.values().stream().mapToLong(OperationResult::aborts).sum())
        .throughputOps(round(successes / seconds)).latencyFrom(ACTUAL_START)
        .outages(outages.isEmpty() ? null : List.copyOf(outages)).operations(ops).build();
  }

  /** A load measured in rows rather than operations (TPC-C's COPY load); {@code check}: its check, or null. */
  public static PhaseResult ofRows(long rows, double seconds, String checkName, String check) {
    return new Builder().durationS(round(seconds)).operations(Map.of()).rows(rows)
        .rowsPerS(Math.round(rows / seconds)).checks(check == null ? null : Map.of(checkName, check)).build();
  }

  /**
   * What "per operation" divides by: the successes, or the rows of a load measured in rows
   * (TPC-C's), for the client's and the server's cost alike.
   */
  public long unitsOfWork() {
    return successes > 0 || rows == null ? successes : rows;
  }

  /** Seconds the server was unreachable during the phase. */
  public double outageSeconds() {
    return outages == null ? 0 : outages.stream().mapToDouble(Outage::durationS).sum();
  }

  /** The benchmark's own figures of this phase, under its {@code key}, as {@code type}; null where it has none. */
  public <T> T extension(String key, Class<T> type) {
    return extension(extensions, key, type);
  }

  static <T> T extension(Map<String, JsonNode> extensions, String key, Class<T> type) {
    JsonNode n = extensions.get(key);
    try {
      return n == null ? null : RunDirectory.JSON.treeToValue(n, type);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the phase's " + key + " figures cannot be read: " + e.getMessage(), e);
    }
  }

  /** The other figures a comparison reads, by metric. */
  public Figure figure(String metric) {
    return figures == null ? null : figures.stream().filter(f -> f.metric().equals(metric)).findFirst().orElse(null);
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  public static double round(double v) {
    return Math.round(v * 10.0) / 10.0;
  }

  /** A phase built a field at a time (a benchmark's own figures under its key, {@link #extension}). */
  public static final class Builder {
    private double durationS;
    private long successes;
    private long errors;
    private long retries;
    private double throughputOps;
    private String latencyFrom;
    private List<Outage> outages;
    private Map<String, OperationResult> operations;
    private Map<String, OperationResult> batches;
    private Long auditedStatements;
    private Long rows;
    private Long rowsPerS;
    private Map<String, String> checks;
    private Figure headline;
    private List<Figure> figures;
    private ServerSide server;
    private ClientSide client;
    private long aborts;
    private final Map<String, JsonNode> extensions = new LinkedHashMap<>();

    public Builder() {}

    Builder(PhaseResult p) {
      durationS = p.durationS;
      successes = p.successes;
      errors = p.errors;
      retries = p.retries;
      throughputOps = p.throughputOps;
      latencyFrom = p.latencyFrom;
      outages = p.outages;
      operations = p.operations;
      batches = p.batches;
      auditedStatements = p.auditedStatements;
      rows = p.rows;
      rowsPerS = p.rowsPerS;
      checks = p.checks;
      headline = p.headline;
      figures = p.figures;
      server = p.server;
      client = p.client;
      aborts = p.aborts;
      extensions.putAll(p.extensions);
    }

    public Builder durationS(double v) {
      durationS = v;
      return this;
    }

    public Builder successes(long v) {
      successes = v;
      return this;
    }

    public Builder errors(long v) {
      errors = v;
      return this;
    }

    public Builder retries(long v) {
      retries = v;
      return this;
    }

    public Builder aborts(long v) {
      aborts = v;
      return this;
    }

    public Builder throughputOps(double v) {
      throughputOps = v;
      return this;
    }

    /** What the latency is measured from: {@link #INTENDED_START} or {@link #ACTUAL_START}. */
    public Builder latencyFrom(String v) {
      latencyFrom = v;
      return this;
    }

    public Builder outages(List<Outage> v) {
      outages = v;
      return this;
    }

    public Builder operations(Map<String, OperationResult> v) {
      operations = v;
      return this;
    }

    /** The batch statements that wrote the operations, per operation type (null: none). */
    public Builder batches(Map<String, OperationResult> v) {
      batches = v;
      return this;
    }

    /** The statements the client counted on the benchmark's tables, where an operation is several. */
    public Builder auditedStatements(Long v) {
      auditedStatements = v;
      return this;
    }

    public Builder rows(Long v) {
      rows = v;
      return this;
    }

    public Builder rowsPerS(Long v) {
      rowsPerS = v;
      return this;
    }

    public Builder checks(Map<String, String> v) {
      checks = v;
      return this;
    }

    /** The figure a comparison gates on, when it is not the phase's throughput. */
    public Builder headline(Figure v) {
      headline = v;
      return this;
    }

    /** The benchmark's other compared figures. */
    public Builder figures(List<Figure> v) {
      figures = v == null || v.isEmpty() ? null : List.copyOf(v);
      return this;
    }

    public Builder server(ServerSide v) {
      server = v;
      return this;
    }

    public Builder client(ClientSide v) {
      client = v;
      return this;
    }

    /** The benchmark's own figures, under its key (null removes them). */
    public Builder extension(String key, Object figuresOfItsOwn) {
      if (figuresOfItsOwn == null) {
        extensions.remove(key);
      } else {
        extensions.put(key, RunDirectory.JSON.valueToTree(figuresOfItsOwn));
      }
      return this;
    }

    public PhaseResult build() {
      return new PhaseResult(durationS, successes, errors, retries, throughputOps, latencyFrom, outages, operations,
          batches, auditedStatements, rows, rowsPerS, checks, headline, figures, server, client, aborts, extensions);
    }
  }
}
