package dev.ybbench.harness.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.Plots;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunReport;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.results.StagedDirectory;
import dev.ybbench.harness.server.ServerReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Several clients' runs against one server, added up into one run directory that compare.sh
 * reads as one run: every phase merged ({@link PhaseMerge}), the server's audit taken over all
 * the clients' windows together, and a run.json that records its parts. Only complete runs of
 * the same benchmark, workload, server, phases and parameters are merged: anything else would
 * make the sum stand for something that was not asked. The benchmark says which parameters each
 * client sets for itself (its slice of the data) and what they add up to.
 */
public final class RunMerge {
  /** What a merge stopped by Ctrl-C says: it leaves nothing behind and changes no part. */
  public static final String INTERRUPTED = "Interrupted: nothing merged, the runs are as they were";

  private RunMerge() {}

  /** What a runner's --merge does: writes the merged run, warning through {@code warn}, stopping at {@code stop}. */
  public interface Merging {
    Path merge(Consumer<String> warn, BooleanSupplier stop) throws IOException;
  }

  /**
   * A runner's --merge of {@code runs} runs, said on {@code out}: the merged run's directory, or
   * null when Ctrl-C ({@code stop}) ended it, which is said and leaves nothing behind.
   */
  public static Path run(int runs, Merging merging, Consumer<String> out, BooleanSupplier stop) throws IOException {
    try {
      Path merged = merging.merge(w -> out.accept("warning: " + w), stop);
      out.accept("Merged " + runs + " runs: " + merged);
      return merged;
    } catch (StagedDirectory.Stopped stopped) {
      out.accept(INTERRUPTED);
      return null;
    }
  }

  /** One client's run, read. */
  public record Part(Path dir, RunSummary summary, JsonNode info) {
    public boolean complete() {
      return RunInfo.COMPLETE.equals(summary.state());
    }

    /** A parameter as run.json records it, or null. */
    public String parameter(String name) {
      return info.path("parameters").path(name).asText(null);
    }
  }

  /**
   * Reads and checks the parts.
   *
   * @param own parameters a client sets for itself (beside connection details and --target,
   *            which may differ anyway); the others must be equal in every part
   */
  public static List<Part> read(List<Path> dirs, String bench, Pattern own) {
    return read(dirs, bench, own, false);
  }

  /** As {@link #read(List, String, Pattern)}, results format 2's own figures moved by {@code ownFigures}. */
  public static List<Part> read(List<Path> dirs, String bench, Pattern own, Consumer<ObjectNode> ownFigures) {
    return read(dirs, bench, own, false, ownFigures);
  }

  /**
   * A run that never finished (no summary.json: killed), as a merge with --include-incomplete
   * names the gap it leaves: its client and how long it ran, from its start to its last written
   * file ("client 1 was killed 12 s into its run (… never finished)").
   */
  public record Killed(int index, String said) {}

  /** The runs among {@code dirs} that never finished, each as {@link Killed}. */
  public static Map<Path, Killed> killed(List<Path> dirs) throws IOException {
    Map<Path, Killed> out = new LinkedHashMap<>();
    for (Path d : dirs) {
      Path info = d.resolve("run.json");
      if (Files.isRegularFile(d.resolve(RunSummary.FILE)) || !Files.isRegularFile(info)) {
        continue;
      }
      JsonNode run = RunDirectory.JSON.readTree(info.toFile());
      int index = run.at("/fleet/index").asInt(0);
      Instant started = Instant.parse(run.path("started").asText());
      Instant last;
      try (java.util.stream.Stream<Path> files = Files.walk(d)) {
        last = files.map(f -> {
          try {
            return Files.getLastModifiedTime(f).toInstant();
          } catch (IOException e) {
            return started;
          }
        }).max(Instant::compareTo).orElse(started);
      }
      long seconds = Math.max(0, java.time.Duration.between(started, last).toSeconds());
      out.put(d, new Killed(index, "client " + index + " was killed " + seconds + " s into its run ("
          + d.getFileName() + " never finished)"));
    }
    return out;
  }

