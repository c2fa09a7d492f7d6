package dev.ybbench.analysis.history;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.analysis.compare.ComparedMetrics;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Benchmarks;
import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.run.Run;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Runs into the history and back: a run directory becomes one {@link HistoryStore.Entry} per
 * compared phase (with its key, and the noise of every metric the comparison reads, so that it is
 * compared the same once its directory is gone), and entries become runs a {@link Comparison}
 * takes like any other.
 */
public final class HistoryRuns {
  private HistoryRuns() {}

  /** JSON on one line: a column's value, not a file to read. */
  private static final com.fasterxml.jackson.databind.ObjectWriter COMPACT = RunDirectory.JSON.writer()
      .without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);

  /**
   * Records a run that just ended into {@code history} (a runner's --history) and says so in one
   * line; a run that cannot be recorded says why.
   *
   * @return the exit code: {@code exit} as it was, or 1 when a complete run could not be recorded
   *         (a pipeline that asked for its history must not read it as kept)
   */
  public static int record(String history, Path runDir, int exit, Consumer<String> out) {
    if (history == null || runDir == null) {
      return exit;
    }
    try (HistoryStore store = HistoryStore.open(history)) {
      List<HistoryStore.Entry> entries = of(runDir);
      if (entries.isEmpty()) {
        out.accept("History: nothing to record of " + runDir.getFileName() + " (no phase was measured)");
        return exit;
      }
      int added = store.record(entries);
      String key = entries.get(0).key();
      long runs = store.entries(key).stream().map(HistoryStore.Entry::runId).distinct().count();
      out.accept("History: " + (added == 0 ? "already had " : "recorded ") + runDir.getFileName() + " as " + key
          + " in " + store.shown() + " (" + runs + " run" + (runs == 1 ? "" : "s") + " of this key)");
      return exit;
    } catch (UserError e) {
      out.accept("error: the run was not recorded: " + e.getMessage());
      return exit == 0 ? 1 : exit;
    }
  }

  /** The entries of a run directory: its compared phase, then each later work of a TPC-C config. */
  public static List<HistoryStore.Entry> of(Path runDir) {
    RunGroup.Run read = RunGroup.read(runDir);
    List<HistoryStore.Entry> out = new ArrayList<>();
    if (read.phaseName() == null) {
      return out;  // nothing was measured (a run that failed before its first phase)
    }
    String runJson;
    String summaryJson;
    try {
      runJson = Files.readString(runDir.resolve("run.json"), StandardCharsets.UTF_8);
      summaryJson = Files.readString(runDir.resolve(RunSummary.FILE), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UserError("Cannot read the results in " + runDir + ": " + e.getMessage());
    }
    for (RunGroup.Run r : RunGroup.works(read)) {
      out.add(entry(r, runJson, summaryJson));
    }
    return out;
  }

  private static HistoryStore.Entry entry(RunGroup.Run r, String runJson, String summaryJson) {
    JsonNode info = r.info();
    PhaseResult p = r.phase();
    String noise;
    try {
      noise = COMPACT.writeValueAsString(ComparedMetrics.noiseOf(r));
    } catch (IOException e) {
      throw new UserError("Cannot record the noise of " + r.dir() + ": " + e.getMessage());
    }
    List<HistoryStore.Operation> ops = new ArrayList<>();
    p.operations().forEach((name, o) -> ops.add(operation(name, o)));
    Instant ended = info.hasNonNull("ended") ? Instant.parse(info.get("ended").asText()) : null;
    HistoryStore.Client client = client(info);
    return new HistoryStore.Entry(r.dir().getFileName().toString(), r.phaseName(), key(r), r.bench(), r.workload(),
        r.started(), ended, r.summary().state(), r.summary().reason(), info.path("label").asText(null),
        info.at("/server/product").asText(), info.at("/server/version").asText(), nodes(info),
        info.at("/server/embedded").asBoolean(false), client.host(), client.cores(), client.jdk(),
        info.at("/harness/git_revision").asText(null), ComparedMetrics.headlineName(r),
        positive(ComparedMetrics.headline(r).value()), p.throughputOps(), p.successes(), p.errors(), p.aborts(),
        p.retries(), p.durationS(), r.dir().toAbsolutePath().normalize().toString(), config(r), runJson, summaryJson,
        noise, ops);
  }

  private static Double positive(double v) {
    return Double.isFinite(v) ? v : null;
  }

  private static HistoryStore.Operation operation(String name, OperationResult o) {
    LatencyPercentiles l = o.latencyUs();
    return new HistoryStore.Operation(name, o.throughputOps(), o.successes(), o.errors(), o.aborts(), o.retries(),
        l == null ? null : l.p50(), l == null ? null : l.p95(), l == null ? null : l.p99(),
        l == null ? null : l.p99_9());
  }

  /** The client machine of a run (run.json's host and JDK), as the history keeps it. */
  static HistoryStore.Client client(JsonNode info) {
    return new HistoryStore.Client(info.at("/host/name").asText(null),
        info.at("/host/cores").isInt() ? info.at("/host/cores").asInt() : null, info.at("/harness/jdk").asText(null));
  }

  /** The number of nodes the run reached: the hosts it connected to. */
  private static int nodes(JsonNode info) {
    String hosts = info.at("/server/hosts").asText("");
    return hosts.isBlank() ? 1 : hosts.split(",").length;
  }

  /**
   * What makes runs one configuration, as {@link RunMatching#checkParameters} decides it: bench,
   * workload (a TPC-C run's later work is its own), every parameter but those that may differ
   * between runs (how the server was reached, the target), the server's product and its number of
   * nodes. Not the server's version: a key's history runs over builds. Not the client machine:
   * compare.sh checks that apart, as it does for two sides.
   */
  static TreeMap<String, String> keyParts(RunGroup.Run r) {
    TreeMap<String, String> parts = new TreeMap<>();
    r.info().path("parameters").fields().forEachRemaining(f -> {
      if (!RunInfo.mayDifferBetweenRuns(f.getKey())) {
        parts.put(f.getKey(), f.getValue().asText());
      }
    });
    parts.put("@bench", r.bench());
    parts.put("@workload", r.workload());
    parts.put("@server_product", r.info().at("/server/product").asText());
    parts.put("@server_nodes", String.valueOf(nodes(r.info())));
    return parts;
  }

  /** "ycsb/workloadc@3f2a9c1b04": the workload, and the first 10 hex digits of the parts' SHA-256. */
  static String key(RunGroup.Run r) {
    TreeMap<String, String> parts = keyParts(r);
    StringBuilder canonical = new StringBuilder();
    parts.forEach((k, v) -> canonical.append(k).append('=').append(v).append('\n'));
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
      return r.bench() + "/" + r.workload() + "@" + HexFormat.of().formatHex(d).substring(0, 10);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String config(RunGroup.Run r) {
    try {
      return COMPACT.writeValueAsString(keyParts(r));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** An entry as a run to compare: its files as the history kept them, its directory's path as recorded. */
  public static RunGroup.Run run(HistoryStore.Entry e) {
    try {
      JsonNode info = RunDirectory.JSON.readTree(e.runJson());
      RunSummary summary = RunSummary.of(RunDirectory.JSON.readTree(e.summaryJson()), "the history's run "
          + e.runId(), Benchmarks::upgradeFormat2);
      Map<String, double[]> noise = RunDirectory.JSON.readValue(e.noiseJson(), new TypeReference<>() {});
      Path dir = Path.of(e.resultsPath() != null ? e.resultsPath() : e.runId());
      return new RunGroup.Run(dir, info, summary, e.phase(), noise);
    } catch (IOException x) {
      throw new UserError("The history's run " + e.runId() + " cannot be read: " + x.getMessage());
    }
  }
}
