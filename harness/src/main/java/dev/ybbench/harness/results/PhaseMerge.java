package dev.ybbench.harness.results;

import dev.ybbench.harness.metrics.PhaseRecorder;
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
 */
public final class PhaseMerge {
  private PhaseMerge() {}

  /** The merged phase, with the latency it was computed from (to write as the merged run's logs). */
  public record Merged(PhaseResult phase, Map<String, Histogram> latency, Map<String, Histogram> actualStart) {
    /** Writes the merged {@code <phase>-<OP>.hlog} files (and their actual-start twins under a target rate). */
    public void write(Path latencyDir, String name) throws IOException {
      HlogFiles.write(latencyDir, name, latency);
      if (!actualStart.isEmpty()) {
        HlogFiles.write(latencyDir.resolve(PhaseRecorder.ACTUAL_DIR), name, actualStart);
      }
    }
  }

  /** Phase {@code name} of every run directory in {@code runs}, each holding it. */
  public static Merged of(List<Path> runs, String name) throws IOException {
    Map<String, long[]> counts = new TreeMap<>(); // successes, errors, retries, unknown outcomes
    Map<String, Map<String, Long>> errorClasses = new TreeMap<>();
    Map<String, Histogram> latency = new TreeMap<>();
    Map<String, Histogram> actual = new TreeMap<>();
    List<PhaseResult.Outage> outages = new ArrayList<>();
    double seconds = 0;
    String latencyFrom = null;
    for (Path run : runs) {
      PhaseResult p = RunSummary.read(run).phase(name);
      seconds = Math.max(seconds, p.durationS());
      latencyFrom = p.latencyFrom();
      p.operations().forEach((op, r) -> {
        long[] c = counts.computeIfAbsent(op, k -> new long[4]);
        c[0] += r.successes();
        c[1] += r.errors();
        c[2] += r.retries();
        c[3] += r.unknownOutcomes() == null ? 0 : r.unknownOutcomes();
        r.errorsByClass().forEach((cls, n) -> errorClasses.computeIfAbsent(op, k -> new TreeMap<>())
            .merge(cls, n, Long::sum));
      });
      if (p.outages() != null) {
        outages.addAll(p.outages());
      }
      add(latency, run.resolve("latency"), name);
      add(actual, run.resolve("latency").resolve(PhaseRecorder.ACTUAL_DIR), name);
    }
    double window = seconds;
    Map<String, OperationResult> ops = new LinkedHashMap<>();
    counts.forEach((op, c) -> ops.put(op, new OperationResult(c[0], c[1], errorClasses.getOrDefault(op, Map.of()),
        c[2], PhaseResult.round(c[0] / window), Latency.of(latency.get(op)),
        actual.isEmpty() ? null : Latency.of(actual.get(op)), c[3] == 0 ? null : c[3])));
    PhaseResult merged = PhaseResult.ofOperations(ops, seconds, union(outages)).withLatencyFrom(latencyFrom);
    return new Merged(merged, latency, actual);
  }

  private static void add(Map<String, Histogram> into, Path latencyDir, String phase) throws IOException {
    if (Files.isDirectory(latencyDir)) {
      HlogFiles.totals(latencyDir, phase).forEach((op, h) -> into.computeIfAbsent(op, k -> new Histogram(3)).add(h));
    }
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
