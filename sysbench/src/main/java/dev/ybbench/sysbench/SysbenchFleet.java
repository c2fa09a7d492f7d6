package dev.ybbench.sysbench;

import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.FleetSteps;
import java.nio.file.Path;
import java.util.List;

/**
 * fleet.sh's sysbench: client 0 prepares the tables (unless the command says 'run': they were
 * prepared before), then every client runs the test on them at once, their runs merged; a
 * 'prepare' or 'cleanup' alone is client 0's.
 */
final class SysbenchFleet implements FleetSteps {
  @Override
  public List<Step> steps(BenchmarkCommand planned, int clients) {
    String command = ((SysbenchCommand) planned).o.command;
    if (command == null) {
      return List.of(Step.alone("prepare", List.of("prepare")), Step.all("run", List.of("run")));
    }
    return List.of(command.equals("run") ? Step.all("run", List.of()) : Step.alone(command, List.of()));
  }

  /**
   * A prepare killed half-way is prepared again by the same command: each table is dropped and
   * loaded anew, and sbtest1's mark of a finished prepare is written only at the end, so no row
   * is there twice. A killed run cannot be resumed: its measured window is gone.
   */
  @Override
  public List<String> resume(Step step, Path failed) {
    return step.name().equals("prepare") ? List.of() : null;
  }

  @Override
  public String needsData(BenchmarkCommand planned) {
    return !"run".equals(((SysbenchCommand) planned).o.command) ? null : "'run' runs on tables prepared earlier, and "
        + "an embedded server started here would be empty: leave 'run' out (client 0 prepares them first) or give "
        + "--hosts";
  }
}
