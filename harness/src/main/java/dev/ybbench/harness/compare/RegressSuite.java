package dev.ybbench.harness.compare;

import dev.ybbench.harness.UserError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** regress.sh's suites, each what one run of one of its workloads against one side is. */
enum RegressSuite {
  /** YCSB's core workloads a–f over YSQL. */
  YCSB_CORE("ycsb-core"),
  /** The same over YCQL. */
  YCQL_CORE("ycql-core"),
  /** TPC-C's tiny config: 1 warehouse, 4 terminals. */
  TPCC_SMALL("tpcc-small");

  static final List<String> CORE_WORKLOADS = List.of("workloada", "workloadb", "workloadc", "workloadd",
      "workloade", "workloadf");

  final String label;

  RegressSuite(String label) {
    this.label = label;
  }

  static RegressSuite named(String name) {
    if (name == null) {
      throw new UserError("--suite is missing: ycsb-core, ycql-core or tpcc-small");
    }
    return Arrays.stream(values()).filter(s -> s.label.equals(name)).findFirst().orElseThrow(() ->
        new UserError("unknown suite '" + name + "': use ycsb-core, ycql-core or tpcc-small"));
  }

  /**
   * The command of one run, before its label and results directory.
   *
   * @param target   the side's server flags (--db-version V or --hosts H)
   * @param runOnly  run over the data an earlier round loaded (--reuse-data on hosts)
   * @param duration seconds per run, or null for the suite's (30 s YCSB, 60 s TPC-C)
   */
  List<String> command(Path home, String workload, List<String> target, boolean runOnly, Integer duration,
      long records) {
    List<String> cmd = new ArrayList<>();
    if (this == TPCC_SMALL) {
      cmd.addAll(List.of(home.resolve("run_tpcc.sh").toString(), "--config",
          home.resolve("tpcc/config/tiny.xml").toString()));
      cmd.addAll(target);
      if (!runOnly) {
        cmd.addAll(List.of("--create", "--load", "--execute", "--check"));
      } // with no phase flags run_tpcc.sh loads only what is missing
      cmd.addAll(List.of("--duration", Integer.toString(duration != null ? duration : 60)));
      return cmd;
    }
    cmd.addAll(List.of(home.resolve("run_ycsb.sh").toString(), workload, "--api", this == YCQL_CORE ? "ycql" : "ysql"));
    cmd.addAll(target);
    cmd.addAll(List.of("--records", Long.toString(records), "--duration",
        Integer.toString(duration != null ? duration : 30), "--phase", runOnly ? "run" : "both"));
    return cmd;
  }
}
