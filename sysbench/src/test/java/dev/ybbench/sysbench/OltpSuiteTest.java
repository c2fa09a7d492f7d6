package dev.ybbench.sysbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Benchmarks;
import dev.ybbench.harness.benchmark.Suite;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * sysbench's regress.sh suite: the published tests by run_sysbench.sh, 2 tables over --records
 * rows; "run" alone on reused data.
 */
class OltpSuiteTest {
  private final Suite suite = new Sysbench().suites().get(0);

  @Test
  void thePublishedTestsOnTwoTablesAndRunAloneOnReusedData() {
    assertInstanceOf(Sysbench.class, Benchmarks.find(Sysbench.NAME));
    assertEquals("sysbench-oltp", suite.name());
    assertEquals(List.of("oltp_read_only", "oltp_read_write", "oltp_update_index", "oltp_point_select"),
        suite.workloads());
    assertEquals(List.of("oltp_read_only", "--hosts", "a1", "--tables", "2", "--table-size", "25000", "--threads", "4",
        "--duration", "30"), suite.args(RunSysbenchTest.HOME, "oltp_read_only", List.of("--hosts", "a1"), false, null,
        50000));
    assertEquals(List.of("oltp_read_write", "run", "--hosts", "b1", "--tables", "2", "--table-size", "25000",
        "--threads", "4", "--duration", "10"), suite.args(RunSysbenchTest.HOME, "oltp_read_write",
        List.of("--hosts", "b1"), true, 10, 50000));
    assertEquals("sysbench oltp_read_write", suite.describe("oltp_read_write"));
  }

  @Test
  void workloadsAreSysbenchsTests() {
    assertEquals(List.of("oltp_write_only"), suite.workloads(List.of("oltp_write_only"), RunSysbenchTest.HOME));
    assertEquals("--workloads: workloada is not a sysbench test (oltp_read_only, select_random_points, …)",
        assertThrows(UserError.class, () -> suite.workloads(List.of("workloada"), RunSysbenchTest.HOME))
            .getMessage());
  }
}
