package dev.ybbench.harness.run;

import dev.ybbench.harness.UserError;
import java.nio.file.Path;
import java.util.ServiceLoader;
import java.util.function.Consumer;

/**
 * Where a runner's --history records the run it made. The analysis module implements it, reading
 * a run as compare.sh reads it; a runner finds it through the ServiceLoader, so the code that
 * judges runs is no part of the code that makes them.
 */
public interface RunHistory {
  /**
   * Refuses, with a {@link UserError}, a history that cannot be written: found before the run, not
   * after. Without {@code open} (a dry run, which contacts no host and writes no file) only its
   * form is checked: a file that could be created, or a postgresql:// URL.
   */
  void check(String history, boolean open);

  /**
   * Records a run that just ended into {@code history} and says so in one line; a run that cannot
   * be recorded says why. Without a history (null) or a run (null: it never started), nothing.
   *
   * @return the exit code: {@code exit} as it was, or 1 when a complete run could not be recorded
   *         (a pipeline that asked for its history must not read it as kept)
   */
  int record(String history, Path runDir, int exit, Consumer<String> out);

  /**
   * --confirm N: judges the run that just ended ({@code runDir}, recorded) against {@code history},
   * and while it is a regression or undecided runs it again, up to {@code more} times, as
   * compare.sh --history --confirm does.
   *
   * @param home the ybbench checkout the runs again start from
   * @return the verdict's exit code: 0 pass, 1 regression, 2 cannot be judged, 3 undecided
   */
  int confirm(String history, Path runDir, int more, Path home, Consumer<String> out);

  /** The history on the class path; without one, --history is refused by name. */
  static RunHistory find() {
    return ServiceLoader.load(RunHistory.class).findFirst().orElse(NONE);
  }

  /** No analysis module: a run made without --history needs none. */
  RunHistory NONE = new RunHistory() {
    @Override
    public void check(String history, boolean open) {
      throw new UserError("--history needs ybbench's analysis module (analysis/target/analysis.jar), which this "
          + "build lacks: build the whole project (mvn package), or leave --history out");
    }

    @Override
    public int record(String history, Path runDir, int exit, Consumer<String> out) {
      if (history != null && runDir != null) {
        check(history, true);
      }
      return exit;
    }

    @Override
    public int confirm(String history, Path runDir, int more, Path home, Consumer<String> out) {
      check(history, true);
      return 2;
    }
  };
}
