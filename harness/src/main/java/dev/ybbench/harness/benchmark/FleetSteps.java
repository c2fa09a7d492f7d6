package dev.ybbench.harness.benchmark;

import dev.ybbench.harness.ServerTarget;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntFunction;

/**
 * How run-scripts/fleet.sh drives a benchmark's clients against one server ({@link
 * Benchmark#fleet}): each configuration (a YCSB workload; TPC-C's config; a sysbench test) runs
 * as steps in order, every client of a step at once, the next step only once they have all
 * ended. Every client is the benchmark's own command with {@link FleetOptions}' flags.
 */
public interface FleetSteps {
  /**
   * Whether the words of fleet.sh's command line that are not flags name configurations to run
   * one after another (YCSB's workloads); otherwise they are the benchmark's own arguments.
   */
  default boolean configurations() {
    return false;
  }

  /**
   * The steps of one configuration, from client 0's plan of it (its command as a dry run parsed
   * and planned it); a command line the fleet cannot split is refused here, in one line.
   */
  List<Step> steps(BenchmarkCommand planned, int clients);

  /** The API of the server the clients share: the embedded server fleet.sh starts serves it. */
  default ServerTarget.Api api(BenchmarkCommand planned) {
    return ServerTarget.Api.YSQL;
  }

  /**
   * Why the configuration cannot start on the empty server fleet.sh would start for it (it reads
   * what an earlier run loaded), in one line that says what to do instead; null when it can.
   */
  default String needsData(BenchmarkCommand planned) {
    return null;
  }

  /**
   * The arguments that resume a step's client whose run {@code failed} ended before its step did
   * (a load killed half-way: YCSB's and TPC-C's {@code --resume RUN_DIR}; none, for a step whose
   * own command starts over, as sysbench's prepare), or null where the benchmark cannot resume
   * it; the resumed run then stands for the client in the step's merge.
   */
  default List<String> resume(Step step, Path failed) {
    return null;
  }

  /**
   * One step.
   *
   * @param name   as its lines and its run directories' phase say it ("load", "run", "create" …)
   * @param alone  client 0 runs it by itself (creating the tables once); otherwise every client
   * @param args   client I's arguments for it, after the fleet's own
   * @param merged whether the clients' runs merge into one, audited (one client's run stands alone)
   */
  record Step(String name, boolean alone, IntFunction<List<String>> args, boolean merged) {
    /** Every client with the same arguments, their runs merged. */
    public static Step all(String name, List<String> args) {
      return new Step(name, false, i -> args, true);
    }

    /** Client 0 alone. */
    public static Step alone(String name, List<String> args) {
      return new Step(name, true, i -> args, false);
    }
  }
}
