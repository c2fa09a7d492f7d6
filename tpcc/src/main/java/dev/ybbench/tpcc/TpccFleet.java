package dev.ybbench.tpcc;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.FleetSteps;
import java.util.List;

/**
 * fleet.sh's TPC-C: client 0 creates the tables; every client loads its share of the warehouses
 * ({@code --clients}: the one with warehouse 1 loads ITEM too); every client drives its share,
 * their works merged into one run; client 0 checks the consistency conditions over them all.
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
        new Step("load", false, i -> List.of("--load"), false), // each client's run its own share
        Step.all("execute", List.of("--execute")),
        Step.alone("check", List.of("--check")));
  }
}
