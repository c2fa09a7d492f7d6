package dev.ybbench.tpcc.interop;

import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.run.PhaseCheck;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.config.TransactionSpec;
import dev.ybbench.tpcc.core.TpccFigures;
import dev.ybbench.tpcc.core.TpccMetrics;
import java.io.BufferedReader;
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
 * {@code --import DIR}: another TPC-C driver's results directory as one of our run directories,
 * so compare.sh sets those runs beside ours. The readers ({@link BenchBaseImport},
 * {@link YugabyteTpccImport}) say what their driver's files hold; this writes it as a run of ours
 * writes it: per type its counts and latency, second by second into {@code latency/*.hlog} and
 * {@code timeseries.csv}, tpmC, the config's works and waits as parameters, the server as the
 * driver recorded it, and which driver made the numbers.
 */
public final class TpccImport {
  private TpccImport() {}

  /**
   * A type's outcomes beside its rows.
   *
   * @param errors          transactions that failed
   * @param retries         attempts retried
   * @param errorsAmongRows whether the rows hold the failed ones too (so successes are rows less
   *                        errors) or successes only
   */
  public record Counts(long errors, long retries, boolean errorsAmongRows) {}

  /**
   * One imported run.
   *
   * @param engine    the driver that made it, as run.json's harness.engine
   * @param byWork    work index (from 0) → type → rows of {start (epoch s), latency (µs)}
   * @param counts    type → its outcomes; null when the driver's files do not say (then reason)
   * @param seconds   the measured time of a single work (several: each work's own span)
   * @param errorName how a failure is named in the operation's error counts
   * @param reason    why its counts cannot stand, or null
   * @param more      the driver's own settings, as further parameters
   */
  public record Imported(String engine, Path from, ServerInfo server, Instant started, Instant ended, int warehouses,
      int terminals, String isolation, TpccConfig config, Map<Integer, Map<String, List<double[]>>> byWork,
      Map<String, Counts> counts, double seconds, String errorName, String reason, Map<String, String> more) {

    /**
     * Each work as one of our phases ({@code execute}, {@code execute-2} …), writing its latency
     * logs into {@code latencyDir} and its seconds into {@code ts}.
     */
    public Map<String, PhaseResult> phases(Path latencyDir, Timeseries ts) throws IOException {
      Map<String, PhaseResult> out = new LinkedHashMap<>();
      for (Map.Entry<Integer, Map<String, List<double[]>>> work : byWork.entrySet()) {
        String phase = TpccConfig.phase(work.getKey());
        double phaseSeconds = byWork.size() == 1 ? seconds : span(work.getValue());
        out.put(phase, phase(latencyDir, ts, phase, work.getValue(), phaseSeconds));
      }
      return out;
    }

    /** One work: per type its counts and latency; per second its throughput and percentiles. */
    private PhaseResult phase(Path latencyDir, Timeseries ts, String phase, Map<String, List<double[]>> byType,
        double phaseSeconds) throws IOException {
      double start = byType.values().stream().flatMap(List::stream).mapToDouble(r -> r[0]).min().orElse(0);
      Map<String, OperationResult> ops = new LinkedHashMap<>();
      TreeMap<Long, Histogram> all = new TreeMap<>();
      for (String type : TransactionSpec.names()) {
        List<double[]> rows = byType.get(type);
        if (rows == null) {
          continue;
        }
        TreeMap<Long, Histogram> perSecond = new TreeMap<>();
        Histogram total = new Histogram(3);
        for (double[] r : rows) {
          long micros = (long) r[1];
          long second = (long) Math.floor(r[0] + micros / 1e6 - start);
          perSecond.computeIfAbsent(second, k -> interval(start, k)).recordValue(micros);
          all.computeIfAbsent(second, k -> interval(start, k)).recordValue(micros);
          total.recordValue(micros);
        }
        HlogFiles.writeIntervals(latencyDir, phase, type, new ArrayList<>(perSecond.values()));
        Counts c = counts == null ? null : counts.getOrDefault(type, new Counts(0, 0, false));
        long errors = c == null ? 0 : c.errors();
        long successes = c != null && c.errorsAmongRows() ? Math.max(0, rows.size() - errors) : rows.size();
        ops.put(type, new OperationResult(successes, errors, errors == 0 ? Map.of() : Map.of(errorName, errors),
            c == null ? 0 : c.retries(), Math.round(successes / phaseSeconds * 10) / 10.0, LatencyPercentiles.of(total), null,
            null));
      }
      all.forEach((second, h) -> ts.append(new Timeseries.Row(phase, second + 1, h.getTotalCount(),
          h.getValueAtPercentile(50), h.getValueAtPercentile(95), h.getValueAtPercentile(99), 0, 0)));
      PhaseResult p = PhaseResult.ofOperations(ops, phaseSeconds, List.of());
      Map<String, Histogram> latency = new TreeMap<>();
      HlogFiles.totals(latencyDir, phase).forEach(latency::put);
      return TpccFigures.with(p, TpccFigures.work(TpccMetrics.tpmC(ops, phaseSeconds), null,
          TpccMetrics.responseTimeLimits(latency, false), null, null));
    }
  }

  /** Reads whichever driver's results {@code dir} holds; a {@link UserError} when it holds neither. */
  /** One transaction row of a foreign CSV, split on commas; it throws on a row it cannot take. */
  interface Row {
    void accept(String[] fields);
  }

  /**
   * Every non-blank line {@code in} has left (its header lines read, {@code linesRead} of them),
   * given to {@code row}; a row it cannot take is a one-line error naming the file and line.
   */
  static void rows(BufferedReader in, Path file, int linesRead, Row row) throws IOException {
    int line = linesRead;
    for (String l; (l = in.readLine()) != null; ) {
      line++;
      if (l.isBlank()) {
        continue;
      }
      try {
        row.accept(l.split(","));
      } catch (RuntimeException e) {
        throw new UserError(file + ":" + line + ": not a TPC-C transaction row: " + l);
      }
    }
  }

  public static Imported read(Path dir) throws IOException {
    if (BenchBaseImport.holds(dir)) {
      return BenchBaseImport.read(dir);
    }
    if (YugabyteTpccImport.holds(dir)) {
      return YugabyteTpccImport.read(dir);
    }
    throw new UserError("--import " + dir + " holds neither a BenchBase TPC-C run (*.summary.json, *.raw.csv) nor a "
        + "yugabyte/tpcc one (json/output.json, oltpbench*.csv); give the directory its results were written to");
  }

  /**
   * Imports {@code dir} into a new run directory under {@code resultsRoot}; returns its path.
   *
   * @param workload the name of the config the run used, so that it pairs with ours of the same
   *                 config in compare.sh (the drivers keep the config, not its name); null: the
   *                 driver's name
   * @param label    --label, or null
   * @param limits   what a phase may lose to errors and outages, as for our runs
   */
  public static Path run(Path dir, Path resultsRoot, String workload, String label, PhaseCheck.Limits limits)
      throws IOException {
    Imported r = read(dir);
    String name = workload != null ? workload : r.engine().toLowerCase().replaceAll("[^a-z0-9]+", "-");
    RunDirectory out = RunDirectory.create(resultsRoot, "tpcc", name, r.server(), r.started());
    RunSummary summary = RunSummary.start("tpcc", name, r.server());
    try (Timeseries ts = new Timeseries(out.timeseries())) {
      for (Map.Entry<String, PhaseResult> p : r.phases(out.latencyDir(), ts).entrySet()) {
        summary = summary.withPhase(p.getKey(), p.getValue());
      }
    }
    String reason = r.reason();
    for (Map.Entry<String, PhaseResult> p : summary.phases().entrySet()) {
      reason = reason != null ? reason : PhaseCheck.problem(p.getKey(), p.getValue(), limits);
    }
    String state = reason == null ? RunInfo.COMPLETE : RunInfo.FAILED;
    out.writeJson(RunSummary.FILE, summary.withExtension(TpccFigures.KEY, new TpccFigures.Run(r.warehouses(),
        r.terminals(), null)).withState(state, reason));
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("warehouses", Integer.toString(r.warehouses()));
    parameters.put("terminals", Integer.toString(r.terminals()));
    if (r.isolation() != null) {
      parameters.put("isolation", r.isolation());
    }
    if (r.config() != null) {
      parameters.putAll(r.config().workParameters(r.config().works()));
    }
    parameters.putAll(r.more());
    RunInfo info = new RunInfo("tpcc", name, label, r.started())
        .server(r.server(), false, null, null)
        .parameters(parameters)
        // What produced the numbers; the client machine is not recorded by these drivers.
        .put("harness", Map.of("engine", r.engine(), "imported_by", RunInfo.harnessVersion()))
        .put("host", Map.of())
        .put("imported_from", dir.toAbsolutePath().normalize().toString())
        .end(state, r.ended(), reason);
    out.writeJson("run.json", info.tree());
    return out.path();
  }

  private static Histogram interval(double start, long second) {
    Histogram h = new Histogram(3);
    long ms = (long) ((start + second) * 1000);
    h.setStartTimeStamp(ms);
    h.setEndTimeStamp(ms + 1000);
    return h;
  }

  private static double span(Map<String, List<double[]>> byType) {
    double first = Double.MAX_VALUE;
    double last = 0;
    for (List<double[]> rows : byType.values()) {
      for (double[] r : rows) {
        first = Math.min(first, r[0]);
        last = Math.max(last, r[0] + r[1] / 1e6);
      }
    }
    return Math.max(last - first, 0.001);
  }
}
