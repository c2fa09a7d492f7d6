package dev.ybbench.tpcc;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.FleetSteps;
import dev.ybbench.harness.merge.ResumedLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * fleet.sh's TPC-C: client 0 creates the tables; every client loads its share of the warehouses
 * ({@code --clients}: the one with warehouse 1 loads ITEM too), their loads merged into one; every
 * client drives its share, their works merged into one run; client 0 checks the consistency
 * conditions over them all. A client killed in its load is resumed ({@code --resume}).
 */
final class TpccFleet implements FleetSteps {
  @Override
  public List<Step> steps(BenchmarkCommand planned, int clients) {
    TpccOptions o = ((TpccCommand) planned).o;
    if (o.create || o.load || o.execute || o.check || o.clear) {
      throw new UserError("fleet.sh runs TPC-C's create, load, execute and check as steps of its own: leave "
          + "--create, --load, --execute, --check and --clear out");
    }
    return List.of(Step.alone("create", List.of("--create")),
        Step.all("load", List.of("--load")),
        Step.all("execute", List.of("--execute")),
        Step.alone("check", List.of("--check")));
  }

  /** A loader killed half-way finishes its warehouses: those it loaded whole kept, the others loaded again. */
  @Override
  public List<String> resume(Step step, Path failed) {
    return step.name().equals("load") && Files.isRegularFile(failed.resolve(ResumedLoad.CHECKPOINT))
        ? List.of("--resume", failed.toString()) : null;
  }
}
