package dev.ybbench.analysis.regress;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** regress.sh's way of running a benchmark: a process of its own, with the build regress.sh made. */
public final class BenchmarkProcess {
  private BenchmarkProcess() {}

  /** A benchmark in a process of its own, its output kept in a file and only the last lines shown on failure. */
  static Regress.Outcome run(List<String> command) throws IOException, InterruptedException {
    Finished f = finish(command);
    List<String> lines = f.lines();
    return new Regress.Outcome(f.exitCode(), lines.subList(Math.max(0, lines.size() - 3), lines.size()));
  }

  /** What a process printed (its output and errors, in order) and its exit code. */
  public record Finished(int exitCode, List<String> lines) {}

  /**
   * {@code command} in a process of its own with the build this one made, its output kept in a
   * file until it ends; Ctrl-C here (an interrupt) stops it.
   */
  public static Finished finish(List<String> command) throws IOException, InterruptedException {
    Path log = Files.createTempFile("ybbench-run-", ".log");
    try {
      ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().put("YBBENCH_SKIP_BUILD", "1"); // the build this one made, for every run
      Process p = pb.start();
      int rc;
      try {
        rc = p.waitFor();
      } catch (InterruptedException e) {
        p.destroy();
        throw e;
      }
      return new Finished(rc, Files.readAllLines(log, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
