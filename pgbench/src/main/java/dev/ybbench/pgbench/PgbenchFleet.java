package dev.ybbench.pgbench;

import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.FleetSteps;
import java.nio.file.Path;
import java.util.List;

/**
 * fleet.sh's pgbench: {@code -i} is client 0's alone; a run is every client's at once on tables
 * initialized before, their runs merged.
 */
final class PgbenchFleet implements FleetSteps {
  @Override
  public List<Step> steps(BenchmarkCommand planned, int clients) {
    return List.of(((PgbenchCommand) planned).o.initialize ? Step.alone("init", List.of())
        : Step.all("run", List.of()));
  }

  /** pgbench -i starts over (it drops the tables first). A killed run cannot be resumed: its window is gone. */
  @Override
  public List<String> resume(Step step, Path failed) {
    return step.name().equals("init") ? List.of() : null;
  }

  @Override
  public String needsData(BenchmarkCommand planned) {
    return ((PgbenchCommand) planned).o.initialize ? null : "a run's clients share tables initialized before, and an "
        + "embedded server started here would be empty: give --hosts, initialized by a fleet of -i first";
  }
}
