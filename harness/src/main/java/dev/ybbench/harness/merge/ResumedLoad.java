package dev.ybbench.harness.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A client's load that was killed and resumed ({@code --resume}), as one client to the merge:
 * the run that completed the load, the killed runs before it (named by its {@code resumed_from},
 * beside it in the results directory), the rows those wrote (confirmed by their checkpoints, or
 * found in the table by the resume), what the resume did about the rest they left in doubt (YCSB
 * looks its keys up; TPC-C deletes a half-loaded warehouse's rows and loads it again), and the
 * time lost between each kill and its resume.
 *
 * <p>Every benchmark that resumes a load keeps its progress in {@value #CHECKPOINT} in the run
 * directory, its own shape, with one part in common: a resumed load's checkpoint names what it
 * continues, {@code "resumed_from": {"run": DIR_NAME, "written": ROWS, "found": ROWS, "in_doubt":
 * LOOKUPS, "redone": ROWS, "resumed_from": {…}}}, each entry counting that killed run's own rows.
 *
 * @param client      the client's index in its fleet
 * @param resumedBy   the run directory that completed the load
 * @param killed      the killed runs, the latest first
 * @param rows        rows the killed runs wrote
 * @param lookups     keys in doubt the resumes read to tell
 * @param redone      rows the killed runs wrote that the resumes deleted to write again
 * @param secondsLost from each killed run's last checkpoint to its resume's start, added up
 */
public record ResumedLoad(int client, Path resumedBy, List<Path> killed, long rows, long lookups, long redone,
    double secondsLost) {
  /** A load's progress in its run directory, whatever the benchmark. */
  public static final String CHECKPOINT = "load-checkpoint.json";

  /** The resumed loads among {@code runs}: each run whose run.json names the run it resumed. */
  public static List<ResumedLoad> of(List<Path> runs) throws IOException {
    List<ResumedLoad> out = new ArrayList<>();
    for (Path d : runs) {
      Path runJson = d.resolve("run.json");
      if (!Files.isRegularFile(runJson) || !Files.isRegularFile(d.resolve(CHECKPOINT))) {
        continue;
      }
      JsonNode info = RunDirectory.JSON.readTree(runJson.toFile());
      if (!info.hasNonNull("resumed_from") || !Files.isRegularFile(d.resolve(RunSummary.FILE))) {
        continue;
      }
      JsonNode from = RunDirectory.JSON.readTree(d.resolve(CHECKPOINT).toFile()).path("resumed_from");
      List<Path> killed = new ArrayList<>();
      long rows = 0;
      long lookups = 0;
      long redone = 0;
      double lost = 0;
      Instant resumedAt = Instant.parse(info.path("started").asText());
      for (JsonNode f = from; f.hasNonNull("run"); f = f.path("resumed_from")) {
        Path k = d.resolveSibling(f.path("run").asText());
        if (!Files.isDirectory(k)) {
          throw new UserError("Cannot merge " + d + ": it resumed " + k.getFileName() + ", which is not beside it in "
              + d.getParent() + "; the merge counts the rows that run wrote from its directory");
        }
        killed.add(k);
        rows += f.path("written").asLong() + f.path("found").asLong();
        lookups += f.path("in_doubt").asLong();
        redone += f.path("redone").asLong();
        Instant lastSign = Files.getLastModifiedTime(k.resolve(CHECKPOINT)).toInstant();
        lost += Math.max(0, Duration.between(lastSign, resumedAt).toMillis() / 1000.0);
        JsonNode kInfo = RunDirectory.JSON.readTree(k.resolve("run.json").toFile());
        resumedAt = Instant.parse(kInfo.path("started").asText());
      }
      out.add(new ResumedLoad(info.at("/fleet/index").asInt(0), d, killed, rows, lookups, redone, lost));
    }
    return out;
  }

  /**
   * The runs a merge was given, sorted out: the resumed loads among them, the runs it merges (a
   * killed run stands through the run that resumed it) and, with {@code includeIncomplete}, those
   * killed and not resumed (a gap of the fleet, named with how long it ran); without it, such a
   * killed load is refused with the command that resumes it after {@code script}.
   */
  public static Given given(List<Path> runs, boolean includeIncomplete, String script) throws IOException {
    List<ResumedLoad> resumed = of(runs);
    List<Path> left = withoutKilled(runs, resumed);
    Map<Path, RunMerge.Killed> unfinished = includeIncomplete ? RunMerge.killed(left) : Map.of();
    if (!includeIncomplete) {
      refuseUnresumed(left, script);
    }
    left = left.stream().filter(d -> !unfinished.containsKey(d)).toList();
    if (left.isEmpty()) {
      throw new UserError("Cannot merge: no run given finished; nothing to merge");
    }
    return new Given(left, resumed, unfinished);
  }

  /** What {@link #given} sorted out. */
  public record Given(List<Path> runs, List<ResumedLoad> resumed, Map<Path, RunMerge.Killed> unfinished) {}

  /** {@code runs} without the killed runs among them: each stands in a merge through the run that resumed it. */
  public static List<Path> withoutKilled(List<Path> runs, List<ResumedLoad> resumed) {
    List<Path> killed = resumed.stream().flatMap(r -> r.killed().stream()).map(ResumedLoad::normal).toList();
    return runs.stream().filter(d -> !killed.contains(normal(d))).toList();
  }

  private static Path normal(Path d) {
    return d.toAbsolutePath().normalize();
  }

  /**
   * Refuses a killed run given without the run that resumed it, saying the command that resumes
   * it: its own command line with {@code --resume} (run.json records it, a password hidden) after
   * {@code script}.
   */
  public static void refuseUnresumed(List<Path> runs, String script) throws IOException {
    for (Path d : runs) {
      if (Files.isRegularFile(d.resolve(RunSummary.FILE)) || !Files.isRegularFile(d.resolve(CHECKPOINT))
          || !Files.isRegularFile(d.resolve("run.json"))) {
        continue; // a finished run, or not a load: RunMerge says what it is
      }
      if (RunDirectory.JSON.readTree(d.resolve(CHECKPOINT).toFile()).path("complete").asBoolean()) {
        continue; // killed after its load: nothing to resume
      }
      JsonNode info = RunDirectory.JSON.readTree(d.resolve("run.json").toFile());
      List<String> command = new ArrayList<>();
      info.path("command").forEach(w -> command.add(w.asText()));
      command.addAll(List.of("--resume", d.toString()));
      JsonNode fleet = info.path("fleet");
      throw new UserError("Cannot merge " + d + (fleet.has("index") ? " (client " + fleet.path("index").asText()
          + " of " + fleet.path("clients").asText() + ")" : "") + ": its load never finished; resume it (./" + script + " "
          + ShellWords.join(command) + ") and merge the resumed run with it or in its place");
    }
  }

  /**
   * A line for each resumed client of a merged run ({@code info}: its run.json): what its killed
   * runs wrote, what the resume did about the rest, the time lost. Returns the killed runs' rows.
   */
  public static long said(JsonNode info, Consumer<String> out) {
    long rows = 0;
    for (JsonNode r : info.path("resumed")) {
      rows += r.path("rows_before").asLong();
      List<String> killed = new ArrayList<>();
      r.path("killed").forEach(k -> killed.add(k.asText()));
      List<String> doubt = new ArrayList<>();
      if (r.path("lookups").asLong() > 0) {
        doubt.add(r.path("lookups").asLong() + " keys in doubt looked up");
      }
      if (r.path("rows_redone").asLong() > 0) {
        doubt.add(r.path("rows_redone").asLong() + " rows in doubt deleted and written again");
      }
      out.accept(String.format(Locale.ROOT, "[load] client %d was killed and resumed: %d rows written by %s before "
          + "it died, %s by %s, %.0f s lost", r.path("client").asInt(), r.path("rows_before").asLong(),
          String.join(" and ", killed), doubt.isEmpty() ? "nothing in doubt" : String.join(", ", doubt),
          r.path("resumed_by").asText(), r.path("seconds_lost").asDouble()));
    }
    return rows;
  }

  /** The merged run's run.json names each resumed client: it is one run of the whole load all the same. */
  public static void record(Path merged, List<ResumedLoad> resumed) throws IOException {
    ObjectNode info = (ObjectNode) RunDirectory.JSON.readTree(merged.resolve("run.json").toFile());
    ArrayNode list = info.putArray("resumed");
    Instant started = Instant.parse(info.path("started").asText());
    for (ResumedLoad r : resumed) {
      ObjectNode n = list.addObject();
      n.put("client", r.client());
      ArrayNode killed = n.putArray("killed");
      for (Path k : r.killed()) {
        killed.add(k.getFileName().toString());
        Instant s = Instant.parse(RunDirectory.JSON.readTree(k.resolve("run.json").toFile()).path("started").asText());
        started = s.isBefore(started) ? s : started;
      }
      n.put("resumed_by", r.resumedBy().getFileName().toString());
      n.put("rows_before", r.rows());
      n.put("lookups", r.lookups());
      n.put("rows_redone", r.redone());
      n.put("seconds_lost", Math.round(r.secondsLost() * 10) / 10.0);
    }
    info.put("started", started.toString()); // the load began with the killed run
    RunDirectory.JSON.writerWithDefaultPrettyPrinter().writeValue(merged.resolve("run.json").toFile(), info);
  }
}
