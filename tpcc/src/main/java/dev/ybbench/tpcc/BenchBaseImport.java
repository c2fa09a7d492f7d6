package dev.ybbench.tpcc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.Latency;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.txn.ExecutePhase;
import dev.ybbench.tpcc.txn.TransactionKind;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * A BenchBase TPC-C results directory ({@code -d DIR}) as one of our run directories, so that
 * compare.sh sets BenchBase's runs beside ours. What BenchBase writes, by its ResultWriter:
 * {@code <bench>_<time>.summary.json} (DBMS version, elapsed time of the measured phase, measured
 * requests, goodput), {@code .raw.csv} (every measured transaction: its type, start in epoch
 * seconds, latency in µs, and its work's number from 1), {@code .config.xml} (the config, connection
 * elements removed), and, when run with {@code -jh FILE}, a histograms file with each type's
 * completed, aborted, rejected (retried) and unexpected (failed) counts.
 *
 * <p>raw.csv holds every measured transaction whatever its outcome, without saying which failed;
 * the histograms file counts outcomes per type, but over the whole run, warm-up and every work
 * included (so does BenchBase's "goodput", which can exceed its throughput), and a transaction
 * that ran out of retries is counted among the retried, not the failed. So a type's errors and
 * retries here are BenchBase's whole-run counts, at most that many in the measured window, and
 * its successes are its measured rows less those errors: exact when it had no errors, otherwise a
 * lower bound. A New-Order rolled back by design (clause 2.4.2.3) cannot be told from one that
 * committed, so New-Order's successes include them (ours count them apart, as NewOrderRollback).
 * Without the histograms file nothing says whether any failed, and the import is recorded as
 * {@code failed}, saying why. Latency per type is from raw.csv, added second by second into
 * {@code latency/*.hlog} and {@code timeseries.csv}, as a run of ours writes them. tpmC is
 * New-Orders, those rolled back included, per minute of the measured time.
 */
final class BenchBaseImport {
  private BenchBaseImport() {}

  private static final String SUMMARY = ".summary.json";

  /**
   * One BenchBase TPC-C run as read from its results directory.
   *
   * @param byWork   work index → type → rows of {start (epoch s), latency (µs)}
   * @param outcomes type → completed, aborted, rejected, unexpected (its -jh file), or null
   * @param seconds  the measured time
   * @param reason   why its counts cannot stand, or null
   */
  record Results(JsonNode summary, TpccConfig config, Map<Integer, Map<String, List<double[]>>> byWork,
      Map<String, long[]> outcomes, double seconds, String reason) {
    ServerInfo server() {
      return ServerInfo.fromSqlVersion(summary.path("DBMS Version").asText(""));
    }

    int warehouses() {
      return summary.path("scalefactor").asInt(config == null ? 0 : config.scaleFactor());
    }

    int terminals() {
      return summary.path("terminals").asInt(config == null ? 0 : config.terminals());
    }

    /**
     * Each work as one of our phases ({@code execute}, {@code execute-2} …), writing its latency
     * logs into {@code latencyDir} and its seconds into {@code ts}.
     */
    Map<String, PhaseResult> phases(Path latencyDir, Timeseries ts) throws IOException {
      Map<String, PhaseResult> out = new LinkedHashMap<>();
      for (Map.Entry<Integer, Map<String, List<double[]>>> work : byWork.entrySet()) {
        String phase = ExecutePhase.phase(work.getKey());
        // The summary's elapsed time is the whole measured run; with several works, each work's own span.
        double phaseSeconds = byWork.size() == 1 ? seconds : span(work.getValue());
        out.put(phase, phase(latencyDir, ts, phase, work.getValue(), phaseSeconds, outcomes));
      }
      return out;
    }
  }

  /** Reads a BenchBase TPC-C results directory; a {@link UserError} when it is not one. */
  static Results read(Path dir) throws IOException {
    Path summaryFile = onlySummary(dir);
    String base = summaryFile.getFileName().toString().replace(SUMMARY, "");
    JsonNode s = RunDirectory.JSON.readTree(summaryFile.toFile());
    if (!"tpcc".equalsIgnoreCase(s.path("Benchmark Type").asText())) {
      throw new UserError(summaryFile + " is a BenchBase " + s.path("Benchmark Type").asText("?") + " run; --import "
          + "reads TPC-C runs");
    }
    Path raw = dir.resolve(base + ".raw.csv");
    if (!Files.isRegularFile(raw)) {
      throw new UserError(dir + " has no " + raw.getFileName() + ": BenchBase writes it with --execute=true");
    }
    double seconds = s.path("Elapsed Time (nanoseconds)").asLong() / 1e9;
    if (seconds <= 0) {
      throw new UserError(summaryFile + " has no \"Elapsed Time (nanoseconds)\": a BenchBase older than this import "
          + "reads");
    }
    Map<String, long[]> outcomes = outcomes(dir);
    String reason = outcomes != null ? null : "BenchBase's raw.csv does not say which of its " + s.path(
        "Measured Requests").asLong() + " transactions failed; run it with -jh FILE into its results directory and "
        + "import again";
    return new Results(s, readConfig(dir.resolve(base + ".config.xml")), readRaw(raw), outcomes, seconds, reason);
  }

  /**
   * Imports {@code dir} into a new run directory under {@code resultsRoot}; returns its path.
   *
   * @param workload the name of the config the run used, so that it pairs with ours of the same
   *                 config in compare.sh (BenchBase keeps the config, not its name); null: "benchbase"
   */
  static Path run(Path dir, Path resultsRoot, String workload) throws IOException {
    Results r = read(dir);
    String name = workload != null ? workload : "benchbase";
    JsonNode s = r.summary();
    ServerInfo server = r.server();
    Instant started = Instant.ofEpochMilli(s.path("Start timestamp (milliseconds)").asLong(
        s.path("Current Timestamp (milliseconds)").asLong()));
    RunDirectory out = RunDirectory.create(resultsRoot, "tpcc", name, server, started);
    RunSummary summary = RunSummary.start("tpcc", name, server);
    try (Timeseries ts = new Timeseries(out.timeseries())) {
      for (Map.Entry<String, PhaseResult> p : r.phases(out.latencyDir(), ts).entrySet()) {
        summary = summary.withPhase(p.getKey(), p.getValue());
      }
    }
    String state = r.reason() == null ? RunInfo.COMPLETE : RunInfo.FAILED;
    out.writeJson(RunSummary.FILE, summary.withTpcc(r.warehouses(), r.terminals(), null)
        .withState(state, r.reason()));
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("warehouses", Integer.toString(r.warehouses()));
    parameters.put("terminals", Integer.toString(r.terminals()));
    parameters.put("isolation", s.path("isolation").asText(r.config() == null ? "" : r.config().isolation()));
    if (r.config() != null) {
      parameters.putAll(RunTpcc.workParameters(r.config(), r.config().works()));
    }
    RunInfo info = new RunInfo("tpcc", name, null, started)
        .server(server, false, null, null)
        .parameters(parameters)
        // What produced the numbers; the client machine is not recorded by BenchBase.
        .put("harness", Map.of("engine", "BenchBase", "imported_by", RunInfo.harnessVersion()))
        .put("host", Map.of())
        .put("imported_from", dir.toAbsolutePath().normalize().toString())
        .end(state, Instant.ofEpochMilli(s.path("Current Timestamp (milliseconds)").asLong()), r.reason());
    out.writeJson("run.json", info.tree());
    return out.path();
  }

  /** One work: per type its counts and latency; per second its throughput and percentiles. */
  private static PhaseResult phase(Path latencyDir, Timeseries ts, String phase, Map<String, List<double[]>> byType,
      double seconds, Map<String, long[]> outcomes) throws IOException {
    double start = byType.values().stream().flatMap(List::stream).mapToDouble(r -> r[0]).min().orElse(0);
    Map<String, OperationResult> ops = new LinkedHashMap<>();
    TreeMap<Long, Histogram> all = new TreeMap<>();
    for (String type : TransactionKind.names()) {
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
      // rows are the type's measured transactions, whatever their outcome; BenchBase's outcome
      // counts span its whole run, warm-up and every work included: errors and retries are
      // recorded as those (at most that many in this window), and successes as the rows less them.
      long[] o = outcomes == null ? null : outcomes.get(type);
      long errors = o == null ? 0 : o[3];
      long retries = o == null ? 0 : o[2];
      long successes = Math.max(0, rows.size() - errors);
      ops.put(type, new OperationResult(successes, errors, errors == 0 ? Map.of() : Map.of("benchbase-unexpected",
          errors), retries, Math.round(successes / seconds * 10) / 10.0, Latency.of(total), null, null));
    }
    all.forEach((second, h) -> ts.append(new Timeseries.Row(phase, second + 1, h.getTotalCount(),
        h.getValueAtPercentile(50), h.getValueAtPercentile(95), h.getValueAtPercentile(99), 0, 0)));
    PhaseResult p = PhaseResult.ofOperations(ops, seconds, List.of());
    Map<String, Histogram> latency = new TreeMap<>();
    HlogFiles.totals(latencyDir, phase).forEach(latency::put);
    return p.withTpcc(TpccMetrics.tpmC(ops, seconds), null, TpccMetrics.responseTimeLimits(latency, false));
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

  /** raw.csv as work → type → rows of {start (epoch s), latency (µs)}. */
  private static Map<Integer, Map<String, List<double[]>>> readRaw(Path raw) throws IOException {
    Map<Integer, Map<String, List<double[]>>> out = new TreeMap<>();
    try (BufferedReader in = Files.newBufferedReader(raw)) {
      String header = in.readLine();
      if (header == null || !header.startsWith("Transaction Type Index,Transaction Name,")) {
        throw new UserError(raw + " does not start with BenchBase's raw.csv header");
      }
      int line = 1;
      for (String l; (l = in.readLine()) != null; ) {
        line++;
        if (l.isBlank()) {
          continue;
        }
        String[] f = l.split(",");
        try {
          String type = f[1].strip();
          TransactionKind.named(type);
          // BenchBase numbers its works from 1 ("Phase Id"); ours are indexes from 0.
          int work = f.length > 5 ? Integer.parseInt(f[5].strip()) - 1 : 0;
          if (work < 0) {
            throw new NumberFormatException("phase id " + f[5]);
          }
          out.computeIfAbsent(work, k -> new TreeMap<>()).computeIfAbsent(type, k -> new ArrayList<>())
              .add(new double[] {Double.parseDouble(f[2].strip()), Double.parseDouble(f[3].strip())});
        } catch (RuntimeException e) {
          throw new UserError(raw + ":" + line + ": not a TPC-C transaction row: " + l);
        }
      }
    }
    if (out.isEmpty()) {
      throw new UserError(raw + " holds no transactions");
    }
    return out;
  }

  /**
   * The {@code -jh} file's counts per type (completed, aborted, rejected, unexpected), from any
   * JSON file in {@code dir} that holds them; null without one.
   */
  private static Map<String, long[]> outcomes(Path dir) throws IOException {
    List<Path> candidates;
    try (Stream<Path> s = Files.list(dir)) {
      candidates = s.filter(p -> p.toString().endsWith(".json") && !p.toString().endsWith(SUMMARY)).sorted().toList();
    }
    List<String> keys = List.of("completed", "aborted", "rejected", "unexpected");
    for (Path p : candidates) {
      JsonNode j;
      try {
        j = RunDirectory.JSON.readTree(p.toFile());
      } catch (IOException e) {
        continue;
      }
      if (!j.has("completed") || !j.path("completed").has("HISTOGRAM")) {
        continue;
      }
      Map<String, long[]> out = new TreeMap<>();
      for (int k = 0; k < keys.size(); k++) {
        int which = k;
        j.path(keys.get(k)).path("HISTOGRAM").fields().forEachRemaining(e -> {
          // "com.oltpbenchmark.benchmarks.tpcc.procedures.NewOrder/01" → "NewOrder"
          String name = e.getKey().replaceFirst("/\\d+$", "").replaceFirst("^.*\\.", "");
          out.computeIfAbsent(name, n -> new long[4])[which] += e.getValue().asLong();
        });
      }
      return out;
    }
    return null;
  }

  private static TpccConfig readConfig(Path file) {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      return TpccConfig.read(file);
    } catch (UserError e) {
      return null;  // the counts stand without it; only the works' parameters are missing
    }
  }

  private static Path onlySummary(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new UserError("--import " + dir + ": no such directory");
    }
    List<Path> found;
    try (Stream<Path> s = Files.list(dir)) {
      found = s.filter(p -> p.getFileName().toString().endsWith(SUMMARY)).sorted().toList();
    }
    if (found.size() != 1) {
      throw new UserError("--import " + dir + " holds " + found.size() + " BenchBase summaries (*" + SUMMARY + "); "
          + "give a directory with one run's files");
    }
    return found.get(0);
  }
}
