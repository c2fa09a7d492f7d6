package dev.ybbench.harness.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Merging one phase of several clients' runs on hand-made run directories with known counts. */
class PhaseMergeTest {
  private static final long T0 = 1_790_000_000_000L;

  @TempDir
  Path root;

  /**
   * A run whose phase "run" began at T0 + {@code offsetMs} and lasted {@code perSecond.length}
   * seconds, doing {@code perSecond[i]} READs of {@code micros} in second i, one error in each.
   */
  private Path client(String name, long offsetMs, long[] perSecond, long micros, boolean target,
      PhaseResult.Outage outage) throws Exception {
    Path dir = root.resolve(name);
    List<Histogram> intervals = new ArrayList<>();
    List<Histogram> actualIntervals = new ArrayList<>();
    Histogram total = new Histogram(3);
    Histogram actualTotal = new Histogram(3);
    StringBuilder csv = new StringBuilder(Timeseries.HEADER + "\n");
    long reads = 0;
    for (int i = 0; i < perSecond.length; i++) {
      intervals.add(interval(T0 + offsetMs + i * 1000L, micros, perSecond[i]));
      actualIntervals.add(interval(T0 + offsetMs + i * 1000L, micros / 2, perSecond[i]));
      total.add(intervals.get(i));
      actualTotal.add(actualIntervals.get(i));
      reads += perSecond[i];
      csv.append("run,").append(i + 1).append(".000,").append(perSecond[i]).append(".0,1,2,3,1,0\n");
    }
    HlogFiles.writeIntervals(dir.resolve("latency"), "run", "READ", intervals);
    if (target) {
      HlogFiles.writeIntervals(dir.resolve("latency").resolve(PhaseRecorder.ACTUAL_DIR), "run", "READ",
          actualIntervals);
    }
    Files.writeString(dir.resolve("timeseries.csv"), csv.toString());
    long errors = perSecond.length;
    OperationResult read = new OperationResult(reads, errors, Map.of("timeout", errors), 3,
        (double) reads / perSecond.length, LatencyPercentiles.of(total), target ? LatencyPercentiles.of(actualTotal) : null, null);
    PhaseResult p = PhaseResult.ofOperations(Map.of("READ", read), perSecond.length, outage == null ? List.of()
        : List.of(outage));
    RunSummary s = RunSummary.start("ycsb", "workloadc", new ServerInfo("PostgreSQL", "17.11", ""))
        .withPhase("run", target ? p.toBuilder().latencyFrom(PhaseResult.INTENDED_START).build() : p)
        .withState("complete", null);
    RunDirectory.JSON.writeValue(dir.resolve(RunSummary.FILE).toFile(), s);
    return dir;
  }

  private static Histogram interval(long start, long micros, long count) {
    Histogram h = new Histogram(3);
    h.recordValueWithCount(micros, count);
    h.setStartTimeStamp(start);
    h.setEndTimeStamp(start + 1000);
    return h;
  }

  @Test
  void countsAddUpAndPercentilesComeFromTheAddedHistograms() throws Exception {
    Path a = client("a", 0, new long[] {300, 300, 300}, 1000, false, new PhaseResult.Outage(2.0, 3.0));
    Path b = client("b", 300, new long[] {30, 40, 30}, 9000, false, new PhaseResult.Outage(4.0, 2.0));
    PhaseMerge.Merged m = PhaseMerge.of(List.of(a, b), "run");
    OperationResult read = m.phase().operations().get("READ");
    assertEquals(1000, read.successes());
    assertEquals(6, read.errors());
    assertEquals(6, read.retries());
    assertEquals(Map.of("timeout", 6L), read.errorsByClass());
    assertEquals(3.0, m.phase().durationS());
    assertEquals(333.3, read.throughputOps(), "successes over the longest part's window");
    assertEquals(1000, read.latencyUs().count());
    // 90 % of the merged reads took 1 ms and 10 % 9 ms: the p95 is 9 ms, which neither part's p95 averages to.
    assertEquals(new Histogram(3).highestEquivalentValue(1000), read.latencyUs().p50());
    assertEquals(new Histogram(3).highestEquivalentValue(9000), read.latencyUs().p95());
    assertNull(read.latencyActualUs());
    assertEquals(List.of(new PhaseResult.Outage(2.0, 4.0)), m.phase().outages(), "overlapping outages count once");
  }