  /**
   * Refuses a run directory whose run never ended (killed, or still running): it has run.json,
   * written as a run starts, but no summary.json, naming the fleet's client it was.
   */
  private static void unfinished(Path d) {
    Path info = d.resolve("run.json");
    if (Files.isRegularFile(d.resolve(RunSummary.FILE)) || !Files.isRegularFile(info)) {
      return; // a finished run, or no run directory at all (RunSummary says so)
    }
    String who = "";
    try {
      JsonNode fleet = RunDirectory.JSON.readTree(info.toFile()).path("fleet");
      if (fleet.has("index")) {
        who = " (client " + fleet.path("index").asText() + " of the " + fleet.path("clients").asText() + " in fleet "
            + fleet.path("id").asText() + ")";
      }
    } catch (IOException e) {
      // who it was stays unsaid; that it never finished is the point
    }
    throw new UserError("Cannot merge " + d + who + ": its run never finished (no " + RunSummary.FILE + ": killed, "
        + "or still running); run that client again, or leave it out and add --include-incomplete for a merged run "
        + "marked partial");
  }

  /**
   * Reads and checks the parts; with {@code acceptIncomplete} failed and interrupted runs are
   * returned too (their state in {@link Part#summary}) and left out of the checks, for a caller
   * that names them and merges the rest.
   */
  public static List<Part> read(List<Path> dirs, String bench, Pattern own, boolean acceptIncomplete) {
    return read(dirs, bench, own, acceptIncomplete, tree -> { });
  }

  /** As {@link #read(List, String, Pattern, boolean)}, results format 2's own figures moved by {@code ownFigures}. */
  public static List<Part> read(List<Path> dirs, String bench, Pattern own, boolean acceptIncomplete,
      Consumer<ObjectNode> ownFigures) {
    if (new LinkedHashSet<>(dirs.stream().map(d -> d.toAbsolutePath().normalize()).toList()).size() < dirs.size()) {
      throw new UserError("A run directory is given twice to --merge; give each client's run once");
    }
    List<Part> parts = new ArrayList<>();
    for (Path d : dirs) {
      unfinished(d);
      RunSummary s = RunSummary.read(d, ownFigures);
      if (!bench.equals(s.bench())) {
        throw new UserError(d + " is a " + s.bench() + " run, not " + bench);
      }
      if (!RunInfo.COMPLETE.equals(s.state()) && !acceptIncomplete) {
        throw new UserError("Cannot merge " + d + ": it is " + s.state() + (s.reason() == null ? "" : " ("
            + s.reason() + ")") + "; a merge of it would stand for less than was asked");
      }
      try {
        parts.add(new Part(d, s, RunDirectory.JSON.readTree(d.resolve("run.json").toFile())));
      } catch (IOException e) {
        throw new UserError("Cannot read " + d.resolve("run.json") + ": " + e.getMessage());
      }
    }
    List<Part> complete = parts.stream().filter(Part::complete).toList();
    Part first = complete.isEmpty() ? null : complete.get(0);
    for (Part p : complete) {
      if (!p.summary().workload().equals(first.summary().workload())) {
        throw new UserError("Cannot merge runs of different workloads: " + first.summary().workload() + " and "
            + p.summary().workload());
      }
      if (!p.summary().server().equals(first.summary().server())) {
        throw new UserError("Cannot merge runs against different servers: " + first.summary().server() + " and "
            + p.summary().server());
      }
      if (!p.summary().phases().keySet().equals(first.summary().phases().keySet())) {
        throw new UserError("Cannot merge runs of different phases: " + first.summary().phases().keySet() + " in "
            + first.dir() + " but " + p.summary().phases().keySet() + " in " + p.dir());
      }
      Set<String> names = new TreeSet<>();
      first.info().path("parameters").fieldNames().forEachRemaining(names::add);
      p.info().path("parameters").fieldNames().forEachRemaining(names::add);
      for (String n : names) {
        if (!RunInfo.mayDifferBetweenRuns(n) && !own.matcher(n).matches()
            && !Objects.equals(first.parameter(n), p.parameter(n))) {
          throw new UserError("Cannot merge runs of different parameters: " + n + " is " + first.parameter(n)
              + " in " + first.dir() + " but " + p.parameter(n) + " in " + p.dir());
        }
      }
    }
    return parts;
  }

