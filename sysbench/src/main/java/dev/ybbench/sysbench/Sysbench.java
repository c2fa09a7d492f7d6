package dev.ybbench.sysbench;

import dev.ybbench.harness.benchmark.Benchmark;
import dev.ybbench.harness.benchmark.BenchmarkCommand;

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
}
