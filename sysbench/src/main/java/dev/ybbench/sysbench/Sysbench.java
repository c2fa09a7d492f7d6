package dev.ybbench.sysbench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.benchmark.Benchmark;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.FleetSteps;
import dev.ybbench.harness.benchmark.Suite;
import dev.ybbench.sysbench.engine.SysbenchBinary;
import dev.ybbench.sysbench.engine.SysbenchFigures;
import java.nio.file.Path;
import java.util.List;

/** sysbench's OLTP tests, run by the real sysbench on tables ybbench makes: the plug-in. */
public final class Sysbench implements Benchmark {
  /** Its name, as results and histories know it. */
  public static final String NAME = "sysbench";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String script() {
    return "run_sysbench.sh";
  }

  @Override
  public String summary() {
    return "sysbench's OLTP tests by the real sysbench, on tables ybbench makes";
  }

  @Override
  public BenchmarkCommand command() {
    return new SysbenchCommand();
  }

  @Override
  public List<String> packages() {
    return List.of(SysbenchBinary.PACKAGE);
  }

  @Override
  public List<String> archiveRun(Path home) {
    return List.of("oltp_point_select", "--table-size", "1000", "--duration", "2");
  }

  @Override
  public FleetSteps fleet() {
    return new SysbenchFleet();
  }

  @Override
  public List<Suite> suites() {
    return List.of(new OltpSuite());
  }

  @Override
  public void upgradeFormat2(ObjectNode summary) {
    SysbenchFigures.upgradeFormat2(summary);
  }
}
