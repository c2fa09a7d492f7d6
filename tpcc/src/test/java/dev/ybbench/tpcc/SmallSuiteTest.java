package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Benchmarks;
import dev.ybbench.harness.benchmark.Suite;
import java.util.List;
import org.junit.jupiter.api.Test;

/** TPC-C's regress.sh suite: the tiny config, created and loaded in the first round, run alone on reused data. */
class SmallSuiteTest {
  private final Suite suite = new Tpcc().suites().get(0);
  private final String tiny = RunTpccTest.HOME.resolve("tpcc/config/tiny.xml").toString();

  @Test
  void theTinyConfigLoadsInTheFirstRoundAndOnlyRunsOnReusedData() {
    assertInstanceOf(Tpcc.class, Benchmarks.find(Tpcc.NAME));
    assertEquals("tpcc-small", suite.name());
    assertEquals(List.of("--config", tiny, "--hosts", "a1,a2", "--create", "--load", "--execute", "--check",
        "--duration", "60"), suite.args(RunTpccTest.HOME, "tpcc", List.of("--hosts", "a1,a2"), false, null, 20000));
    assertEquals(List.of("--config", tiny, "--hosts", "b1", "--duration", "30"),
        suite.args(RunTpccTest.HOME, "tpcc", List.of("--hosts", "b1"), true, 30, 20000));
    assertEquals("tpcc tiny", suite.describe("tpcc"));
  }

  @Test
  void itRunsOneConfigurationAndRefusesWorkloads() {
    assertEquals(List.of("tpcc"), suite.workloads());
    assertEquals("--workloads: tpcc-small runs one configuration (tpcc/config/tiny.xml); leave it out",
        assertThrows(UserError.class, () -> suite.workloads(List.of("a"), RunTpccTest.HOME)).getMessage());
  }
}
