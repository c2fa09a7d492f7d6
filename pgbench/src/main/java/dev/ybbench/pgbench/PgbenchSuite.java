package dev.ybbench.pgbench;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Suite;
import dev.ybbench.pgbench.core.PgbenchScripts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * regress.sh's pgbench suite: pgbench's three built-in scripts, the ones people run to ask "is it
 * slower?": tpcb-like, simple-update and select-only; 4 sessions on 2 threads, 30 s a run, at the
 * scale --records accounts make (100,000 a unit).
 */
final class PgbenchSuite implements Suite {
  @Override
  public String name() {
    return "pgbench";
  }

  @Override
  public String summary() {
    return "the real pgbench's tpcb-like, simple-update and select-only; 4 sessions";
  }

  @Override
  public List<String> workloads() {
    return PgbenchScripts.BUILTINS;
  }

  @Override
  public List<String> workloads(List<String> given, Path home) {
    for (String w : given) {
      if (!PgbenchScripts.BUILTINS.contains(w)) {
        throw new UserError("--workloads: " + w + " is not one of pgbench's built-in scripts ("
            + String.join(", ", PgbenchScripts.BUILTINS) + ")");
      }
    }
    return given;
  }

  @Override
  public String describe(String workload) {
    return "pgbench -b " + workload;
  }

  /** -s initializes the tables where they are missing or of another scale; a run only runs without it. */
  @Override
  public List<String> args(Path home, String workload, List<String> target, boolean runOnly, Integer duration,
      long records) {
    List<String> a = new ArrayList<>(List.of("-b", workload, "-c", "4", "-j", "2", "-T",
        Integer.toString(duration != null ? duration : 30)));
    if (!runOnly) {
      a.addAll(List.of("-s", Long.toString(Math.max(1, records / 100_000))));
    }
    a.addAll(target);
    return a;
  }
}
