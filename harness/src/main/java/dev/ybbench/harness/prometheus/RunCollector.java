package dev.ybbench.harness.prometheus;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationMetrics;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.metrics.Timeseries;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A run's figures as Prometheus metrics, read at each scrape from the counters and latency totals
 * the results are written from ({@link Timeseries#phases()}): there is no second counting path, so
 * once a phase has ended its scraped counts equal its summary.json counts exactly. Every name
 * starts with {@code ybbench_}; every series carries the run's labels (set by {@link PrometheusEndpoint}) and, but
 * for the run-wide ones, its phase.
 */
public final class RunCollector implements MultiCollector {
  /**
   * Classic bucket bounds in seconds, 100 µs to the hour HdrHistogram tracks (the recorders' range):
   * the 1-2.5-5 steps Prometheus users know.
   */
  static final double[] BUCKETS = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
      1, 2.5, 5, 10, 30, 60, 300, 3600, Double.POSITIVE_INFINITY};

  private static final Histogram EMPTY = new Histogram(3);

  private final Supplier<Timeseries> run;
  private final Supplier<Labels> labels;
  private final LongSupplier cpuNanos;
  private volatile long lastScrapeNanos;
  /** The longest gap between two scrapes so far: Prometheus's scrape interval, or more. */
  private volatile long longestGapNanos;

  /**
   * @param run    the run's record once it exists (null before: only the client's CPU is served)
   * @param labels   the run's labels, which gain the run id once its directory exists
   * @param cpuNanos the client process's CPU time so far
   */
  RunCollector(Supplier<Timeseries> run, Supplier<Labels> labels, LongSupplier cpuNanos) {
    this.run = run;
    this.labels = labels;
    this.cpuNanos = cpuNanos;
  }

  /** When the last scrape came (System.nanoTime), or 0 before the first. */
  long lastScrapeNanos() {
    return lastScrapeNanos;
  }

  long longestGapNanos() {
    return longestGapNanos;
  }

  @Override
  public synchronized MetricSnapshots collect() {
    long now = System.nanoTime();
    if (lastScrapeNanos != 0) {
      longestGapNanos = Math.max(longestGapNanos, now - lastScrapeNanos);
    }
    lastScrapeNanos = now;
    Labels base = labels.get();
    CounterSnapshot.Builder operations = CounterSnapshot.builder().name("ybbench_operations")
        .help("Operations (or transactions) by how they ended: success, error, abort (a conflict that outlasted "
            + "its retries) or unknown (a commit whose reply was lost); each outcome served from the start, at 0");
    CounterSnapshot.Builder failures = CounterSnapshot.builder().name("ybbench_failures")
        .help("Errors and aborts by the class of their error (an SQLSTATE, a driver's exception)");
    CounterSnapshot.Builder retries = CounterSnapshot.builder().name("ybbench_retries")
        .help("Attempts retried after a retryable error (a conflict, a read restart, a timeout)");
    HistogramSnapshot.Builder latency = HistogramSnapshot.builder().name("ybbench_latency_seconds").unit(Unit.SECONDS)
        .help("Latency of successful operations, from the intended start under a target rate, as in the results "
            + "(up to a second behind the counters while the phase runs)");
    GaugeSnapshot.Builder active = GaugeSnapshot.builder().name("ybbench_phase_active")
        .help("1 while the phase runs, 0 once it has ended");
    GaugeSnapshot.Builder achieved = GaugeSnapshot.builder().name("ybbench_achieved_ops_per_second")
        .help("Successes per second in the phase's last whole second");
    GaugeSnapshot.Builder target = GaugeSnapshot.builder().name("ybbench_target_ops_per_second")
        .help("The rate the phase's operations are scheduled at, over all threads (0: as fast as they go)");
    GaugeSnapshot.Builder headline = GaugeSnapshot.builder().name("ybbench_headline")
        .help("The phase's headline so far, where its benchmark names one other than the throughput (the label "
            + "metric names it, e.g. tpmC)");
    Timeseries ts = run.get();
    List<Timeseries.Phase> phases = ts == null ? List.of() : ts.phases();
    // Over every phase: an operation begun in one may end in the next.
    long inFlight = phases.stream().mapToLong(p -> p.metrics().inFlight()).sum();
    boolean anyHeadline = false;
    for (Timeseries.Phase phase : latest(phases)) {
      PhaseRecorder recorder = phase.recorder();
      if (recorder == null) {
        continue; // a warm-up that is not recorded: its threads are in flight, its figures are dropped
      }
      Labels l = base.add("phase", phase.name());
      Metrics m = phase.metrics();
      Set<String> served = new LinkedHashSet<>();
      for (OperationMetrics op : m.operations()) {
        served.add(op.name());
        Labels ol = l.add("operation", op.name());
        operations.dataPoint(counter(ol.add("outcome", "success"), op.successes()));
        operations.dataPoint(counter(ol.add("outcome", "error"), op.errorCount()));
        operations.dataPoint(counter(ol.add("outcome", "abort"), op.abortCount()));
        operations.dataPoint(counter(ol.add("outcome", "unknown"), op.unknownOutcomes()));
        op.errors().forEach((c, n) -> failures.dataPoint(counter(ol.add("class", c).add("outcome", "error"), n)));
        op.aborts().forEach((c, n) -> failures.dataPoint(counter(ol.add("class", c).add("outcome", "abort"), n)));
        retries.dataPoint(counter(ol, op.retries()));
      }
      // The phase's operations that have not ended once yet: at 0, so that rate() starts from nothing.
      for (String name : recorder.expectedOperations()) {
        if (served.add(name)) {
          Labels ol = l.add("operation", name);
          for (String outcome : List.of("success", "error", "abort", "unknown")) {
            operations.dataPoint(counter(ol.add("outcome", outcome), 0));
          }
          retries.dataPoint(counter(ol, 0));
        }
      }
      // Each operation counted above (one first recorded since is left to the next scrape); at 0
      // until the recorder's first second has taken its latency.
      recorder.readTotals(totals -> {
        served.forEach(op -> latency.dataPoint(histogram(l.add("operation", op), totals.getOrDefault(op, EMPTY))));
        return null;
      });
      boolean running = !recorder.closed();
      active.dataPoint(gauge(l, running ? 1 : 0));
      var row = recorder.lastRow();
      achieved.dataPoint(gauge(l, running && row != null ? row.throughput() : 0));
      target.dataPoint(gauge(l, recorder.targetOpsPerSecond()));
      double phaseHeadline = recorder.headline();
      if (!Double.isNaN(phaseHeadline)) {
        headline.dataPoint(gauge(l.add("metric", recorder.headlineMetric()), phaseHeadline));
        anyHeadline = true;
      }
    }
    MetricSnapshots.Builder all = MetricSnapshots.builder()
        .metricSnapshot(operations.build()).metricSnapshot(failures.build()).metricSnapshot(retries.build())
        .metricSnapshot(latency.build()).metricSnapshot(active.build()).metricSnapshot(achieved.build())
        .metricSnapshot(target.build())
        .metricSnapshot(GaugeSnapshot.builder().name("ybbench_in_flight_operations")
            .help("Operations the client's threads have started and not yet ended")
            .dataPoint(gauge(base, Math.max(0, inFlight))).build())
        .metricSnapshot(CounterSnapshot.builder().name("ybbench_client_cpu_seconds").unit(Unit.SECONDS)
            .help("CPU time of the client's process, user and system")
            .dataPoint(counter(base, cpuNanos.getAsLong() / 1e9)).build());
    if (anyHeadline) {
      all.metricSnapshot(headline.build());
    }
    return all.build();
  }

  /** Each phase name once: a name used again (not done today) shows its latest phase. */
  private static List<Timeseries.Phase> latest(List<Timeseries.Phase> phases) {
    Map<String, Timeseries.Phase> byName = new LinkedHashMap<>();
    phases.forEach(p -> byName.put(p.name(), p));
    return List.copyOf(byName.values());
  }

  private static CounterDataPointSnapshot counter(Labels labels, double value) {
    return CounterDataPointSnapshot.builder().labels(labels).value(value).build();
  }

  private static GaugeDataPointSnapshot gauge(Labels labels, double value) {
    return GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
  }

  /**
   * An HdrHistogram of µs as classic buckets: each recorded value counted once, in the bucket its
   * highest equivalent value falls in, so that the buckets add up to the histogram's count exactly.
   * The sum is of each value's median equivalent.
   */
  static HistogramDataPointSnapshot histogram(Labels labels, Histogram h) {
    long[] counts = new long[BUCKETS.length];
    double sumSeconds = 0;
    for (HistogramIterationValue v : h.recordedValues()) {
      double seconds = v.getValueIteratedTo() / 1e6;
      int i = 0;
      while (seconds > BUCKETS[i]) {
        i++;
      }
      counts[i] += v.getCountAtValueIteratedTo();
      sumSeconds += v.getCountAtValueIteratedTo() * h.medianEquivalentValue(v.getValueIteratedTo()) / 1e6;
    }
    return HistogramDataPointSnapshot.builder().labels(labels)
        .classicHistogramBuckets(ClassicHistogramBuckets.of(BUCKETS, counts)).sum(sumSeconds).build();
  }
}
