package dev.ybbench.harness.results;

import dev.ybbench.harness.ErrorText;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * summary.json, the one definition of its shape (documented in results/README.md): how the run
 * ended and, per phase, what it measured. Written by the run lifecycle and by merge; read by
 * merge, compare and the benchmark scripts.
 *
 * @param format      {@value #FORMAT}; directories written before the format was versioned are refused
 * @param reason      why the run failed, one line; absent otherwise
 * @param warehouses  TPC-C only
 * @param consistency TPC-C only: clause 3.3.2's conditions
 * @param mergedFrom  a merged run's parts
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunSummary(
    int format,
    String bench,
    String workload,
    String state,
    String reason,
    Server server,
    Integer warehouses,
    Integer terminals,
    Map<String, PhaseResult> phases,
    Consistency consistency,
    java.util.List<String> mergedFrom) {

  public static final int FORMAT = 2;
  public static final String FILE = "summary.json";

  /** The server as results name it. */
  public record Server(String product, String version) {
    public static Server of(ServerInfo s) {
      return new Server(s.product(), s.version());
    }

    public ServerInfo info() {
      return new ServerInfo(product, version, "");
    }
  }

  /** Clause 3.3.2's consistency conditions after a TPC-C run. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Consistency(boolean allPass, Map<String, Condition> conditions) {}

  /** One condition: its statement, and when it fails, how many rows break it and the first offender. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Condition(String condition, boolean pass, Long violations, String first) {}

  /** A summary with no phases yet. */
  public static RunSummary start(String bench, String workload, ServerInfo server) {
    return new RunSummary(FORMAT, bench, workload, RunInfo.RUNNING, null, Server.of(server), null, null,
        new LinkedHashMap<>(), null, null);
  }

  public RunSummary withPhase(String name, PhaseResult phase) {
    Map<String, PhaseResult> p = new LinkedHashMap<>(phases);
    p.put(name, phase);
    return new RunSummary(format, bench, workload, state, reason, server, warehouses, terminals, p, consistency,
        mergedFrom);
  }

  public RunSummary withState(String newState, String newReason) {
    return new RunSummary(format, bench, workload, newState, newReason, server, warehouses, terminals, phases,
        consistency, mergedFrom);
  }

  public RunSummary withTpcc(Integer w, Integer t, Consistency c) {
    return new RunSummary(format, bench, workload, state, reason, server, w, t, phases, c, mergedFrom);
  }

  public RunSummary withMergedFrom(java.util.List<String> parts) {
    return new RunSummary(format, bench, workload, state, reason, server, warehouses, terminals, phases,
        consistency, parts);
  }

  public PhaseResult phase(String name) {
    return phases.get(name);
  }

  /** Reads a run directory's summary.json; a missing file or an older format is a one-line error. */
  public static RunSummary read(Path runDir) {
    Path file = runDir.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      throw new UserError(runDir + " is not a run directory (no " + FILE + ")");
    }
    try {
      return of(RunDirectory.JSON.readTree(file.toFile()), runDir.toString());
    } catch (IOException e) {
      throw new UserError("Cannot read " + file + ": " + ErrorText.firstLine(e));
    }
  }

  /** A summary.json's contents (e.g. as the history keeps them); {@code from} names where they came from. */
  public static RunSummary of(JsonNode tree, String from) throws IOException {
    int format = tree.path("format").asInt(1);
    if (format != FORMAT) {
      throw new UserError(from + " holds results format " + format + "; this ybbench reads format " + FORMAT
          + ": run it again, or read it with the ybbench that wrote it");
    }
    return RunDirectory.JSON.treeToValue(tree, RunSummary.class);
  }
}
