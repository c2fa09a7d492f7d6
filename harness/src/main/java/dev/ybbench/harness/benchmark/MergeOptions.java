package dev.ybbench.harness.benchmark;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/** The runner's --merge, which every benchmark takes (a picocli mixin). */
public final class MergeOptions {
  @Option(names = "--merge", arity = "1..*", paramLabel = "RUN_DIR", descriptionKey = "merge",
      description = "add the runs of clients that ran at once up into one run directory")
  public List<Path> merge;

  @Option(names = "--include-incomplete", descriptionKey = "include-incomplete", description = "with --merge: "
      + "merge the complete runs of a fleet that lacks a client, or holds a failed or interrupted one, into a run "
      + "marked partial (refused otherwise)")
  public boolean includeIncomplete;
}
