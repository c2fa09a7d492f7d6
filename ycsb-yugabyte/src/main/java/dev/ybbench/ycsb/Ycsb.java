package dev.ybbench.ycsb;

import dev.ybbench.harness.benchmark.Benchmark;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.FleetSteps;
import dev.ybbench.harness.benchmark.Suite;
import java.nio.file.Path;
import java.util.List;

/** YCSB over YSQL and YCQL, its workloads and yb-sample-apps' key-value apps: the plug-in. */
public final class Ycsb implements Benchmark {
  /** Its name, as results and histories know it. */
  public static final String NAME = "ycsb";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String script() {
    return "run_ycsb.sh";
  }

  @Override
  public String summary() {
    return "YCSB over YSQL (JDBC) and YCQL (CQL), and yb-sample-apps' key-value apps";
  }

  @Override
  public BenchmarkCommand command() {
    return new YcsbCommand();
  }

  @Override
  public List<String> archiveRun(Path home) {
    return List.of("workloadc", "--records", "1000", "--duration", "2", "--threads", "2");
  }

  @Override
  public FleetSteps fleet() {
    return new YcsbFleet();
  }

  @Override
  public List<Suite> suites() {
    return List.of(new CoreSuite("ycsb-core", "ysql"), new CoreSuite("ycql-core", "ycql"));
  }
}
