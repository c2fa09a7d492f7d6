package dev.ybbench.ycsb;

import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.FleetSteps;
import dev.ybbench.ycsb.cli.Phase;
import dev.ybbench.ycsb.cli.YcsbSettings;
import dev.ybbench.ycsb.client.LoadCheckpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * fleet.sh's YCSB: each workload named runs in turn, its load by every client (each its slice of
 * the keys, client 0 creating the table the others wait for), then its run phase by every
 * client; each step's runs merged.
 */
final class YcsbFleet implements FleetSteps {
  @Override
  public boolean configurations() {
    return true;
  }

  @Override
  public List<Step> steps(BenchmarkCommand planned, int clients) {
    YcsbSettings s = settings(planned);
    if (s.phase() == Phase.CREATE) {
      throw new UserError("--phase create makes the table alone: run ./run_ycsb.sh " + s.workloadName()
          + " --phase create, then the fleet's load");
    }
    List<String> phases = s.phase() == Phase.BOTH ? List.of("load", "run") : List.of(s.phase().toString());
    return phases.stream().map(ph -> Step.all(ph, List.of("--phase", ph))).toList();
  }

  /** A load's client is resumed from its checkpoint: keys in doubt looked up, none written twice. */
  @Override
  public List<String> resume(Step step, Path failed) {
    return step.name().equals("load") && Files.isRegularFile(failed.resolve(LoadCheckpoint.FILE))
        ? List.of("--resume", failed.toString()) : null;
  }

  @Override
  public ServerTarget.Api api(BenchmarkCommand planned) {
    return settings(planned).api();
  }

  @Override
  public String needsData(BenchmarkCommand planned) {
    YcsbSettings s = settings(planned);
    return s.phase() != Phase.RUN ? null : s.workloadName() + " runs over a table loaded earlier (phase run), and an "
        + "embedded server started here would be empty: name the workload that loads it first (e.g. sqlinserts "
        + "sqlinserts-read) or give --hosts";
  }

  private static YcsbSettings settings(BenchmarkCommand planned) {
    YcsbSettings s = ((YcsbCommand) planned).settings();
    if (s == null) { // planned as no single run: the core sequence
      throw new dev.ybbench.harness.UserError("fleet.sh runs one workload a step, and core is six runs: run "
          + "./run_ycsb.sh core, or fleet.sh with one workload at a time");
    }
    return s;
  }
}
