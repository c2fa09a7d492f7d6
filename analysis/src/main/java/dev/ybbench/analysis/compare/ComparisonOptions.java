package dev.ybbench.analysis.compare;

import dev.ybbench.harness.UserError;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * How two sides are compared: the flags compare.sh takes and regress.sh hands on to it, declared
 * once and checked before anything starts.
 */
public final class ComparisonOptions {
  @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5",
      description = "changes smaller than this are 'no change' (default: ${DEFAULT-VALUE} %%)")
  public double threshold;

  @Option(names = "--gate", paramLabel = "PERCENTILE", description = "a latency percentile that gates the exit "
      + "code too, per operation: p50, p95, p99 or p99.9")
  public String gate;

  @Option(names = "--undecided", paramLabel = "pass|fail", description = "what an undecided headline means for "
      + "the exit code: pass (0) or fail (1); by default 3, so that a pipeline never passes what was not measured "
      + "well enough. A repeated look before the last (--looks) exits 3 regardless")
  public String undecided;

  @Option(names = "--results-dir", paramLabel = "DIR", description = "where labels are looked up, runs go and the "
      + "comparison directory is written (default: results/)")
  Path resultsDir;

  @Option(names = "--include-incomplete", description = "accept failed and interrupted runs as repetitions (refused "
      + "by default, and regress.sh stops its suite at one: a broken run would read as a change of the product)")
  public boolean includeIncomplete;

  /** Refuses what no comparison can take, before anything starts. */
  public void check() {
    if (!(threshold > 0)) {
      throw new UserError("--threshold must be above 0 %, was " + threshold);
    }
    if (undecided != null && !List.of("pass", "fail").contains(undecided)) {
      throw new UserError("--undecided must be pass or fail, was " + undecided);
    }
    if (gate != null && !ComparedMetrics.GATES.contains(gate)) {
      throw new UserError("--gate must be one of " + String.join(", ", ComparedMetrics.GATES) + ", was " + gate);
    }
  }

  /** {@code --results-dir}, else {@code home}'s results/. */
  public Path results(Path home) {
    return resultsDir != null ? resultsDir : home.resolve("results");
  }

  /** These options as compare.sh takes them, with the results directory given. */
  public List<String> args(Path results) {
    List<String> a = new ArrayList<>(List.of("--threshold",
        BigDecimal.valueOf(threshold).stripTrailingZeros().toPlainString(), "--results-dir", results.toString()));
    if (gate != null) {
      a.addAll(List.of("--gate", gate));
    }
    if (undecided != null) {
      a.addAll(List.of("--undecided", undecided));
    }
    if (includeIncomplete) {
      a.add("--include-incomplete");
    }
    return a;
  }
}
