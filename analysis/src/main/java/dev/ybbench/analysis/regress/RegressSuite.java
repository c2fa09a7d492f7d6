package dev.ybbench.analysis.regress;

import dev.ybbench.harness.UserError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** regress.sh's suites, each what one run of one of its workloads against one side is. */
public enum RegressSuite {
  /** YCSB's core workloads a–f over YSQL. */
  YCSB_CORE("ycsb-core"),
  /** The same over YCQL. */
  YCQL_CORE("ycql-core"),
  /** TPC-C's tiny config: 1 warehouse, 4 terminals. */
  TPCC_SMALL("tpcc-small"),
  /** sysbench's OLTP tests that YugabyteDB publishes figures for, run by the real sysbench. */
  SYSBENCH_OLTP("sysbench-oltp");

  static final List<String> CORE_WORKLOADS = List.of("workloada", "workloadb", "workloadc", "workloadd",
      "workloade", "workloadf");
  /**
   * YugabyteDB's sysbench page's tests that Debian's sysbench ships (its oltp_multi_insert is
   * yugabyte/sysbench's own), and the point select.
   */
  static final List<String> SYSBENCH_TESTS = List.of("oltp_read_only", "oltp_read_write", "oltp_update_index",
      "oltp_point_select");
  /** The names a suite is given in errors. */
  static final String NAMES = "ycsb-core, ycql-core, tpcc-small or sysbench-oltp";

  final String label;

  RegressSuite(String label) {
    this.label = label;
  }

  static RegressSuite named(String name) {
    if (name == null) {
      throw new UserError("--suite is missing: " + NAMES);
    }
    return Arrays.stream(values()).filter(s -> s.label.equals(name)).findFirst().orElseThrow(() ->
        new UserError("unknown suite '" + name + "': use " + NAMES));
  }

  /** The workloads it runs unless --workloads says: YCSB's core files, TPC-C's one config, or the sysbench tests. */
  List<String> workloads() {
    return switch (this) {
      case YCSB_CORE, YCQL_CORE -> CORE_WORKLOADS;
      case TPCC_SMALL -> List.of("tpcc");
      case SYSBENCH_OLTP -> SYSBENCH_TESTS;
    };
  }

  /**
   * The command of one run, before its label and results directory.
   *
   * @param target   the side's server flags (--db-version V or --hosts H)
   * @param runOnly  run over the data an earlier round loaded (--reuse-data on hosts)
   * @param duration seconds per run, or null for the suite's (30 s YCSB and sysbench, 60 s TPC-C)
   * @param records  YCSB's records; sysbench's rows, over 2 tables
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
    if (this == SYSBENCH_OLTP) {
      // Without a command run_sysbench.sh loads the tables unless they hold this shape already (on
      // hosts, from an earlier round); "run" only runs, and fails if they are missing.
      cmd.addAll(List.of(home.resolve("run_sysbench.sh").toString(), workload));
      if (runOnly) {
        cmd.add("run");
      }
      cmd.addAll(target);
      cmd.addAll(List.of("--tables", "2", "--table-size", Long.toString(Math.max(1, records / 2)), "--threads", "4",
          "--duration", Integer.toString(duration != null ? duration : 30)));
      return cmd;
    }
    cmd.addAll(List.of(home.resolve("run_ycsb.sh").toString(), workload, "--api", this == YCQL_CORE ? "ycql" : "ysql"));
    cmd.addAll(target);
    cmd.addAll(List.of("--records", Long.toString(records), "--duration",
        Integer.toString(duration != null ? duration : 30), "--phase", runOnly ? "run" : "both"));
    return cmd;
  }
}
