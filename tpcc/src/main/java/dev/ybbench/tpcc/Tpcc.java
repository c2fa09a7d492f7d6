package dev.ybbench.tpcc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.benchmark.Benchmark;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.FleetSteps;
import dev.ybbench.harness.benchmark.Suite;
import dev.ybbench.tpcc.core.TpccFigures;
import java.nio.file.Path;
import java.util.List;

/** TPC-C over YSQL, on ybbench's own engine or BenchBase's: the plug-in. */
public final class Tpcc implements Benchmark {
  /** Its name, as results and histories know it. */
  public static final String NAME = "tpcc";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String script() {
    return "run_tpcc.sh";
  }

  @Override
  public String summary() {
    return "TPC-C, configured the BenchBase way, on ybbench's engine or BenchBase's";
  }

  @Override
  public BenchmarkCommand command() {
    return new TpccCommand();
  }

  @Override
  public List<String> archiveRun(Path home) {
    return List.of("--config", home.resolve("tpcc/config/tiny.xml").toString(), "--duration", "2", "--warmup", "0");
  }

  @Override
  public FleetSteps fleet() {
    return new TpccFleet();
  }

  @Override
  public List<Suite> suites() {
    return List.of(new SmallSuite());
  }

  @Override
  public void upgradeFormat2(ObjectNode summary) {
    TpccFigures.upgradeFormat2(summary);
  }
}
