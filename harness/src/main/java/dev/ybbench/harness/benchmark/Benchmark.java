package dev.ybbench.harness.benchmark;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;

/**
 * A benchmark ybbench runs: a module of its own that implements this and names its class in one
 * line of {@code META-INF/services/dev.ybbench.harness.benchmark.Benchmark}, as a YCSB binding is
 * one line of bin/bindings.properties and a BenchBase benchmark one of config/plugin.xml. The
 * {@link Runner} does what is the same for every benchmark (the command line, the run's life, the
 * dry run, merging, the history, the exit codes); the benchmark says what is its own through the
 * {@link BenchmarkCommand} each invocation parses into. Nothing outside its module names it.
 */
public interface Benchmark {
  /** Its name: {@code ./ybbench NAME}, and the bench of its run directories, run.json and history keys. */
  String name();

  /** The script that runs it (e.g. "run_tpcc.sh"): the name its usage and its equivalent commands give. */
  String script();

  /** One line for {@code ./ybbench --help}. */
  String summary();

  /** A new command for one invocation: its flags (a picocli command) and what it does with them. */
  BenchmarkCommand command();

  /**
   * The arguments of a short run on an embedded server that loads the classes a run loads: the
   * scripts record its class-data archive from it for an image (run-scripts/common.sh,
   * ybbench_cds). None: no archive made ahead.
   */
  default List<String> archiveRun(Path home) {
    return List.of();
  }

  /**
   * The Debian packages it runs (sysbench's "sysbench"): a run as root installs one that is missing
   * ({@code dev.ybbench.harness.cli.Packages}); an image and CI install them ahead.
   */
  default List<String> packages() {
    return List.of();
  }

  /**
   * A summary.json of results format 2 whose own fields (TPC-C's tpmC …) move, in place, to where
   * format 3 keeps them: its phases' headline and figures, and its key ({@code
   * dev.ybbench.harness.results.Format2}); the common fields move after.
   */
  default void upgradeFormat2(ObjectNode summary) {}

  /** How run-scripts/fleet.sh splits it over clients; null where it cannot. */
  default FleetSteps fleet() {
    return null;
  }

  /** Its suites for regress.sh (ycsb-core …): the rounds and bisection run them by name. */
  default List<Suite> suites() {
    return List.of();
  }
}
