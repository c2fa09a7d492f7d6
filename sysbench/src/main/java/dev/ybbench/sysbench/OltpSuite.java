package dev.ybbench.sysbench;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Suite;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * regress.sh's sysbench suite: the tests of YugabyteDB's sysbench page that Debian's sysbench
 * ships (its oltp_multi_insert is yugabyte/sysbench's own), and the point select; 2 tables over
 * --records rows, 4 threads, 30 s a run.
 */
final class OltpSuite implements Suite {
  static final List<String> TESTS = List.of("oltp_read_only", "oltp_read_write", "oltp_update_index",
      "oltp_point_select");

  @Override
  public String name() {
    return "sysbench-oltp";
  }

  @Override
  public String summary() {
    return "the real sysbench's " + String.join(", ", TESTS.subList(0, TESTS.size() - 1)) + " and "
        + TESTS.get(TESTS.size() - 1) + "; 2 tables, 4 threads";
  }

  @Override
  public List<String> workloads() {
    return TESTS;
  }

  @Override
  public List<String> workloads(List<String> given, Path home) {
    for (String w : given) {
      if (!w.matches("(oltp|select)_[a-z_]+")) {
        throw new UserError("--workloads: " + w + " is not a sysbench test (oltp_read_only, select_random_points, "
            + "…)");
      }
    }
    return given; // run_sysbench.sh names the tests it runs, and refuses any other
  }

  @Override
  public String describe(String workload) {
    return "sysbench " + workload;
  }

  /** Without a command run_sysbench.sh loads the tables unless they hold this shape; "run" only runs. */
  @Override
  public List<String> args(Path home, String workload, List<String> target, boolean runOnly, Integer duration,
      long records) {
    List<String> a = new ArrayList<>(List.of(workload));
    if (runOnly) {
      a.add("run");
    }
    a.addAll(target);
    a.addAll(List.of("--tables", "2", "--table-size", Long.toString(Math.max(1, records / 2)), "--threads", "4",
        "--duration", Integer.toString(duration != null ? duration : 30)));
    return a;
  }
}
