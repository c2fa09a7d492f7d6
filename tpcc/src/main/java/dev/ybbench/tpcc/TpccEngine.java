package dev.ybbench.tpcc;

import dev.ybbench.harness.ysql.SqlTarget;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.run.Run;
import dev.ybbench.tpcc.core.TpccDatabase;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What creates, loads and executes a TPC-C run: ybbench's own loader and terminals
 * ({@link YbbenchEngine}), or the user's BenchBase build ({@link BenchBaseEngine}) against the same
 * target. Either way the run's server, results, consistency check and charts are ybbench's.
 */
interface TpccEngine {
  /** "ybbench" or "benchbase", as run.json records it. */
  String name();

  /** Whether the terminals are ybbench's, sharing its pool of connections (BenchBase opens one per terminal). */
  boolean ownTerminals();

  /** What run.json records of the engine beside the config (nothing for ybbench's own). */
  Map<String, Object> runInfo();

  /**
   * Consistency conditions whose failure is the engine's own, not the run's, and why: recorded in
   * summary.json, not held against the run. None for ybbench's own.
   */
  default Tolerated tolerated() {
    return Tolerated.NONE;
  }

  /** @param why one line, printed when one of {@code conditions} fails */
  record Tolerated(List<String> conditions, String why) {
    static final Tolerated NONE = new Tolerated(List.of(), null);
  }

  /** The database as this engine connects to it (BenchBase's with the settings it supports). */
  TpccDatabase database(TpccDatabase config);

  /** The database, made ready before the run looks at it (the target made the config's). */
  default TpccDatabase open(TpccDatabase config, Consumer<String> log) {
    return database(config);
  }

  /**
   * Creates, loads and executes as asked, recording each phase in the run, and lets other runs
   * share the tables once they exist; returns the works measured, by phase (none without
   * execute, or when interrupted).
   */
  Map<String, PhaseResult> run(Run run, TpccPlan plan, SqlTarget target, TpccDatabase db, boolean create,
      boolean load, boolean execute) throws Exception;
}
