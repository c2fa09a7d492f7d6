package dev.ybbench.harness.benchmark;

import java.nio.file.Path;
import java.util.List;

/**
 * One of regress.sh's suites, which its benchmark names ({@link Benchmark#suites}): the workloads
 * it runs, and the benchmark's arguments for one run of one of them against one side.
 */
public interface Suite {
  /** Its name for --suite, e.g. "ycsb-core". */
  String name();

  /** What it runs, in a few words, for regress.sh's usage. */
  String summary();

  /** The workloads it runs unless --workloads says. */
  List<String> workloads();

  /** --workloads, refused where they are not this suite's to run (one line naming the first). */
  List<String> workloads(List<String> given, Path home);

  /** How a round's line names one run: the workload, or what the benchmark calls it. */
  default String describe(String workload) {
    return workload;
  }

  /**
   * Where the suite's own workloads run as one sequence on each side (YCSB's core: several
   * workloads over one load), the benchmark's arguments for that one invocation, before its label
   * and results directory; null (the default) where each workload is a run of its own. Its dry run
   * gives every phase of the sequence in one outline.
   */
  default List<String> sequence(Path home, List<String> target, Integer duration, long records) {
    return null;
  }

  /**
   * The benchmark's arguments for one run, before its label and results directory.
   *
   * @param target   the side's server flags (--db-version V or --hosts H)
   * @param runOnly  run over the data an earlier round loaded (--reuse-data on hosts)
   * @param duration seconds per run, or null for the suite's own
   * @param records  the data's size: the suite says what it counts
   */
  List<String> args(Path home, String workload, List<String> target, boolean runOnly, Integer duration,
      long records);
}
