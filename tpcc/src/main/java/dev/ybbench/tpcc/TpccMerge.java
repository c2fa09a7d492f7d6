package dev.ybbench.tpcc;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.Latency;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.tpcc.txn.ExecutePhase;
import dev.ybbench.tpcc.txn.TransactionKind;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * One result for a database that several client machines drove at once, each with its own
 * --start-warehouse range: counts and tpmC add up, and latency percentiles come from the
 * clients' HdrHistograms added together, which is exact. Only complete runs are merged: a
 * failed or interrupted client would make the sum stand for less than was asked.
 */
final class TpccMerge {
  private TpccMerge() {}

  static Path merge(List<Path> runs, Path resultsRoot) throws IOException {
    List<RunSummary> parts = new ArrayList<>();
    for (Path r : runs) {
      RunSummary s = RunSummary.read(r);
      if (!"tpcc".equals(s.bench()) || s.phase(ExecutePhase.PHASE) == null) {
        throw new UserError(r + " holds no TPC-C execute phase to merge");
      }
      if (!RunInfo.COMPLETE.equals(s.state())) {
        throw new UserError("Cannot merge " + r + ": it is " + s.state()
            + (s.reason() == null ? "" : " (" + s.reason() + ")"));
      }
      parts.add(s);
    }
    RunSummary first = parts.get(0);
    for (RunSummary s : parts) {
      if (!s.server().equals(first.server())) {
        throw new UserError("Cannot merge runs against different servers: " + first.server() + " and " + s.server());
      }
    }
    Map<String, Histogram> latency = new TreeMap<>();
    Map<String, long[]> counts = new TreeMap<>(); // successes, errors, retries, unknown outcomes
    Map<String, Long> afterWindow = new TreeMap<>();
    Map<String, PhaseResult.TerminalWaits> waits = new LinkedHashMap<>();
    Map<String, Map<String, Long>> errorClasses = new TreeMap<>();
    double tpmC = 0;
    double seconds = 0;
    int warehouses = 0;
    int terminals = 0;
    for (int i = 0; i < runs.size(); i++) {
      RunSummary s = parts.get(i);
      PhaseResult exec = s.phase(ExecutePhase.PHASE);
      tpmC += exec.tpmC();
      seconds = Math.max(seconds, exec.durationS());
      warehouses += s.warehouses();
      terminals += s.terminals();
      exec.operations().forEach((name, op) -> {
        long[] c = counts.computeIfAbsent(name, k -> new long[4]);
        c[0] += op.successes();
        c[1] += op.errors();
        c[2] += op.retries();
        c[3] += op.unknownOutcomes() == null ? 0 : op.unknownOutcomes();
        op.errorsByClass().forEach((cls, n) -> errorClasses.computeIfAbsent(name, k -> new TreeMap<>())
            .merge(cls, n, Long::sum));
      });
      if (exec.terminalWaits() != null) {
        exec.terminalWaits().forEach((name, w) -> waits.merge(name, w, PhaseResult.TerminalWaits::plus));
      }
      if (exec.afterWindow() != null) {
        exec.afterWindow().forEach((name, n) -> afterWindow.merge(name, n, Long::sum));
      }
      HlogFiles.totals(runs.get(i).resolve("latency"), ExecutePhase.PHASE)
          .forEach((op, h) -> latency.computeIfAbsent(op, k -> new Histogram(3)).add(h));
    }
    Map<String, OperationResult> ops = new LinkedHashMap<>();
    double window = seconds;
    counts.forEach((op, c) -> ops.put(op, new OperationResult(c[0], c[1], errorClasses.getOrDefault(op, Map.of()),
        c[2], Math.round(c[0] / window * 10) / 10.0, Latency.of(latency.get(op)), null, c[3] == 0 ? null : c[3])));
    PhaseResult firstExec = first.phase(ExecutePhase.PHASE);
    // The parts' own limits say whether their Deliveries were deferred (judged from queueing, against 80 s).
    PhaseResult.ResponseTimeLimit delivery = firstExec.responseTimeLimits() == null ? null
        : firstExec.responseTimeLimits().get(TransactionKind.DELIVERY.benchbaseName());
    boolean deferred = delivery != null && delivery.limitS() == TransactionKind.DEFERRED_DELIVERY_LIMIT_SECONDS;
    PhaseResult exec = PhaseResult.ofOperations(ops, seconds, List.of())
        .withTpcc(tpmC, firstExec.efficiencyPct() == null ? null : TpccMetrics.efficiency(tpmC, warehouses),
            TpccMetrics.responseTimeLimits(latency, deferred))
        .withAfterWindow(afterWindow.isEmpty() ? null : afterWindow)
        .withTerminalWaits(waits.isEmpty() ? null : waits)
        .withLatencyFrom(first.phase(ExecutePhase.PHASE).latencyFrom());
    String workload = first.workload() + "-merged";
    List<String> from = runs.stream().map(Path::toString).toList();
    RunSummary summary = RunSummary.start("tpcc", workload, first.server().info())
        .withPhase(ExecutePhase.PHASE, exec).withTpcc(warehouses, terminals, null).withMergedFrom(from)
        .withState(RunInfo.COMPLETE, null);

    RunDirectory out = RunDirectory.create(resultsRoot, "tpcc", workload, first.server().info(), Instant.now());
    HlogFiles.write(out.latencyDir(), ExecutePhase.PHASE, latency);
    out.writeJson(RunSummary.FILE, summary);
    RunInfo info = new RunInfo("tpcc", workload, null, Instant.now())
        .put("merged_from", from)
        .end(RunInfo.COMPLETE, Instant.now(), null);
    out.writeJson("run.json", info.tree());
    return out.path();
  }
}
