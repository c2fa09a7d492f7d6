package dev.ybbench.harness.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Throughput and latency over time as gnuplot SVGs, from timeseries.csv and server-timeseries.csv. */
public final class Plots {
  private Plots() {}

  /**
   * Draws {@code plots/<phase>-throughput.svg} and {@code plots/<phase>-latency.svg}, and
   * {@code plots/<phase>-server.svg} for each phase the server's view was sampled in.
   *
   * @return null when done, else a one-line reason (gnuplot missing or failing) for a warning
   */
  public static String draw(RunDirectory run, List<String> phases, String title) {
    return draw(run, phases, title, () -> { });
  }

  /** As above, {@code beforeEach} called before each chart (a stop asked for throws). */
  public static String draw(RunDirectory run, List<String> phases, String title, Runnable beforeEach) {
    String common = "clientfile=" + Gnuplot.quote(run.timeseries().toString()) + "; outdir="
        + Gnuplot.quote(run.plotsDir().toString()) + "; runtitle=" + Gnuplot.quote(title);
    String why = Gnuplot.run(Plots.class, "timeseries.gp", phases.stream()
        .map(phase -> common + "; datafile=" + Gnuplot.quote(run.timeseries().toString()) + "; phase="
            + Gnuplot.quote(phase))
        .toList(), beforeEach);
    Path serverFile = run.path().resolve(RunDirectory.SERVER_TIMESERIES);
    if (why != null || !Files.exists(serverFile)) {
      return why;
    }
    List<Path> wide = new ArrayList<>();
    try {
      List<String[]> rows = Files.readAllLines(serverFile).stream().skip(1).map(l -> l.split(",", -1)).toList();
      List<String> sets = new ArrayList<>();
      for (String phase : phases) {
        List<String[]> mine = rows.stream().filter(r -> r[0].equals(phase)).toList();
        if (!mine.isEmpty()) {
          List<String> nodes = mine.stream().map(r -> r[2]).distinct().toList();
          Path f = Files.createTempFile("ybbench-server-", ".csv");
          wide.add(f);
          Files.writeString(f, perSample(mine, nodes));
          boolean cpu = mine.stream().anyMatch(r -> !r[9].isEmpty());
          sets.add(common + "; serverfile=" + Gnuplot.quote(f.toString()) + "; phase=" + Gnuplot.quote(phase)
              + "; nodes=" + Gnuplot.quote(String.join(" ", nodes)) + "; cpu=" + (cpu ? 1 : 0));
        }
      }
      return Gnuplot.run(Plots.class, "server.gp", sets, beforeEach);
    } catch (IOException e) {
      return "cannot draw the server chart: " + e.getMessage();
    } finally {
      wide.forEach(f -> f.toFile().delete());
    }
  }

  /**
   * server-timeseries.csv's rows of one phase (one per node per sample) as one line per sample:
   * elapsed seconds, each node's reads + writes per second, then each node's CPU cores, empty
   * where a node has no figure. A node's points then stand in one column, which gnuplot draws as
   * one line (interleaved rows of other nodes would break it at every point).
   */
  static String perSample(List<String[]> rows, List<String> nodes) {
    Map<String, String[]> samples = new LinkedHashMap<>();
    for (String[] r : rows) {
      String[] line = samples.computeIfAbsent(r[1], k -> new String[2 * nodes.size()]);
      int i = nodes.indexOf(r[2]);
      if (i >= 0) {
        line[i] = String.format(Locale.ROOT, "%.1f", Double.parseDouble(r[3]) + Double.parseDouble(r[4]));
        line[nodes.size() + i] = r[9];
      }
    }
    StringBuilder out = new StringBuilder();
    samples.forEach((elapsed, line) -> {
      out.append(elapsed);
      for (String v : line) {
        out.append(',').append(v == null ? "" : v);
      }
      out.append('\n');
    });
    return out.toString();
  }
}
