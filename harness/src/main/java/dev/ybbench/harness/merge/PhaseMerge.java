package dev.ybbench.harness.merge;

import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * One phase of several clients' runs, added up as if one client had run them all: counts are
 * summed, latency comes from the parts' HdrHistogram logs added together (exact, unlike
 * averaging percentiles), and throughput is the summed successes over the longest part's window
 * (the parts ran at the same time). An outage any part saw is an outage of the whole.
 *
 * <p>Second by second, the parts are aligned on the wall clock: each part's one-second interval
 * joins the second of the earliest part's phase that its midpoint falls in, so the merged
 * timeseries and interval logs show what the server was asked for in each second by everyone.
 */
public final class PhaseMerge {
  private PhaseMerge() {}

  /**
   * The merged phase, and the per-second latency it was computed from.
   *
   * @param originMillis when the earliest part's phase began (epoch ms); second {@code s} of the
   *                     merged phase starts {@code s} seconds after it
   * @param latency      per operation, per second: the intervals' histograms added up
   * @param actualStart  the same from the actual start, under a target rate (else empty)
   * @param errors       per second, errors and retries of every part
   * @param reported     per second, the throughput the parts' timeseries report, added up
   * @param fromReported whether the merged timeseries is {@code reported} ({@link #withReportedTimeseries})
   */
  public record Merged(String name, PhaseResult phase, long originMillis, Map<String, TreeMap<Long, Histogram>> latency,
      Map<String, TreeMap<Long, Histogram>> actualStart, TreeMap<Long, long[]> errors, TreeMap<Long, Double> reported,
      boolean fromReported) {

    /** The same, with {@code merged} as the phase's figures. */
    public Merged withPhase(PhaseResult merged) {
      return new Merged(name, merged, originMillis, latency, actualStart, errors, reported, fromReported);
    }

    /**
     * The same, its timeseries the parts' reported throughput added up second by second, with no
     * percentiles: for an engine whose latency log holds one interval for the whole phase (sysbench
     * reports a histogram only at its end, and one percentile a second, which does not add up).
     */
    public Merged withReportedTimeseries() {
      return new Merged(name, phase, originMillis, latency, actualStart, errors, reported, true);
    }

    /** Per operation over the whole phase. */
    public Map<String, Histogram> totals() {
      return PhaseMerge.totals(latency);
    }

    /** Writes the merged {@code <phase>-<OP>.hlog} files, one interval per second (and their actual-start twins). */
    public void writeLogs(Path latencyDir) throws IOException {
      write(latencyDir, latency);
      if (!actualStart.isEmpty()) {
        write(latencyDir.resolve(PhaseRecorder.ACTUAL_DIR), actualStart);
      }
    }

    private void write(Path dir, Map<String, TreeMap<Long, Histogram>> perOp) throws IOException {
      for (Map.Entry<String, TreeMap<Long, Histogram>> e : perOp.entrySet()) {
        List<Histogram> intervals = new ArrayList<>();
        e.getValue().forEach((second, h) -> {
          h.setStartTimeStamp(originMillis + second * 1000);
          h.setEndTimeStamp(originMillis + (second + 1) * 1000);
          intervals.add(h);
        });
        HlogFiles.writeIntervals(dir, name, e.getKey(), intervals);
      }
    }

    /** One timeseries row per second of the merged phase. */
    public List<Timeseries.Row> rows() {
      if (fromReported) {
        List<Timeseries.Row> rows = new ArrayList<>();
        reported.forEach((sec, ops) -> {
          long[] e = errors.getOrDefault(sec, new long[2]);
          rows.add(new Timeseries.Row(name, sec + 1, ops, null, null, null, e[0], e[1]));
        });
        return rows;
      }
      TreeMap<Long, Histogram> all = new TreeMap<>();
      latency.values().forEach(perSecond -> perSecond.forEach((s, h) -> all.computeIfAbsent(s,
          k -> new Histogram(3)).add(h)));
      errors.keySet().forEach(s -> all.computeIfAbsent(s, k -> new Histogram(3)));
      List<Timeseries.Row> rows = new ArrayList<>();
      all.forEach((s, h) -> {
        long[] e = errors.getOrDefault(s, new long[2]);
        boolean any = h.getTotalCount() > 0;
        rows.add(new Timeseries.Row(name, s + 1, h.getTotalCount(), any ? h.getValueAtPercentile(50) : 0,
            any ? h.getValueAtPercentile(95) : 0, any ? h.getValueAtPercentile(99) : 0, e[0], e[1]));
      });
      return rows;
    }
  }

