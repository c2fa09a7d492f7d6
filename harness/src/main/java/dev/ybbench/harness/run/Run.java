package dev.ybbench.harness.run;

import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import java.util.ArrayList;
import java.util.List;

/**
 * A run in progress, as a benchmark's phases see it: where to print and write, whether Ctrl-C
 * arrived, and where each phase's result goes. {@link #record} is also where a phase that cannot
 * stand ends the run.
 */
public final class Run {
  private final RunLifecycle lifecycle;
  private final RunDirectory directory;
  private final Timeseries timeseries;
  private final PhaseCheck.Limits limits;
  private final List<String> measuredPhases = new ArrayList<>();
  private volatile RunSummary summary;

  Run(RunLifecycle lifecycle, RunDirectory directory, Timeseries timeseries, PhaseCheck.Limits limits,
      RunSummary summary) {
    this.lifecycle = lifecycle;
    this.directory = directory;
    this.timeseries = timeseries;
    this.limits = limits;
    this.summary = summary;
  }

  public Console console() {
    return lifecycle.console();
  }

  public RunDirectory directory() {
    return directory;
  }

  public Timeseries timeseries() {
    return timeseries;
  }

  /** True once Ctrl-C (or SIGTERM) has arrived: phases end early and later ones do not start. */
  public boolean interrupted() {
    return lifecycle.interrupted();
  }

  /** What Ctrl-C should do to the phase now running (replaces the previous phase's). */
  public void onStop(Runnable stop) {
    lifecycle.onStop(stop);
  }

  /**
   * Keeps a phase's result in summary.json and judges it: a phase whose figures cannot stand
   * ({@link PhaseCheck}) ends the run as failed. A phase cut short by Ctrl-C is kept, not judged.
   */
  public void record(String phase, PhaseResult result) {
    keep(phase, result);
    if (!interrupted()) {
      String problem = PhaseCheck.problem(phase, result, limits);
      if (problem != null) {
        throw new RunFailure(problem);
      }
    }
  }

  /**
   * Keeps a phase's result without judging it: a warm-up, whose errors are the cold start it is
   * there to absorb.
   */
  public void keep(String phase, PhaseResult result) {
    summary = summary.withPhase(phase, result);
    if (result.operations() != null && !result.operations().isEmpty()) {
      measuredPhases.add(phase);
    }
  }

  /** TPC-C's run-wide facts: warehouses and terminals, and the consistency check when it ran. */
  public void recordTpcc(Integer warehouses, Integer terminals, RunSummary.Consistency consistency) {
    summary = summary.withTpcc(warehouses, terminals, consistency != null ? consistency : summary.consistency());
  }

  RunSummary summary() {
    return summary;
  }

  /** Phases with a timeseries to draw. */
  List<String> measuredPhases() {
    return List.copyOf(measuredPhases);
  }
}
