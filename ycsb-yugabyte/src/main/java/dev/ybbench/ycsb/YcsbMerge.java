package dev.ybbench.ycsb;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.merge.PhaseMerge;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.ycsb.workload.CoreWorkload64;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * {@code ./run_ycsb.sh --merge RUN_DIR…}: the runs of the {@code --clients N} that shared one
 * table, added up into one run ({@link RunMerge}). All N clients must be there, once each: a
 * merge of some of them would stand for less than the fleet did.
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