  /** Phase {@code name} of every run directory in {@code runs}, each holding it. */
  public static Merged of(List<Path> runs, String name) throws IOException {
    Map<String, long[]> counts = new TreeMap<>(); // successes, errors, retries, unknown outcomes
    Map<String, Map<String, Long>> errorClasses = new TreeMap<>();
    Map<String, Map<String, Long>> retryClasses = new TreeMap<>();
    Map<String, Map<String, Long>> abortClasses = new TreeMap<>();
    List<PhaseResult.Outage> outages = new ArrayList<>();
    double seconds = 0;
    String latencyFrom = null;
    long origin = Long.MAX_VALUE;
    Map<Path, Long> starts = new LinkedHashMap<>();
    for (Path run : runs) {
      PhaseResult p = RunSummary.read(run).phase(name);
      // duration_s is rounded to 0.1 s: a part of a short load may show 0 s, where its rate keeps the window.
      seconds = Math.max(seconds, p.durationS() < 1 && p.throughputOps() > 0 ? p.successes() / p.throughputOps()
          : p.durationS());
      latencyFrom = p.latencyFrom();
      p.operations().forEach((op, r) -> {
        long[] c = counts.computeIfAbsent(op, k -> new long[4]);
        c[0] += r.successes();
        c[1] += r.errors();
        c[2] += r.retries();
        c[3] += r.unknownOutcomes() == null ? 0 : r.unknownOutcomes();
        r.errorsByClass().forEach((cls, n) -> errorClasses.computeIfAbsent(op, k -> new TreeMap<>())
            .merge(cls, n, Long::sum));
        if (r.retriesByClass() != null) {
          r.retriesByClass().forEach((cls, n) -> retryClasses.computeIfAbsent(op, k -> new TreeMap<>())
              .merge(cls, n, Long::sum));
        }
        Map<String, Long> aborts = abortClasses.computeIfAbsent(op, k -> new TreeMap<>());
        if (r.abortsByClass() != null) {
          r.abortsByClass().forEach((cls, n) -> aborts.merge(cls, n, Long::sum));
        }
      });
      if (p.outages() != null) {
        outages.addAll(p.outages());
      }
      Long start = phaseStart(run.resolve("latency"), name);
      if (start != null) {
        starts.put(run, start);
        origin = Math.min(origin, start);
      }
    }
    Map<String, TreeMap<Long, Histogram>> latency = new TreeMap<>();
    Map<String, TreeMap<Long, Histogram>> actual = new TreeMap<>();
    TreeMap<Long, long[]> errors = new TreeMap<>();
    TreeMap<Long, Double> reported = new TreeMap<>();
    for (Map.Entry<Path, Long> part : starts.entrySet()) {
      Path dir = part.getKey().resolve("latency");
      align(HlogFiles.intervalsByOperation(dir, name), origin, latency);
      align(HlogFiles.intervalsByOperation(dir.resolve(PhaseRecorder.ACTUAL_DIR), name), origin, actual);
      alignRows(part.getKey().resolve("timeseries.csv"), name, part.getValue() - origin, errors, reported);
    }
    Map<String, Histogram> totals = totals(latency);
    Map<String, Histogram> actualTotals = totals(actual);
    double window = seconds;
    Map<String, OperationResult> ops = new LinkedHashMap<>();
    counts.forEach((op, c) -> ops.put(op, new OperationResult(c[0], c[1], errorClasses.getOrDefault(op, Map.of()),
        c[2], PhaseResult.round(c[0] / window), LatencyPercentiles.of(totals.get(op)),
        actual.isEmpty() ? null : LatencyPercentiles.of(actualTotals.get(op)), c[3] == 0 ? null : c[3],
        retryClasses.get(op)).withAborts(abortClasses.getOrDefault(op, Map.of()))));
    PhaseResult merged = PhaseResult.ofOperations(ops, seconds, union(outages)).toBuilder().latencyFrom(latencyFrom)
        .build();
    return new Merged(name, merged, origin == Long.MAX_VALUE ? 0 : origin, latency, actual, errors, reported, false);
  }

