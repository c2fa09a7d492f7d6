package dev.ybbench.ycsb;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.merge.PhaseMerge;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.ycsb.workload.CoreWorkload64;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * {@code ./run_ycsb.sh --merge RUN_DIR…}: the runs of the {@code --clients N} that shared one
 * table, added up into one run ({@link RunMerge}). All N clients must be there, once each: a
 * merge of some of them would stand for less than the fleet did. The merged run is then audited
 * ({@link #audit}): its exit code is 1 when the server's count or a load's rows differ.
 */
final class YcsbMerge {
  /** What each client sets for itself: which client it is, and so its slice of the load. */
  private static final Pattern OWN = Pattern.compile(Pattern.quote(CoreWorkload64.CLIENT_INDEX) + "|"
      + Pattern.quote(RunYcsb.LOAD_KEYS));

  private YcsbMerge() {}

  static Path merge(List<Path> runs, Path resultsRoot, Consumer<String> warn) throws IOException {
    List<RunMerge.Part> parts = RunMerge.read(runs, "ycsb", OWN);
    checkClients(parts);
    RunSummary first = parts.get(0).summary();
    Map<String, PhaseMerge.Merged> phases = RunMerge.phases(parts);
    RunSummary summary = RunSummary.start("ycsb", first.workload() + "-merged", first.server().info());
    for (Map.Entry<String, PhaseMerge.Merged> e : phases.entrySet()) {
      summary = summary.withPhase(e.getKey(), e.getValue().phase());
    }
    return RunMerge.write(parts, resultsRoot, summary, phases, OWN, Map.of(), warn);
  }

  /**
   * The fleet's checks of a merged run, a line each: every phase's totals; the statements the
   * server completed on the table against the operations the clients counted; a load's rows
   * against the records asked for. False when a count differs.
   */
  static boolean audit(Path merged, Consumer<String> out) throws IOException {
    RunSummary summary = RunSummary.read(merged);
    String insertCount = RunDirectory.JSON.readTree(merged.resolve("run.json").toFile())
        .at("/parameters/insertcount").asText(null);
    boolean ok = true;
    for (Map.Entry<String, PhaseResult> e : summary.phases().entrySet()) {
      String name = e.getKey();
      PhaseResult p = e.getValue();
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[%s] %d successes, %d errors, %d retries, "
          + "%.1f ops/s over %.1f s", name, p.successes(), p.errors(), p.retries(), p.throughputOps(), p.durationS()));
      p.operations().forEach((op, r) -> line.append(", ").append(op).append(" p99 ")
          .append(r.latencyUs() == null || r.latencyUs().p99() == null ? "-" : r.latencyUs().p99()).append(" µs"));
      out.accept(line.toString());
      PhaseResult.ServerSide server = p.server();
      if (server == null || server.serverStatements() == null || server.harnessOperations() == null) {
        out.accept("[" + name + "] note: the server's statement counts cannot be read here, so the merged counts "
            + "are not audited");
      } else {
        out.accept("[" + name + "] server audit: the clients counted " + server.harnessOperations() + " operations, "
            + "the server completed " + server.serverStatements() + " statements on the table");
        if (!server.harnessOperations().equals(server.serverStatements())) {
          out.accept("error: [" + name + "] the server's count differs from the clients'");
          ok = false;
        }
      }
      if (name.equals("load") && insertCount != null) {
        OperationResult inserts = p.operations().get("INSERT");
        long written = inserts == null ? 0 : inserts.successes();
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

  private static void checkClients(List<RunMerge.Part> parts) {
    String clients = parts.get(0).parameter(CoreWorkload64.CLIENTS);
    int n = clients == null ? 1 : Integer.parseInt(clients);
    if (n == 1) {
      throw new UserError("Cannot merge " + parts.get(0).dir() + ": it ran as the only client (--clients 1), so "
          + "its inserts may be another run's too; merge the runs of --clients N --client-index 0 … N-1");
    }
    TreeSet<Integer> seen = new TreeSet<>();
    for (RunMerge.Part p : parts) {
      int i = Integer.parseInt(p.parameter(CoreWorkload64.CLIENT_INDEX));
      if (!seen.add(i)) {
        throw new UserError("Cannot merge: two runs are client " + i + " of " + n + " (" + p.dir() + " is one)");
      }
    }
    for (int i = 0; i < n; i++) {
      if (!seen.contains(i)) {
        throw new UserError("Cannot merge: client " + i + " of " + n + " is missing; a merge of " + parts.size()
            + " would stand for less than the " + n + " clients did");
      }
    }
  }
}
