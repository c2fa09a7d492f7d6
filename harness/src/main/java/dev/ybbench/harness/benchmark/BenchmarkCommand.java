package dev.ybbench.harness.benchmark;

import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.run.RunOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One invocation of a benchmark: a picocli {@code @Command} whose fields are the benchmark's
 * flags and the option groups every runner shares ({@link RunOptions}, {@link MergeOptions}), as
 * mixins, and what the benchmark does with them once parsed. The {@link Runner} calls it in this
 * order: {@link #translate}, picocli, then a merge ({@link #merge}, {@link #audit}), an action of
 * its own ({@link #instead}), or a {@link #plan} that a dry run prints and a run runs.
 */
public interface BenchmarkCommand {
  /** Where results go, when a run fails, the history, the dry run: the runner's own options. */
  RunOptions output();

  /** --merge and --include-incomplete. */
  MergeOptions merging();

  /**
   * Another tool's command line (YCSB's, BenchBase's, sysbench's …) in this benchmark's flags,
   * said as it is translated; a command line of its own as it is.
   *
   * @param console where the translation is said ("sysbench's command line, run as: …")
   */
  default Translation translate(List<String> given, Consumer<String> console) {
    return new Translation(given, given);
  }

  /**
   * A command line as the runner parses it, and as run.json records it (the line as typed, or its
   * translation where the translation is what ran).
   */
  record Translation(List<String> args, List<String> recorded) {
    /**
     * Another tool's command line in {@code script}'s flags, said as it runs ("sysbench's command
     * line, run as: ./run_sysbench.sh …", its password hidden) with a note each for what changes
     * nothing; run.json records the translation. A command line of the benchmark's own ({@code
     * dialect} null) as it is.
     */
    public static Translation said(String dialect, List<String> args, List<String> notes, String script,
        Consumer<String> console) {
      if (dialect != null) {
        console.accept(dialect + "'s command line, run as: ./" + script + " "
            + ShellWords.join(RunInfo.redactCommand(args, Console::clean)));
      }
      notes.forEach(n -> console.accept("note: " + n));
      return new Translation(args, args);
    }
  }

  /** Refusals of a --merge beyond the runner's, e.g. a workload given with it. */
  default void checkMerge() {}

  /**
   * Adds several clients' runs up into one run directory under {@code resultsRoot}.
   *
   * @param includeIncomplete merge the complete runs of a fleet that lacks a client into a run
   *                          marked partial; a benchmark that cannot refuses it by name
   */
  Path merge(List<Path> runs, Path resultsRoot, boolean includeIncomplete, Consumer<String> warn,
      BooleanSupplier stop) throws IOException;

  /** The merged run checked against the server's own counts, said on {@code out}: false when they differ. */
  default boolean audit(Path merged, Consumer<String> out) throws IOException {
    return true;
  }

  /**
   * A command line that asks for something other than a run or a merge (TPC-C's --import of
   * BenchBase's results) does it here.
   *
   * @return its exit code, or null for a run
   */
  default Outcome instead(Context context) throws Exception {
    return null;
  }

  /** What the run will do, every refusal made before anything starts. */
  Plan plan(Context context) throws Exception;

  /**
   * What {@link #instead} did: its exit code, the run directory it wrote (or null), and for a dry
   * run of several runs at once (YCSB's core sequence) their phases in one outline (or null), as
   * regress.sh plans a suite's time by.
   */
  record Outcome(int exitCode, Path runDirectory, Outline planned) {
    public Outcome(int exitCode, Path runDirectory) {
      this(exitCode, runDirectory, null);
    }
  }
}
