package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Benchmarks;
import dev.ybbench.harness.benchmark.Suite;
import java.util.List;
import org.junit.jupiter.api.Test;

/** YCSB's regress.sh suites as the registry gives them: their workloads and each run's exact arguments. */
class CoreSuiteTest {
  @Test
  void theRegistryFindsYcsbAndItsTwoSuites() {
    assertInstanceOf(Ycsb.class, Benchmarks.find(Ycsb.NAME));
    assertEquals(List.of("ycsb-core", "ycql-core"), new Ycsb().suites().stream().map(Suite::name).toList());
  }

  @Test
  void eachRunLoadsAndRunsOneWorkloadOverItsApiOrRunsAloneOnReusedData() {
    Suite ysql = new Ycsb().suites().get(0);
    Suite ycql = new Ycsb().suites().get(1);
    assertEquals(List.of("workloada", "workloadb", "workloadc", "workloadf", "workloadd", "workloade"),
        ysql.workloads());
    assertEquals(List.of("core", "--api", "ysql", "--db-version", "17", "--records", "20000", "--duration", "5"),
        ysql.sequence(RunYcsbTest.HOME, List.of("--db-version", "17"), 5, 20000));
    assertEquals(List.of("workloada", "--api", "ysql", "--db-version", "17", "--records", "20000", "--duration", "5",
        "--phase", "both"), ysql.args(RunYcsbTest.HOME, "workloada", List.of("--db-version", "17"), false, 5, 20000));
    assertEquals(List.of("workloadb", "--api", "ycql", "--hosts", "h1", "--records", "1000", "--duration", "30",
        "--phase", "run"), ycql.args(RunYcsbTest.HOME, "workloadb", List.of("--hosts", "h1"), true, null, 1000));
    assertEquals("YCSB a-f over YCQL", ycql.summary());
    assertEquals("workloadc", ysql.describe("workloadc"));
  }

  @Test
  void onlyWorkloadFilesThatExistAreTaken() {
    Suite ysql = new Ycsb().suites().get(0);
    assertEquals(List.of("workloadc", "workloade-hashrange"), ysql.workloads(List.of("workloadc",
        "workloade-hashrange"), RunYcsbTest.HOME));
    assertEquals("--workloads: no workload file workloads/nope", assertThrows(UserError.class,
        () -> ysql.workloads(List.of("nope"), RunYcsbTest.HOME)).getMessage());
  }
}
