package dev.ybbench.ycsb;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Suite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * regress.sh's YCSB suites: the core workloads a–f over one API, each round on each side the core
 * sequence ({@code run_ycsb.sh core}: a, b, c, f, d over one load, e over its own; 30 s a run); with
 * --workloads, each named workload loaded and run.
 */
record CoreSuite(String name, String api) implements Suite {
  /** In the order the core sequence runs them. */
  static final List<String> CORE_WORKLOADS = CoreSequence.STEPS.stream().map(CoreSequence.Step::workload).toList();

  @Override
  public String summary() {
    return "YCSB a-f over " + api.toUpperCase(java.util.Locale.ROOT);
  }

  @Override
  public List<String> workloads() {
    return CORE_WORKLOADS;
  }

  @Override
  public List<String> workloads(List<String> given, Path home) {
    for (String w : given) {
      if (!Files.isRegularFile(home.resolve("workloads").resolve(w))) {
        throw new UserError("--workloads: no workload file workloads/" + w);
      }
    }
    return given;
  }

  @Override
  public List<String> sequence(Path home, List<String> target, Integer duration, long records) {
    List<String> a = new ArrayList<>(List.of(CoreSequence.WORD, "--api", api));
    a.addAll(target);
    a.addAll(List.of("--records", Long.toString(records), "--duration", Integer.toString(duration != null ? duration
        : 30)));
    return a;
  }

  @Override
  public List<String> args(Path home, String workload, List<String> target, boolean runOnly, Integer duration,
      long records) {
    List<String> a = new ArrayList<>(List.of(workload, "--api", api));
    a.addAll(target);
    a.addAll(List.of("--records", Long.toString(records), "--duration",
        Integer.toString(duration != null ? duration : 30), "--phase", runOnly ? "run" : "both"));
    return a;
  }
}
