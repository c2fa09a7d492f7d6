package dev.ybbench.harness.benchmark;

import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.run.RunOptions;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What a run will do, settled from the command line before anything starts: a dry run prints it,
 * a run opens its target and runs its phases in the {@link RunLifecycle}.
 */
public interface Plan {
  /** What every dry run says first, in the same words (the runner prints it). */
  Outline outline();

  /** The benchmark's own settings as the dry run prints them after the outline, one a line. */
  Map<String, String> settings();

  /** The run's workload: its run directory's and run.json's name for what ran. */
  String workload();

  /** The options the run takes (a benchmark may settle the label from its own files). */
  RunOptions output();

  /** Every effective parameter, read once the target is open; passwords redacted. */
  Map<String, String> parameters();

  /** Further run.json fields (e.g. "api", "config_file"). */
  Map<String, Object> extra();

  /**
   * What a run does before it starts that a dry run only says it will do (installing sysbench
   * where it is missing); after this, {@link #extra} and {@link #parameters} are read.
   */
  default void prepare(Consumer<String> log) {}

  /** Starts or finds the server and claims what the run uses; a one-line error otherwise. */
  RunLifecycle.Target open(Consumer<String> log);

  /** The phases, in order, against the target {@link #open} returned. */
  void run(Run run) throws Exception;
}