  /**
   * Every phase of the parts, merged, with the server's audit over all clients: the statements
   * the server completed on the table from the first client's start of the phase to the last
   * client's end, against every client's completed operations.
   */
  public static Map<String, PhaseMerge.Merged> phases(List<Part> parts, BooleanSupplier stop) throws IOException {
    List<Path> dirs = parts.stream().map(Part::dir).toList();
    Map<String, PhaseMerge.Merged> out = new LinkedHashMap<>();
    for (String name : parts.get(0).summary().phases().keySet()) {
      StagedDirectory.checkpoint(stop);
      PhaseResult first = parts.get(0).summary().phase(name);
      if (first.operations() == null || first.operations().isEmpty()) {
        continue; // a load measured in rows (TPC-C's), merged by its benchmark
      }
      PhaseMerge.Merged m = PhaseMerge.of(dirs, name);
      PhaseResult phase = m.phase().toBuilder().server(serverSide(parts, name)).client(clientSide(parts, name,
          m.phase().successes())).build();
      out.put(name, m.withPhase(phase));
    }
    return out;
  }

  private static PhaseResult.ServerSide serverSide(List<Part> parts, String phase) throws IOException {
    return serverSide(parts, phase, List.of(), 0);
  }

  /**
   * The server's audit of merged phase {@code phase} over {@code parts}, and over runs that began
   * the phase and never ended it ({@code begun}: clients killed in it, whose loads were resumed):
   * the window opens at the first of their starts, and the operations they and their resumes
   * completed outside the parts' count ({@code more}) are counted with the parts'. Null when a
   * count is missing.
   */
  public static PhaseResult.ServerSide serverSide(List<Part> parts, String phase, List<Path> begun, long more)
      throws IOException {
    long harness = more;
    long firstBefore = Long.MAX_VALUE;
    long lastAfter = Long.MIN_VALUE;
    for (Path d : begun) {
      Path file = d.resolve(ServerReport.FILE);
      ServerReport.Phase r = Files.isRegularFile(file)
          ? RunDirectory.JSON.readValue(file.toFile(), ServerReport.class).phases().get(phase) : null;
      Long before = r == null || r.before() == null ? null : r.before().get(ServerReport.AUDITED);
      if (before == null) {
        return null;
      }
      firstBefore = Math.min(firstBefore, before);
    }
    for (Part p : parts) {
      PhaseResult.ServerSide s = p.summary().phase(phase).server();
      Path file = p.dir().resolve(ServerReport.FILE);
      if (s == null || s.harnessOperations() == null || !Files.isRegularFile(file)) {
        return null;
      }
      ServerReport.Phase r = RunDirectory.JSON.readValue(file.toFile(), ServerReport.class).phases().get(phase);
      Long before = r == null || r.before() == null ? null : r.before().get(ServerReport.AUDITED);
      Long after = r == null || r.after() == null ? null : r.after().get(ServerReport.AUDITED);
      if (before == null || after == null) {
        return null;
      }
      harness += s.harnessOperations();
      firstBefore = Math.min(firstBefore, before);
      lastAfter = Math.max(lastAfter, after);
    }
    long server = lastAfter - firstBefore;
    return new PhaseResult.ServerSide(harness, server, ServerReport.deltaPct(harness, server), null, null);
  }

  /**
   * The server's audit of merged phase {@code name}, a line or two: the statements the server
   * completed on the tables against what the clients counted ({@code unit}: operations, or
   * statements where an operation is a transaction of several). False when they differ; a
   * partial merge, or a server whose counts could not be read, is said and not audited.
   */
  public static boolean audited(String name, PhaseResult p, boolean partial, String unit, Consumer<String> out) {
    PhaseResult.ServerSide server = p.server();
    if (partial) {
      out.accept("[" + name + "] note: a partial merge: the server counted the statements of the clients left "
          + "out too, so the merged counts are not audited");
      return true;
    }
    if (server == null || server.serverStatements() == null || server.harnessOperations() == null) {
      out.accept("[" + name + "] note: the server's statement counts cannot be read here, so the merged counts "
          + "are not audited");
      return true;
    }
    out.accept("[" + name + "] server audit: the clients counted " + server.harnessOperations() + " " + unit
        + ", the server completed " + server.serverStatements() + " statements on the table");
    if (!server.harnessOperations().equals(server.serverStatements())) {
      out.accept("error: [" + name + "] the server's count differs from the clients'");
      return false;
    }
    return true;
  }

  /** The clients' costs together, or null unless every client recorded its own. */
  private static PhaseResult.ClientSide clientSide(List<Part> parts, String phase, long operations) {
    List<PhaseResult.ClientSide> sides = new ArrayList<>();
    for (Part p : parts) {
      PhaseResult.ClientSide c = p.summary().phase(phase).client();
      if (c == null) {
        return null;
      }
      sides.add(c);
    }
    return PhaseResult.ClientSide.merged(sides, operations);
  }

