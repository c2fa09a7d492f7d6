package dev.ybbench.harness.results;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * summary.json, the one definition of its shape (documented in results/README.md): how the run
 * ended and, per phase, what it measured. Written by the run lifecycle and by merge; read by
 * merge, compare and the benchmark scripts. A benchmark's run-wide figures (TPC-C's warehouses and
 * consistency) are under its own key ({@link #extension}).
 *
 * @param format     {@value #FORMAT}; format 2 is read as format 3 ({@link Format2}), older is refused
 * @param reason     why the run failed, one line; absent otherwise
 * @param mergedFrom a merged run's parts
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
    Map<String, PhaseResult> phases,
    java.util.List<String> mergedFrom,
    @JsonAnySetter @JsonAnyGetter Map<String, JsonNode> extensions) {

  public static final int FORMAT = 3;
  public static final String FILE = "summary.json";

  public RunSummary {
    extensions = extensions == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
  }

  /** The server as results name it. */
  public record Server(String product, String version) {
    public static Server of(ServerInfo s) {
      return new Server(s.product(), s.version());
    }

    public ServerInfo info() {
      return new ServerInfo(product, version, "");
    }
  }

  /** A summary with no phases yet. */
  public static RunSummary start(String bench, String workload, ServerInfo server) {
    return new RunSummary(FORMAT, bench, workload, RunInfo.RUNNING, null, Server.of(server), new LinkedHashMap<>(),
        null, null);
  }

  public RunSummary withPhase(String name, PhaseResult phase) {
    Map<String, PhaseResult> p = new LinkedHashMap<>(phases);
    p.put(name, phase);
    return new RunSummary(format, bench, workload, state, reason, server, p, mergedFrom, extensions);
  }

  public RunSummary withState(String newState, String newReason) {
    return new RunSummary(format, bench, workload, newState, newReason, server, phases, mergedFrom, extensions);
  }

  public RunSummary withMergedFrom(java.util.List<String> parts) {
    return new RunSummary(format, bench, workload, state, reason, server, phases, parts, extensions);
  }

  /** The same with the benchmark's run-wide figures under its {@code key} (null removes them). */
  public RunSummary withExtension(String key, Object figures) {
    Map<String, JsonNode> e = new LinkedHashMap<>(extensions);
    if (figures == null) {
      e.remove(key);
    } else {
      e.put(key, RunDirectory.JSON.valueToTree(figures));
    }
    return new RunSummary(format, bench, workload, state, reason, server, phases, mergedFrom, e);
  }

  /** The benchmark's run-wide figures under its {@code key}, as {@code type}; null where it has none. */
  public <T> T extension(String key, Class<T> type) {
    return PhaseResult.extension(extensions, key, type);
  }

  public PhaseResult phase(String name) {
    return phases.get(name);
  }

  /** Reads a run directory's summary.json; a missing file or an older format is a one-line error. */
  public static RunSummary read(Path runDir) {
    return read(runDir, tree -> { });
  }

  /**
   * As {@link #read(Path)}, a format-2 summary's own figures first moved where format 3 keeps them
   * by {@code ownFigures} (its benchmark's {@link Format2#upgrade}).
   */
  public static RunSummary read(Path runDir, Consumer<ObjectNode> ownFigures) {
    Path file = runDir.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      throw new UserError(runDir + " is not a run directory (no " + FILE + ")");
    }
    try {
      return of(RunDirectory.JSON.readTree(file.toFile()), runDir.toString(), ownFigures);
    } catch (IOException e) {
      throw new UserError("Cannot read " + file + ": " + ErrorText.firstLine(e));
    }
  }

  /** A summary.json's contents (e.g. as the history keeps them); {@code from} names where they came from. */
  public static RunSummary of(JsonNode tree, String from) throws IOException {
    return of(tree, from, t -> { });
  }

  /** As {@link #of(JsonNode, String)}, a format-2 summary's own figures moved by {@code ownFigures}. */
  public static RunSummary of(JsonNode tree, String from, Consumer<ObjectNode> ownFigures) throws IOException {
    int format = tree.path("format").asInt(1);
    if (format == Format2.FORMAT && tree instanceof ObjectNode o) {
      ObjectNode copy = o.deepCopy();
      ownFigures.accept(copy);
      tree = Format2.upgrade(copy);
      format = FORMAT;
    }
    if (format != FORMAT) {
      throw new UserError(from + " holds results format " + format + "; this ybbench reads formats "
          + Format2.FORMAT + " and " + FORMAT + ": run it again, or read it with the ybbench that wrote it");
    }
    return RunDirectory.JSON.treeToValue(tree, RunSummary.class);
  }
}
