package dev.ybbench.harness.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.metrics.PhaseRecorder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Merging one phase of several clients' runs on hand-made run directories with known counts. */
class PhaseMergeTest {
  @TempDir
  Path root;

  /** A run whose READ phase holds {@code reads} successes at {@code micros} each, over {@code seconds}. */
  private Path client(String name, long reads, long micros, long errors, double seconds, boolean target,
      PhaseResult.Outage outage) throws Exception {
    Path dir = root.resolve(name);
    Histogram h = new Histogram(3);
    h.recordValueWithCount(micros, reads);
    HlogFiles.write(dir.resolve("latency"), "run", Map.of("READ", h));
    Histogram actual = new Histogram(3);
    actual.recordValueWithCount(micros / 2, reads);
    if (target) {
      HlogFiles.write(dir.resolve("latency").resolve(PhaseRecorder.ACTUAL_DIR), "run", Map.of("READ", actual));
    }
    OperationResult read = new OperationResult(reads, errors, Map.of("timeout", errors), 3, reads / seconds,
        Latency.of(h), target ? Latency.of(actual) : null, null);
    PhaseResult p = PhaseResult.ofOperations(Map.of("READ", read), seconds, outage == null ? List.of()
        : List.of(outage));
    RunSummary s = RunSummary.start("ycsb", "workloadc", new ServerInfo("PostgreSQL", "17.11", ""))
        .withPhase("run", target ? p.withLatencyFrom(PhaseResult.INTENDED_START) : p).withState("complete", null);
    Files.createDirectories(dir);
    RunDirectory.JSON.writeValue(dir.resolve(RunSummary.FILE).toFile(), s);
    return dir;
  }

  @Test
  void countsAddUpAndPercentilesComeFromTheAddedHistograms() throws Exception {
    Path a = client("a", 900, 1000, 2, 10.0, false, new PhaseResult.Outage(2.0, 3.0));
    Path b = client("b", 100, 9000, 1, 10.4, false, new PhaseResult.Outage(4.0, 2.0));
    PhaseMerge.Merged m = PhaseMerge.of(List.of(a, b), "run");
    OperationResult read = m.phase().operations().get("READ");
    assertEquals(1000, read.successes());
    assertEquals(3, read.errors());
    assertEquals(6, read.retries());
    assertEquals(Map.of("timeout", 3L), read.errorsByClass());
    assertEquals(10.4, m.phase().durationS());
    assertEquals(96.2, read.throughputOps(), "successes over the longest part's window");
    assertEquals(1000, read.latencyUs().count());
    // 90 % of the merged reads took 1 ms and 10 % 9 ms: the p95 is 9 ms, which neither part's p95 averages to.
    assertEquals(new Histogram(3).highestEquivalentValue(1000), read.latencyUs().p50());
    assertEquals(new Histogram(3).highestEquivalentValue(9000), read.latencyUs().p95());
    assertNull(read.latencyActualUs());
    assertEquals(List.of(new PhaseResult.Outage(2.0, 4.0)), m.phase().outages(), "overlapping outages count once");

    m.write(root.resolve("merged"), "run");
    assertEquals(1000, HlogFiles.totals(root.resolve("merged"), "run").get("READ").getTotalCount());
  }

  @Test
  void underATargetRateBothLatenciesMerge() throws Exception {
    Path a = client("a", 50, 4000, 0, 5, true, null);
    Path b = client("b", 70, 4000, 0, 5, true, null);
    PhaseMerge.Merged m = PhaseMerge.of(List.of(a, b), "run");
    assertEquals(PhaseResult.INTENDED_START, m.phase().latencyFrom());
    assertEquals(120, m.phase().operations().get("READ").latencyActualUs().count());
    assertEquals(new Histogram(3).highestEquivalentValue(2000), m.phase().operations().get("READ").latencyActualUs().p50());
    m.write(root.resolve("merged"), "run");
    assertEquals(120, HlogFiles.totals(root.resolve("merged").resolve(PhaseRecorder.ACTUAL_DIR), "run").get("READ")
        .getTotalCount());
  }
}
