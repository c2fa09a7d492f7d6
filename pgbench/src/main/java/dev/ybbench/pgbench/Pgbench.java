package dev.ybbench.pgbench;

import dev.ybbench.harness.benchmark.Benchmark;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.FleetSteps;
import dev.ybbench.harness.benchmark.Suite;
import dev.ybbench.pgbench.engine.PgbenchBinary;
import java.nio.file.Path;
import java.util.List;

/** pgbench's scripts, run by the real pgbench (or YugabyteDB's ysql_bench): the plug-in. */
public final class Pgbench implements Benchmark {
  /** Its name, as results and histories know it. */
  public static final String NAME = "pgbench";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String script() {
    return "run_pgbench.sh";
  }

  @Override
  public String summary() {
    return "pgbench's TPC-B-like, simple-update and select-only scripts by the real pgbench or ysql_bench";
  }

  @Override
  public BenchmarkCommand command() {
    return new PgbenchCommand();
  }

  @Override
  public List<String> packages() {
    return List.of(PgbenchBinary.PACKAGE);
  }

  @Override
  public FleetSteps fleet() {
    return new PgbenchFleet();
  }

  @Override
  public List<Suite> suites() {
    return List.of(new PgbenchSuite());
  }

  @Override
  public List<String> archiveRun(Path home) {
    return List.of("-S", "-T", "2");
  }
}