  /** When a part's phase began, from any of its interval logs (null when it logged none). */
  private static Long phaseStart(Path latencyDir, String phase) throws IOException {
    Path any = HlogFiles.files(latencyDir, phase).values().stream().findFirst().orElse(null);
    return any == null ? null : HlogFiles.startMillis(any);
  }

  /** Adds each interval to the second its midpoint falls in, counted from {@code origin}. */
  private static void align(Map<String, List<Histogram>> intervals, long origin,
      Map<String, TreeMap<Long, Histogram>> into) {
    intervals.forEach((op, list) -> {
      TreeMap<Long, Histogram> perSecond = into.computeIfAbsent(op, k -> new TreeMap<>());
      for (Histogram h : list) {
        long second = Math.max(0, Math.floorDiv((h.getStartTimeStamp() + h.getEndTimeStamp()) / 2 - origin, 1000L));
        perSecond.computeIfAbsent(second, k -> new Histogram(3)).add(h);
      }
    });
  }

  /**
   * A part's timeseries rows of the phase, each into the second its midpoint falls in: its errors
   * and retries, and the throughput it reports.
   */
  private static void alignRows(Path csv, String phase, long offsetMillis, TreeMap<Long, long[]> errors,
      TreeMap<Long, Double> reported) throws IOException {
    if (!Files.isRegularFile(csv)) {
      return;
    }
    for (String line : Files.readAllLines(csv)) {
      String[] f = line.split(",");
      if (f.length < 8 || !f[0].equals(phase)) {
        continue;
      }
      long mid = offsetMillis + Math.round((Double.parseDouble(f[1]) - 0.5) * 1000);
      long second = Math.max(0, Math.floorDiv(mid, 1000L));
      long[] e = errors.computeIfAbsent(second, k -> new long[2]);
      e[0] += Long.parseLong(f[6]);
      e[1] += Long.parseLong(f[7]);
      reported.merge(second, Double.parseDouble(f[2]), Double::sum);
    }
  }

  private static Map<String, Histogram> totals(Map<String, TreeMap<Long, Histogram>> perOp) {
    Map<String, Histogram> out = new TreeMap<>();
    perOp.forEach((op, perSecond) -> {
      Histogram total = new Histogram(3);
      perSecond.values().forEach(total::add);
      out.put(op, total);
    });
    return out;
  }

  /** Overlapping stretches joined, so two clients seeing one outage count it once. */
  static List<PhaseResult.Outage> union(List<PhaseResult.Outage> all) {
    List<PhaseResult.Outage> sorted = new ArrayList<>(all);
    sorted.sort(Comparator.comparingDouble(PhaseResult.Outage::startS));
    List<PhaseResult.Outage> out = new ArrayList<>();
    for (PhaseResult.Outage o : sorted) {
      PhaseResult.Outage last = out.isEmpty() ? null : out.get(out.size() - 1);
      double end = o.startS() + o.durationS();
      if (last != null && o.startS() <= last.startS() + last.durationS()) {
        double lastEnd = Math.max(last.startS() + last.durationS(), end);
        out.set(out.size() - 1, new PhaseResult.Outage(last.startS(), PhaseResult.round(lastEnd - last.startS())));
      } else {
        out.add(o);
      }
    }
    return out;
  }
}