  /**
   * Writes the merged run: summary.json, run.json (its parts, the union of their times, the
   * parameters they share, and {@code mergedParameters} for those each client set for itself),
   * the per-second interval logs and timeseries, charts and report.html. Whole or not at all: a
   * {@code stop} (Ctrl-C) before the end leaves no merged run ({@link StagedDirectory}).
   */
  public static Path write(List<Part> parts, Path resultsRoot, RunSummary summary,
      Map<String, PhaseMerge.Merged> phases, Pattern own, Map<String, String> mergedParameters, Consumer<String> warn,
      BooleanSupplier stop) throws IOException {
    return write(parts, resultsRoot, summary, phases, own, mergedParameters, warn, stop, RunInfo.COMPLETE, null);
  }

  /** As above, the merged run's state given: {@link RunInfo#PARTIAL} with why, for a fleet that lacks a part. */
  public static Path write(List<Part> parts, Path resultsRoot, RunSummary summary,
      Map<String, PhaseMerge.Merged> phases, Pattern own, Map<String, String> mergedParameters, Consumer<String> warn,
      BooleanSupplier stop, String state, String reason) throws IOException {
    Part first = parts.get(0);
    List<String> from = parts.stream().map(p -> p.dir().toString()).toList();
    Instant started = parts.stream().map(p -> Instant.parse(p.info().path("started").asText()))
        .min(Instant::compareTo).orElseThrow();
    Instant ended = parts.stream().map(p -> p.info().path("ended").asText(null)).filter(Objects::nonNull)
        .map(Instant::parse).max(Instant::compareTo).orElse(Instant.now());
    Path claimed = RunDirectory.claim(resultsRoot, summary.bench(), summary.workload(),
        first.summary().server().info(), started);
    try (StagedDirectory staged = StagedDirectory.forClaimed(claimed, stop)) {
      writeRun(RunDirectory.at(staged.path()), staged::checkpoint, parts, summary.withMergedFrom(from)
          .withState(state, reason), phases, own, mergedParameters, warn, started, ended);
      return staged.commit();
    }
  }

  private static void writeRun(RunDirectory out, Runnable checkpoint, List<Part> parts, RunSummary merged,
      Map<String, PhaseMerge.Merged> phases, Pattern own, Map<String, String> mergedParameters, Consumer<String> warn,
      Instant started, Instant ended) throws IOException {
    Part first = parts.get(0);
    try (Timeseries ts = new Timeseries(out.timeseries())) {
      for (PhaseMerge.Merged m : phases.values()) {
        checkpoint.run();
        m.writeLogs(out.latencyDir());
        m.rows().forEach(ts::append);
      }
    }
    out.writeJson(RunSummary.FILE, merged);

    ObjectNode info = first.info().deepCopy();
    info.put("workload", merged.workload());
    info.put("started", started.toString());
    info.put("ended", ended.toString());
    info.put("state", merged.state());
    info.remove(List.of("reason", "command"));
    if (merged.reason() != null) {
      info.put("reason", merged.reason());
    }
    if (info.path("fleet") instanceof ObjectNode fleet) {
      fleet.remove("index"); // the merged run is the whole fleet's, no one client's
    }
    ObjectNode params = (ObjectNode) info.path("parameters");
    List<String> ownNames = new ArrayList<>();
    params.fieldNames().forEachRemaining(n -> {
      if (own.matcher(n).matches()) {
        ownNames.add(n);
      }
    });
    params.remove(ownNames);
    mergedParameters.forEach(params::put);
    ObjectNode host = (ObjectNode) info.path("host");
    host.put("name", String.join(",", new LinkedHashSet<>(parts.stream()
        .map(p -> p.info().at("/host/name").asText("unknown")).toList())));
    host.put("clients", parts.size());
    ArrayNode fromNode = info.putArray("merged_from");
    merged.mergedFrom().forEach(fromNode::add);
    out.writeJson("run.json", info);

    checkpoint.run();
    if (!phases.isEmpty()) {
      String why = Plots.draw(out, List.copyOf(phases.keySet()), merged.bench() + " " + merged.workload()
          + " on " + first.summary().server().info().slug() + ", " + parts.size() + " clients", checkpoint);
      if (why != null) {
        warn.accept(why);
      }
    }
    checkpoint.run();
    RunReport.write(out.path(), merged, RunDirectory.JSON.convertValue(info,
        new com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>() {}));
  }
}
