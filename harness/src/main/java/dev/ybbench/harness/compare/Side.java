package dev.ybbench.harness.compare;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.RunDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One side of a comparison: a run directory, or a label naming every complete run tagged with
 * it (--label) under the results directory, i.e. the repetitions of one configuration.
 */
public record Side(String name, List<Run> runs) {
  /** One run's files, read. */
  public record Run(Path dir, JsonNode info, JsonNode summary) {
    public String bench() {
      return summary.path("bench").asText();
    }

    public String workload() {
      return summary.path("workload").asText();
    }

    public String serverLabel() {
      return info.at("/server/product").asText() + " " + info.at("/server/version").asText();
    }
  }

  public static Side resolve(String spec, Path resultsRoot) {
    Path asDir = Path.of(spec);
    if (Files.isRegularFile(asDir.resolve("summary.json"))) {
      return new Side(asDir.getFileName().toString(), List.of(read(asDir)));
    }
    List<Run> runs = new ArrayList<>();
    if (Files.isDirectory(resultsRoot)) {
      try (Stream<Path> dirs = Files.list(resultsRoot)) {
        for (Path d : dirs.sorted(Comparator.naturalOrder()).toList()) {
          if (Files.isRegularFile(d.resolve("run.json")) && Files.isRegularFile(d.resolve("summary.json"))) {
            Run r = read(d);
            if (spec.equals(r.info().path("label").asText(null)) && "complete".equals(r.info().path("state").asText())) {
              runs.add(r);
            }
          }
        }
      } catch (IOException e) {
        throw new UserError("Cannot read " + resultsRoot + ": " + e.getMessage());
      }
    }
    if (runs.isEmpty()) {
      throw new UserError("'" + spec + "' is neither a run directory nor the label of a complete run in " + resultsRoot);
    }
    return new Side(spec, runs);
  }

  static Run read(Path dir) {
    try {
      return new Run(dir, RunDirectory.JSON.readTree(dir.resolve("run.json").toFile()),
          RunDirectory.JSON.readTree(dir.resolve("summary.json").toFile()));
    } catch (IOException e) {
      throw new UserError("Cannot read the results in " + dir + ": " + e.getMessage());
    }
  }
}
