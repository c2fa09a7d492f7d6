package dev.ybbench.harness.results;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the gnuplot templates the harness ships as classpath resources. */
public final class Gnuplot {
  private Gnuplot() {}

  /**
   * Runs {@code template} (a resource next to {@code owner}) once per set of variables, each a
   * gnuplot {@code -e} string such as {@code "out='a.svg'; mode='bars'"}.
   *
   * @return null when every chart was drawn, else a one-line reason for a warning
   */
  public static String run(Class<?> owner, String template, List<String> variableSets) {
    return run(owner, template, variableSets, () -> { });
  }

  /** As above, {@code beforeEach} called before each chart: a stop asked for ends the drawing by throwing. */
  public static String run(Class<?> owner, String template, List<String> variableSets, Runnable beforeEach) {
    try {
      Path script = Files.createTempFile("ybbench-", ".gp");
      try (InputStream in = owner.getResourceAsStream(template)) {
        Files.write(script, in.readAllBytes());
      }
      try {
        for (String vars : variableSets) {
          beforeEach.run();
          Process p = new ProcessBuilder("gnuplot", "-e", vars, script.toString()).redirectErrorStream(true).start();
          String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
          if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            return "gnuplot failed: " + out.strip().replace('\n', ' ');
          }
        }
      } finally {
        Files.deleteIfExists(script);
      }
      return null;
    } catch (IOException e) {
      return "gnuplot is not installed (apt-get install gnuplot-nox), so there are no charts";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted while drawing charts";
    }
  }

  /** A value for a single-quoted gnuplot string. */
  public static String quote(String s) {
    return "'" + s.replace("'", "") + "'";
  }
}
