package dev.ybbench.harness.results;

import java.util.List;

/** Throughput and latency over time as gnuplot SVGs, from timeseries.csv. */
public final class Plots {
  private Plots() {}

  /**
   * Draws {@code plots/<phase>-throughput.svg} and {@code plots/<phase>-latency.svg}.
   *
   * @return null when done, else a one-line reason (gnuplot missing or failing) for a warning
   */
  public static String draw(RunDirectory run, List<String> phases, String title) {
    return Gnuplot.run(Plots.class, "timeseries.gp", phases.stream()
        .map(phase -> "datafile=" + Gnuplot.quote(run.timeseries().toString()) + "; outdir="
            + Gnuplot.quote(run.plotsDir().toString()) + "; phase=" + Gnuplot.quote(phase) + "; runtitle="
            + Gnuplot.quote(title))
        .toList());
  }
}
