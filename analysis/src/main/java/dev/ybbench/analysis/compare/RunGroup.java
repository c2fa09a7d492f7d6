package dev.ybbench.analysis.compare;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Benchmarks;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.run.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One side of a comparison: a run directory, or a label naming every run tagged with it
 * (--label) under the results directory, i.e. the repetitions of one configuration.
 */
public record RunGroup(String name, List<Run> runs) {
  private static final DateTimeFormatter NAME_STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
      .withZone(ZoneOffset.UTC);

  /**
   * One run's files, read, and the phase of it compared: {@link RunMatching#phase}, or a later
   * work of a TPC-C config (execute-2 …), which stands as a workload of its own.
   *
   * @param recordedNoise the noise of its metrics as the history recorded it, for a run read back
   *                      from the history (its directory may be gone); null: read from the directory
   */
  public record Run(Path dir, JsonNode info, RunSummary summary, String phaseName,
      Map<String, double[]> recordedNoise) {
    public Run(Path dir, JsonNode info, RunSummary summary, String phaseName) {
      this(dir, info, summary, phaseName, null);
    }

    /** The noise of its metrics: from its seconds, or as recorded. */
    public RunNoise noise() {
      return recordedNoise != null ? RunNoise.of(recordedNoise) : new RunNoise(dir, phaseName);
    }

    public String bench() {
      return summary.bench();
    }

    /** The run's workload; a later work's is "workload@execute-2", so each work pairs with its own. */
    public String workload() {
      return phaseName == null || phaseName.equals(RunMatching.phase(summary)) ? summary.workload()
          : summary.workload() + "@" + phaseName;
    }

    public PhaseResult phase() {
      return summary.phase(phaseName);
    }

    /** "results/…: failed (the server was unreachable …)" */
    String describe() {
      return dir + " is " + summary.state() + (summary.reason() == null ? "" : " (" + summary.reason() + ")");
    }

    /**
     * When the run started (run.json), for telling interleaved rounds; else from the directory's
     * name, which starts with it to the second.
     */
    public Instant started() {
      try {
        return info.hasNonNull("started") ? Instant.parse(info.get("started").asText())
            : NAME_STAMP.parse(dir.getFileName().toString().substring(0, 16), Instant::from);
      } catch (RuntimeException e) {
        return Instant.EPOCH;
      }
    }

    public String serverLabel() {
      return info.at("/server/product").asText() + " " + info.at("/server/version").asText();
    }
  }

  /**
   * @param includeIncomplete whether failed and interrupted runs may stand as repetitions; without
   *                          it they are refused, since a broken run would read as a change of the product
   */
  public static RunGroup resolve(String spec, Path resultsRoot, boolean includeIncomplete) {
    RunGroup side = find(spec, resultsRoot);
    for (Run r : side.runs()) {
      if (!includeIncomplete && !RunInfo.COMPLETE.equals(r.summary().state())) {
        throw new UserError("Refusing to compare " + r.describe() + "; compare complete runs only, or pass "
            + "--include-incomplete");
      }
    }
    return side;
  }

  private static RunGroup find(String spec, Path resultsRoot) {
    Path asDir = Path.of(spec);
    if (Files.isRegularFile(asDir.resolve(RunSummary.FILE))) {
      return new RunGroup(asDir.getFileName().toString(), works(read(asDir)));
    }
    List<Run> runs = new ArrayList<>();
    if (Files.isDirectory(resultsRoot)) {
      try (Stream<Path> dirs = Files.list(resultsRoot)) {
        for (Path d : dirs.sorted(Comparator.naturalOrder()).toList()) {
          // A hidden directory is one being written (StagedDirectory), not a run yet.
          if (!d.getFileName().toString().startsWith(".") && Files.isRegularFile(d.resolve("run.json"))
              && Files.isRegularFile(d.resolve("summary.json"))) {
            Run r = read(d);
            if (spec.equals(r.info().path("label").asText(null))) {
              runs.addAll(works(r));
            }
          }
        }
      } catch (IOException e) {
        throw new UserError("Cannot read " + resultsRoot + ": " + e.getMessage());
      }
    }
    if (runs.isEmpty()) {
      throw new UserError("'" + spec + "' is neither a run directory nor the label of a run in " + resultsRoot);
    }
    return new RunGroup(spec, runs);
  }

  /** The run directories a side's runs come from (a run of several works is several runs here). */
  public long directories() {
    return runs.stream().map(Run::dir).distinct().count();
  }

  /** A run as compared: its compared phase, then each later work (execute-2, execute-3 …) in order. */
  public static List<Run> works(Run r) {
    List<Run> out = new ArrayList<>(List.of(r));
    String first = r.phaseName();
    for (int i = 2; first != null && r.summary().phase(first + "-" + i) != null; i++) {
      out.add(new Run(r.dir(), r.info(), r.summary(), first + "-" + i));
    }
    return out;
  }

  public static Run read(Path dir) {
    RunSummary summary = RunSummary.read(dir, Benchmarks::upgradeFormat2);
    try {
      return new Run(dir, RunDirectory.JSON.readTree(dir.resolve("run.json").toFile()), summary,
          RunMatching.phase(summary));
    } catch (IOException e) {
      throw new UserError("Cannot read the results in " + dir + ": " + e.getMessage());
    }
  }
}
