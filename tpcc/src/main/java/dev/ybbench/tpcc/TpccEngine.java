package dev.ybbench.tpcc;

import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.run.Run;
import dev.ybbench.tpcc.core.TpccDatabase;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What creates, loads and executes a TPC-C run: ybbench's own loader and terminals
 * ({@link OwnEngine}), or the user's BenchBase build ({@link BenchBaseEngine}) against the same
 * target. Either way the run's server, results, consistency check and charts are ybbench's.
 */
interface TpccEngine {
  /** "ybbench" or "benchbase", as run.json records it. */
  String name();

  /** Whether the terminals are ybbench's, sharing its pool of connections (BenchBase opens one per terminal). */
  boolean ownTerminals();

  /** What run.json records of the engine beside the config (nothing for ybbench's own). */
  Map<String, Object> runInfo();

  /** The database as this engine connects to it (BenchBase's with the settings it supports). */
  TpccDatabase database(TpccTarget target);

  /** The database, made ready before the run looks at it (the target made the config's). */
  default TpccDatabase open(TpccTarget target, Consumer<String> log) {
    return database(target);
  }

  /**
   * Creates, loads and executes as asked, recording each phase in the run, and lets other runs
   * share the tables once they exist; returns the works measured, by phase (none without
   * execute, or when interrupted).
   */
  Map<String, PhaseResult> run(Run run, TpccPlan plan, TpccTarget target, TpccDatabase db, boolean create,
      boolean load, boolean execute) throws Exception;
}
