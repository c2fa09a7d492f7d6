package dev.ybbench.tpcc;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Suite;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** regress.sh's TPC-C suite: tpcc/config/tiny.xml (1 warehouse, 4 terminals), 60 s a run. */
final class SmallSuite implements Suite {
  @Override
  public String name() {
    return "tpcc-small";
  }

  @Override
  public String summary() {
    return "TPC-C, tpcc/config/tiny.xml";
  }

  @Override
  public List<String> workloads() {
    return List.of(Tpcc.NAME);
  }

  @Override
  public List<String> workloads(List<String> given, Path home) {
    throw new UserError("--workloads: tpcc-small runs one configuration (tpcc/config/tiny.xml); leave it out");
  }

  @Override
  public String describe(String workload) {
    return "tpcc tiny";
  }

  @Override
  public List<String> args(Path home, String workload, List<String> target, boolean runOnly, Integer duration,
      long records) {
    List<String> a = new ArrayList<>(List.of("--config", home.resolve("tpcc/config/tiny.xml").toString()));
    a.addAll(target);
    if (!runOnly) {
      a.addAll(List.of("--create", "--load", "--execute", "--check"));
    } // with no phase flags run_tpcc.sh loads only what is missing
    a.addAll(List.of("--duration", Integer.toString(duration != null ? duration : 60)));
    return a;
  }
}
