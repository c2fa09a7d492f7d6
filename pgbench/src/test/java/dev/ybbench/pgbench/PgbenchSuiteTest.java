package dev.ybbench.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Benchmarks;
import dev.ybbench.harness.benchmark.Suite;
import java.util.List;
import org.junit.jupiter.api.Test;

/** pgbench's regress.sh suite: its three built-ins, -s from --records; a run alone on reused data. */
class PgbenchSuiteTest {
  private final Suite suite = new Pgbench().suites().get(0);

  @Test
  void theThreeBuiltInsAtTheScaleOfTheRecords() {
    assertInstanceOf(Pgbench.class, Benchmarks.find(Pgbench.NAME));
    assertEquals("pgbench", suite.name());
    assertEquals(List.of("tpcb-like", "simple-update", "select-only"), suite.workloads());
    assertEquals(List.of("-b", "tpcb-like", "-c", "4", "-j", "2", "-T", "30", "-s", "5", "--hosts", "a1"),
        suite.args(RunPgbenchTest.HOME, "tpcb-like", List.of("--hosts", "a1"), false, null, 500_000));
    assertEquals(List.of("-b", "select-only", "-c", "4", "-j", "2", "-T", "10", "--db-version", "17"),
        suite.args(RunPgbenchTest.HOME, "select-only", List.of("--db-version", "17"), true, 10, 20_000));
    assertEquals(List.of("-b", "simple-update", "-c", "4", "-j", "2", "-T", "30", "-s", "1", "--db-version", "16"),
        suite.args(RunPgbenchTest.HOME, "simple-update", List.of("--db-version", "16"), false, null, 20_000));
    assertEquals("pgbench -b select-only", suite.describe("select-only"));
    assertEquals("--workloads: workloada is not one of pgbench's built-in scripts (tpcb-like, simple-update, "
        + "select-only)", assertThrows(UserError.class, () -> suite.workloads(List.of("workloada"),
            RunPgbenchTest.HOME)).getMessage());
  }
}
