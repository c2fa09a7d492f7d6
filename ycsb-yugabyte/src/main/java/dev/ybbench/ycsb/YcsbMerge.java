package dev.ybbench.ycsb;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.merge.PhaseMerge;
import dev.ybbench.harness.merge.ResumedLoad;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.ycsb.workload.CoreWorkload64;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * {@code ./run_ycsb.sh --merge RUN_DIR…}: the runs of the {@code --clients N} that shared one
 * table, added up into one run ({@link RunMerge}). All N clients must be there, once each: a
 * merge of some of them would stand for less than the fleet did. A client whose load was killed
 * and resumed is one client, through its resumed run ({@link ResumedLoad}). The merged run is then audited
 * ({@link #audit}): its exit code is 1 when the server's count or a load's rows differ.
 */
final class YcsbMerge {
  /** run.json's record of a client's slice of the load, "start+count" (only with more than one client). */
  static final String LOAD_KEYS = "ybbench.load_keys";
  /** What each client sets for itself: which client it is, and so its slice of the load. */
  private static final Pattern OWN = Pattern.compile(Pattern.quote(CoreWorkload64.CLIENT_INDEX) + "|"
      + Pattern.quote(LOAD_KEYS));

  private YcsbMerge() {}

  /**
   * Merges one complete run of each client. A fleet that lacks a client, or holds a failed or
   * interrupted one, is refused, naming each; with {@code includeIncomplete} its complete runs are
   * merged into a run marked {@code partial}, the reason naming what is left out. A {@code stop}
   * (Ctrl-C) ends it with nothing written.
   */
  static Path merge(List<Path> runs, Path resultsRoot, boolean includeIncomplete, Consumer<String> warn,
      BooleanSupplier stop) throws IOException {
    ResumedLoad.Given given = ResumedLoad.given(runs, includeIncomplete, new Ycsb().script());
    runs = given.runs();
    List<ResumedLoad> resumed = given.resumed();
    Map<Path, RunMerge.Killed> unfinished = given.unfinished();
    Map<Integer, String> killedSaid = new TreeMap<>();
    unfinished.values().forEach(k -> killedSaid.put(k.index(), k.said()));
    List<RunMerge.Part> all = RunMerge.read(runs, "ycsb", OWN, true);
    String gaps = gaps(all, killedSaid);
    List<RunMerge.Part> parts = all.stream().filter(RunMerge.Part::complete).toList();
    if (gaps != null && (!includeIncomplete || parts.isEmpty())) {
      throw new UserError("Cannot merge: " + gaps + (parts.isEmpty() ? "" : "; merge one complete run of each "
          + "client, or add --include-incomplete for a merged run marked partial"));
    }
    if (gaps != null) {
      warn.accept("a partial merge: " + gaps);
    }
    RunSummary first = parts.get(0).summary();
    Map<String, PhaseMerge.Merged> phases = new LinkedHashMap<>(RunMerge.phases(parts, stop));
    PhaseMerge.Merged load = phases.get("load");
    if (!resumed.isEmpty() && load != null && gaps == null) {
      // The killed parts' rows and the resumes' look-ups are statements of the load's window too.
      long more = resumed.stream().mapToLong(r -> r.rows() + r.lookups()).sum();
      List<Path> killed = resumed.stream().flatMap(r -> r.killed().stream()).toList();
      PhaseResult.ServerSide side = RunMerge.serverSide(parts, "load", killed, more);
      phases.put("load", load.withPhase(load.phase().toBuilder().server(side).build()));
    }
    RunSummary summary = RunSummary.start("ycsb", first.workload() + "-merged", first.server().info());
    for (Map.Entry<String, PhaseMerge.Merged> e : phases.entrySet()) {
      summary = summary.withPhase(e.getKey(), e.getValue().phase());
    }
    Path merged = RunMerge.write(parts, resultsRoot, summary, phases, OWN, Map.of(), warn, stop,
        gaps == null ? RunInfo.COMPLETE : RunInfo.PARTIAL, gaps);
    if (!resumed.isEmpty()) {
      ResumedLoad.record(merged, resumed);
    }
    return merged;
  }

  /**
   * The fleet's checks of a merged run, a line each: every phase's totals; the statements the
   * server completed on the table against the operations the clients counted; a load's rows
   * against the records asked for. False when a count differs.
   */
  static boolean audit(Path merged, Consumer<String> out) throws IOException {
    RunSummary summary = RunSummary.read(merged);
    boolean partial = RunInfo.PARTIAL.equals(summary.state());
    JsonNode info = RunDirectory.JSON.readTree(merged.resolve("run.json").toFile());
    String insertCount = info.at("/parameters/insertcount").asText(null);
    long resumedRows = ResumedLoad.said(info, out);
    boolean ok = true;
    for (Map.Entry<String, PhaseResult> e : summary.phases().entrySet()) {
      String name = e.getKey();
      PhaseResult p = e.getValue();
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[%s] %d successes, %d errors, %d retries, "
          + "%.1f ops/s over %.1f s", name, p.successes(), p.errors(), p.retries(), p.throughputOps(), p.durationS()));
      p.operations().forEach((op, r) -> line.append(", ").append(op).append(" p99 ")
          .append(r.latencyUs() == null || r.latencyUs().p99() == null ? "-" : r.latencyUs().p99()).append(" µs"));
      out.accept(line.toString());
      ok &= RunMerge.audited(name, p, partial, "operations", out);
      if (partial) {
        continue;
      }
      if (name.equals("load") && insertCount != null) {
        OperationResult inserts = p.operations().get("INSERT");
        long written = (inserts == null ? 0 : inserts.successes()) + resumedRows;
        if (written != Long.parseLong(insertCount) || p.errors() != 0) {
          out.accept("error: [load] the clients wrote " + written + " of the " + insertCount + " records ("
              + p.errors() + " errors)");
          ok = false;
        } else {
          out.accept("[load] the clients wrote exactly the " + insertCount + " records asked for");
        }
      }
    }
    return ok;
  }

  /**
   * What keeps {@code parts} from being one complete run of each of the fleet's clients, in one
   * line ("the fleet of 4 clients is not whole: client 1 is missing, client 2 failed (…)"), or
   * null when nothing does. Runs of one client alone, of two fleets, or two runs of one client
   * are refused outright.
   */
  static String gaps(List<RunMerge.Part> parts) {
    return gaps(parts, Map.of());
  }

  /** As above, with what the runs that never finished say of each of their clients ({@code killed}). */
  static String gaps(List<RunMerge.Part> parts, Map<Integer, String> killed) {
    String clients = parts.get(0).parameter(CoreWorkload64.CLIENTS);
    int n = clients == null ? 1 : Integer.parseInt(clients);
    if (n == 1) {
      throw new UserError("Cannot merge " + parts.get(0).dir() + ": it ran as the only client (--clients 1), so "
          + "its inserts may be another run's too; merge the runs of --clients N --client-index 0 … N-1");
    }
    String fleet = parts.get(0).info().path("fleet").path("id").asText(null);
    TreeMap<Integer, RunMerge.Part> byIndex = new TreeMap<>();
    for (RunMerge.Part p : parts) {
      if (!Objects.equals(fleet, p.info().path("fleet").path("id").asText(null))
          || !Objects.equals(clients, p.parameter(CoreWorkload64.CLIENTS))) {
        throw new UserError("Cannot merge runs of different fleets: " + parts.get(0).dir() + " and " + p.dir());
      }
      int i = Integer.parseInt(p.parameter(CoreWorkload64.CLIENT_INDEX));
      if (byIndex.put(i, p) != null) {
        throw new UserError("Cannot merge: two runs are client " + i + " of " + n + " (" + p.dir() + " is one)");
      }
    }
    List<String> gaps = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      RunMerge.Part p = byIndex.get(i);
      if (p == null) {
        gaps.add(killed.getOrDefault(i, "client " + i + " is missing"));
      } else if (!p.complete()) {
        gaps.add("client " + i + " " + p.summary().state() + (p.summary().reason() == null ? ""
            : " (" + p.summary().reason() + ")"));
      }
    }
    return gaps.isEmpty() ? null : "the fleet of " + n + " clients is not whole: " + String.join(", ", gaps);
  }
}
