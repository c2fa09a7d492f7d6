package dev.ybbench.harness.results;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Throughput and latency over time as gnuplot SVGs, from timeseries.csv. */
public final class Plots {
  private static final String TEMPLATE = "timeseries.gp";

  private Plots() {}

  /**
   * Draws {@code plots/<phase>-throughput.svg} and {@code plots/<phase>-latency.svg}.
   *
   * @return null when done, else a one-line reason (gnuplot missing or failing) for a warning
   */
  public static String draw(RunDirectory run, List<String> phases, String title) {
    try {
      Path script = Files.createTempFile("ybbench-plot", ".gp");
      try (InputStream in = Plots.class.getResourceAsStream(TEMPLATE)) {
        Files.write(script, in.readAllBytes());
      }
      try {
        for (String phase : phases) {
          String vars = "datafile='" + run.timeseries() + "'; outdir='" + run.plotsDir() + "'; phase='" + phase
              + "'; runtitle='" + title.replace("'", "") + "'";
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
      return "gnuplot is not installed (apt-get install gnuplot-nox), so plots/ stays empty";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted while plotting";
    }
  }
}
