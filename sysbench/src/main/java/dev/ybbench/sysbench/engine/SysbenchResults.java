package dev.ybbench.sysbench.engine;

import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * sysbench's report as a phase of the results contract. Its events are the phase's operations,
 * {@value #TRANSACTION}: successes its transactions, retries its ignored errors (sysbench runs an
 * event again after a deadlock, a duplicate key or a serialization failure, all inside the one
 * event's time). Its statements, which it counts by kind but does not time, are the phase's
 * queries: read, write and other. Its pgsql driver counts a write that changed no row as other,
 * beside BEGIN and COMMIT (src/drivers/pgsql/drv_pgsql.c), so the statements on the tables, which
 * the server's count is audited against, are its reads, writes, and others but one BEGIN an
 * attempt and one COMMIT a transaction. Latency is its histogram's ({@code
 * --histogram}: 1,024 buckets on a log scale from 1 µs to 100 s, each about 1.8 % wide) put into
 * an HdrHistogram at each bucket's middle, from each event's actual start: sysbench 1.0 does
 * not time an event from when it was due. Per second: its interval lines, throughput and the one
 * percentile it reports ({@code --percentile}).
 */
public final class SysbenchResults {
  private SysbenchResults() {}

  public static final String TRANSACTION = "transaction";

  /**
   * The phase sysbench reported, its histogram written to {@code latencyDir} and its intervals to
   * {@code ts}. Without final statistics (a run cut short by Ctrl-C) the counts come from the
   * interval lines and there is no latency.
   *
   * @param begins      whether its events are BEGIN … COMMIT
   * @param startMillis when the phase began, for the latency log's timestamps
   */
  public static PhaseResult phase(SysbenchReport r, boolean begins, String phase, long startMillis, Path latencyDir,
      Timeseries ts) throws IOException {
    intervals(r.intervals(), phase, ts);
    SysbenchReport.Statistics s = r.statistics();
    if (s == null) {
      return fromIntervals(r.intervals(), begins);
    }
    double seconds = s.totalTimeS();
    Histogram h = new Histogram(3);
    for (SysbenchReport.Bucket b : r.histogram()) {
      h.recordValueWithCount(Math.max(1, Math.round(b.valueMs() * 1000)), b.count());
    }
    h.setStartTimeStamp(startMillis);
    h.setEndTimeStamp(startMillis + Math.round(seconds * 1000));
    HlogFiles.writeIntervals(latencyDir, phase, TRANSACTION, List.of(h));
    OperationResult events = new OperationResult(s.transactions(), 0, Map.of(), s.ignoredErrors(),
        PhaseResult.round(s.transactions() / seconds), LatencyPercentiles.of(h));
    return SysbenchFigures.with(PhaseResult.ofOperations(Map.of(TRANSACTION, events), seconds, List.of()),
        queries(s.reads(), s.writes(), s.other(), seconds), onTables(s.reads(), s.writes(), s.other(),
            begins ? 2 * s.transactions() + s.ignoredErrors() : 0));
  }

  static long onTables(long reads, long writes, long other, long beginsAndCommits) {
    return reads + writes + Math.max(0, other - beginsAndCommits);
  }

  private static Map<String, OperationResult> queries(long reads, long writes, long other, double seconds) {
    Map<String, OperationResult> q = new LinkedHashMap<>();
    q.put("read", new OperationResult(reads, 0, Map.of(), 0, PhaseResult.round(reads / seconds), null));
    q.put("write", new OperationResult(writes, 0, Map.of(), 0, PhaseResult.round(writes / seconds), null));
    q.put("other", new OperationResult(other, 0, Map.of(), 0,
        PhaseResult.round(other / seconds), null));
    return q;
  }

  /** What the interval lines add up to: each rate times its interval. */
  static PhaseResult fromIntervals(List<SysbenchReport.Interval> intervals, boolean begins) {
    double[] sum = new double[5];
    double last = 0;
    for (SysbenchReport.Interval i : intervals) {
      double dt = i.elapsedS() - last;
      last = i.elapsedS();
      sum[0] += i.tps() * dt;
      sum[1] += i.readsPerS() * dt;
      sum[2] += i.writesPerS() * dt;
      sum[3] += i.otherPerS() * dt;
      sum[4] += i.errorsPerS() * dt;
    }
    double seconds = Math.max(last, 0.001);
    long transactions = Math.round(sum[0]);
    OperationResult events = new OperationResult(transactions, 0, Map.of(), Math.round(sum[4]),
        PhaseResult.round(transactions / seconds), null);
    long reads = Math.round(sum[1]);
    long writes = Math.round(sum[2]);
    long other = Math.round(sum[3]);
    return SysbenchFigures.with(PhaseResult.ofOperations(Map.of(TRANSACTION, events), seconds, List.of()),
        queries(reads, writes, other, seconds), onTables(reads, writes, other,
            begins ? 2 * transactions + events.retries() : 0));
  }

  private static void intervals(List<SysbenchReport.Interval> intervals, String phase, Timeseries ts) {
    double last = 0;
    for (SysbenchReport.Interval i : intervals) {
      double dt = i.elapsedS() - last;
      last = i.elapsedS();
      Long at = Math.round(i.latencyMs() * 1000);
      ts.append(new Timeseries.Row(phase, i.elapsedS(), i.tps(), i.percentile() == 50 ? at : null,
          i.percentile() == 95 ? at : null, i.percentile() == 99 ? at : null, 0, Math.round(i.errorsPerS() * dt)));
    }
  }
}