  @Test
  void secondsAlignOnTheWallClock() throws Exception {
    Path a = client("a", 0, new long[] {100, 200, 300}, 1000, false, null);
    Path b = client("b", 300, new long[] {10, 20, 30}, 1000, false, null);
    Path late = client("late", 700, new long[] {1, 2}, 1000, false, null); // its first second is mostly a's second 1
    PhaseMerge.Merged m = PhaseMerge.of(List.of(a, b, late), "run");
    assertEquals(T0, m.originMillis());
    List<Timeseries.Row> rows = m.rows();
    assertEquals(List.of(110.0, 221.0, 332.0), rows.stream().map(Timeseries.Row::throughput).toList());
    assertEquals(List.of(2L, 3L, 3L), rows.stream().map(Timeseries.Row::errors).toList());
    assertEquals(List.of(1.0, 2.0, 3.0), rows.stream().map(Timeseries.Row::elapsed).toList());

    m.writeLogs(root.resolve("merged"));
    List<Histogram> written = HlogFiles.intervals(root.resolve("merged").resolve("run-READ.hlog"));
    assertEquals(List.of(110L, 221L, 332L), written.stream().map(Histogram::getTotalCount).toList());
    assertEquals(T0 + 1000, written.get(1).getStartTimeStamp(), "each interval is its wall-clock second");
    assertEquals(663, HlogFiles.totals(root.resolve("merged"), "run").get("READ").getTotalCount());
  }

  /**
   * An engine that logs one latency interval for its whole phase (sysbench): the merged
   * timeseries is the parts' reported throughput added up on the wall clock, with no percentiles,
   * not the one interval's count in one second; the totals are the same either way.
   */
  @Test
  void oneIntervalForAWholePhaseTakesTheReportedThroughput() throws Exception {
    Path a = client("a", 0, new long[] {100, 200, 300}, 1000, false, null);
    Path b = client("b", 300, new long[] {10, 20, 30}, 1000, false, null);
    for (Path part : List.of(a, b)) { // the per-second intervals folded into one, as sysbench's histogram
      List<Histogram> intervals = HlogFiles.intervals(part.resolve("latency").resolve("run-READ.hlog"));
      Histogram whole = new Histogram(3);
      intervals.forEach(whole::add);
      whole.setStartTimeStamp(intervals.get(0).getStartTimeStamp());
      whole.setEndTimeStamp(intervals.get(intervals.size() - 1).getEndTimeStamp());
      HlogFiles.writeIntervals(part.resolve("latency"), "run", "READ", List.of(whole));
    }
    PhaseMerge.Merged m = PhaseMerge.of(List.of(a, b), "run");
    assertEquals(List.of(0.0, 660.0, 0.0), m.rows().stream().map(Timeseries.Row::throughput).toList(),
        "from the latency log: everything in the one interval's middle second");
    List<Timeseries.Row> rows = m.withReportedTimeseries().rows();
    assertEquals(List.of(110.0, 220.0, 330.0), rows.stream().map(Timeseries.Row::throughput).toList());
    assertEquals(List.of(2L, 2L, 2L), rows.stream().map(Timeseries.Row::errors).toList());
    assertNull(rows.get(1).p50(), "a percentile a second does not add up");
    assertEquals(660, m.phase().operations().get("READ").latencyUs().count());
  }

  @Test
  void underATargetRateBothLatenciesMerge() throws Exception {
    Path a = client("a", 0, new long[] {50}, 4000, true, null);
    Path b = client("b", 0, new long[] {70}, 4000, true, null);
    PhaseMerge.Merged m = PhaseMerge.of(List.of(a, b), "run");
    assertEquals(PhaseResult.INTENDED_START, m.phase().latencyFrom());
    assertEquals(120, m.phase().operations().get("READ").latencyActualUs().count());
    assertEquals(new Histogram(3).highestEquivalentValue(2000),
        m.phase().operations().get("READ").latencyActualUs().p50());
    m.writeLogs(root.resolve("merged"));
    assertEquals(120, HlogFiles.totals(root.resolve("merged").resolve(PhaseRecorder.ACTUAL_DIR), "run").get("READ")
        .getTotalCount());
  }
}
