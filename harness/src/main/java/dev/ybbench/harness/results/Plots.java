package dev.ybbench.harness.results;

import dev.ybbench.harness.server.ServerSampler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Throughput and latency over time as gnuplot SVGs, from timeseries.csv and server-timeseries.csv. */
public final class Plots {
  private Plots() {}

  /**
   * Draws {@code plots/<phase>-throughput.svg} and {@code plots/<phase>-latency.svg}, and
   * {@code plots/<phase>-server.svg} for each phase the server's view was sampled in.
   *
   * @param nodes the nodes in server-timeseries.csv (empty when the server's view was not sampled)
   * @return null when done, else a one-line reason (gnuplot missing or failing) for a warning
   */
  public static String draw(RunDirectory run, List<String> phases, List<String> nodes, String title) {
    String common = "clientfile=" + Gnuplot.quote(run.timeseries().toString()) + "; outdir="
        + Gnuplot.quote(run.plotsDir().toString()) + "; runtitle=" + Gnuplot.quote(title);
    String why = Gnuplot.run(Plots.class, "timeseries.gp", phases.stream()
        .map(phase -> common + "; datafile=" + Gnuplot.quote(run.timeseries().toString()) + "; phase="
            + Gnuplot.quote(phase))
        .toList());
    Path serverFile = run.path().resolve(ServerSampler.FILE);
    if (why != null || nodes.isEmpty() || !Files.exists(serverFile)) {
      return why;
    }
    List<String> sets = new ArrayList<>();
    try {
      List<String[]> rows = Files.readAllLines(serverFile).stream().skip(1).map(l -> l.split(",", -1)).toList();
      for (String phase : phases) {
        List<String[]> mine = rows.stream().filter(r -> r[0].equals(phase)).toList();
        if (!mine.isEmpty()) {
          boolean cpu = mine.stream().anyMatch(r -> r.length > 9 && !r[9].isEmpty());
          sets.add(common + "; serverfile=" + Gnuplot.quote(serverFile.toString()) + "; phase=" + Gnuplot.quote(phase)
              + "; nodes=" + Gnuplot.quote(String.join(" ", nodes)) + "; cpu=" + (cpu ? 1 : 0));
        }
      }
    } catch (IOException e) {
      return "cannot read " + serverFile.getFileName() + ": " + e.getMessage();
    }
    return Gnuplot.run(Plots.class, "server.gp", sets);
  }
}
