package dev.ybbench.tpcc.interop;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.config.TransactionSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A BenchBase TPC-C results directory ({@code -d DIR}), for {@link TpccImport}. What BenchBase
 * writes, by its ResultWriter:
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
 * {@code failed}, saying why. Latency per type is from raw.csv; tpmC is New-Orders, those rolled
 * back included, per minute of the measured time.
 */
public final class BenchBaseImport {
  private BenchBaseImport() {}

  private static final String SUMMARY = ".summary.json";

  /** Whether {@code dir} holds a BenchBase run's summary. */
  public static boolean holds(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new UserError("--import " + dir + ": no such directory");
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.anyMatch(p -> p.getFileName().toString().endsWith(SUMMARY));
    }
  }

  /** Reads a BenchBase TPC-C results directory; a {@link UserError} when it is not one. */
  public static TpccImport.Imported read(Path dir) throws IOException {
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
    Map<String, TpccImport.Counts> counts = outcomes(dir);
    String reason = counts != null ? null : "BenchBase's raw.csv does not say which of its " + s.path(
        "Measured Requests").asLong() + " transactions failed; run it with -jh FILE into its results directory and "
        + "import again";
    TpccConfig config = readConfig(dir.resolve(base + ".config.xml"));
    long endMs = s.path("Current Timestamp (milliseconds)").asLong();
    return new TpccImport.Imported("BenchBase", dir, ServerInfo.fromSqlVersion(s.path("DBMS Version").asText("")),
        Instant.ofEpochMilli(s.path("Start timestamp (milliseconds)").asLong(endMs)), Instant.ofEpochMilli(endMs),
        s.path("scalefactor").asInt(config == null ? 0 : config.scaleFactor()),
        s.path("terminals").asInt(config == null ? 0 : config.terminals()),
        s.path("isolation").asText(config == null ? null : config.isolation()), config, readRaw(raw), counts, seconds,
        "benchbase-unexpected", reason, Map.of());
  }

  /** raw.csv as work → type → rows of {start (epoch s), latency (µs)}. */
  private static Map<Integer, Map<String, List<double[]>>> readRaw(Path raw) throws IOException {
    Map<Integer, Map<String, List<double[]>>> out = new TreeMap<>();
    try (BufferedReader in = Files.newBufferedReader(raw)) {
      String header = in.readLine();
      if (header == null || !header.startsWith("Transaction Type Index,Transaction Name,")) {
        throw new UserError(raw + " does not start with BenchBase's raw.csv header");
      }
      TpccImport.rows(in, raw, 1, f -> {
        String type = f[1].strip();
        TransactionSpec.named(type);
        // BenchBase numbers its works from 1 ("Phase Id"); ours are indexes from 0.
        int work = f.length > 5 ? Integer.parseInt(f[5].strip()) - 1 : 0;
        if (work < 0) {
          throw new NumberFormatException("phase id " + f[5]);
        }
        out.computeIfAbsent(work, k -> new TreeMap<>()).computeIfAbsent(type, k -> new ArrayList<>())
            .add(new double[] {Double.parseDouble(f[2].strip()), Double.parseDouble(f[3].strip())});
      });
    }
    if (out.isEmpty()) {
      throw new UserError(raw + " holds no transactions");
    }
    return out;
  }

  /**
   * The {@code -jh} file's counts per type, from any JSON file in {@code dir} that holds them
   * (its "unexpected" as errors, "rejected" as retries, both over the whole run); null without one.
   */
  private static Map<String, TpccImport.Counts> outcomes(Path dir) throws IOException {
    List<Path> candidates;
    try (Stream<Path> s = Files.list(dir)) {
      candidates = s.filter(p -> p.toString().endsWith(".json") && !p.toString().endsWith(SUMMARY)).sorted().toList();
    }
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
      Map<String, Long> errors = perType(j.path("unexpected"));
      Map<String, Long> retries = perType(j.path("rejected"));
      Map<String, TpccImport.Counts> out = new TreeMap<>();
      for (String type : TransactionSpec.names()) {
        out.put(type, new TpccImport.Counts(errors.getOrDefault(type, 0L), retries.getOrDefault(type, 0L), true));
      }
      return out;
    }
    return null;
  }

  /** "com.oltpbenchmark.benchmarks.tpcc.procedures.NewOrder/01": 3 → NewOrder: 3. */
  private static Map<String, Long> perType(JsonNode histogram) {
    Map<String, Long> out = new TreeMap<>();
    histogram.path("HISTOGRAM").fields().forEachRemaining(e -> out.merge(
        e.getKey().replaceFirst("/\\d+$", "").replaceFirst("^.*\\.", ""), e.getValue().asLong(), Long::sum));
    return out;
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
