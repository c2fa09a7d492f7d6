package dev.ybbench.harness.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * This machine's last measured load of a benchmark, by which a dry run says how long a load will
 * take: the newest complete run in the results directory of the same benchmark (and API) against
 * the same kind of target — the embedded server, or the same nodes — whose load phase measured its
 * rate (its headline, rows or records a second). Only read: a dry run opens nothing else.
 *
 * @param rowsPerS the rate it measured
 * @param run      its run directory's name
 */
public record LastLoad(double rowsPerS, String run) {
  /** The phase whose rate is read. */
  static final String LOAD = "load";

  /**
   * The newest such load, or null when none is there.
   *
   * @param api the run.json "api" the runs must have, or null for any
   */
  public static LastLoad find(Path resultsRoot, String bench, ServerTarget target, String api) {
    if (!Files.isDirectory(resultsRoot)) {
      return null;
    }
    List<Path> dirs;
    try (Stream<Path> s = Files.list(resultsRoot)) {
      // Run directories' names start with their UTC start: the newest first.
      dirs = s.filter(d -> d.getFileName().toString().contains("_" + bench + "_"))
          .sorted(Comparator.comparing((Path d) -> d.getFileName().toString()).reversed()).toList();
    } catch (IOException e) {
      return null;
    }
    for (Path d : dirs) {
      LastLoad found = read(d, bench, target, api);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  private static LastLoad read(Path dir, String bench, ServerTarget target, String api) {
    try {
      JsonNode run = RunDirectory.JSON.readTree(dir.resolve("run.json").toFile());
      if (!bench.equals(run.path("bench").asText()) || !RunInfo.COMPLETE.equals(run.path("state").asText())
          || api != null && !api.equals(run.path("api").asText(api)) || !run.path("fleet").isMissingNode()) {
        return null;
      }
      boolean embedded = run.at("/server/embedded").asBoolean(false);
      if (embedded != target.embedded()
          || !embedded && !target.hosts().toString().equals(run.at("/server/hosts").asText())) {
        return null;
      }
      JsonNode load = RunDirectory.JSON.readTree(dir.resolve("summary.json").toFile()).at("/phases/" + LOAD);
      double rate = load.at("/headline/value").asDouble(0);
      return rate > 0 ? new LastLoad(rate, dir.getFileName().toString()) : null;
    } catch (IOException | RuntimeException e) {
      return null; // not a run directory, or one cut short: not a measurement to go by
    }
  }

  /** "about 2 min 05 s at 228,611 rows/s, as the load of RUN measured". */
  public String estimate(long rows) {
    return String.format(Locale.ROOT, "about %s at %,.0f rows/s, as the load of %s measured",
        Outline.seconds(rows / rowsPerS), rowsPerS, run);
  }

  /** What a dry run says of a load's time: the estimate, or that nothing here measured one. */
  public static String estimate(LastLoad last, long rows) {
    return last != null ? last.estimate(rows) : "no earlier complete load of this benchmark on this target in the "
        + "results directory to go by";
  }
}
