package dev.ybbench.harness.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.results.PhaseResult;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientCostTest {
  @Test
  void peakResidentSetComesFromVmHwmInKilobytes() {
    String status = "Name:\tjava\nVmPeak:\t 5000000 kB\nVmHWM:\t  345668 kB\nVmRSS:\t  300000 kB\n";
    assertEquals(345668L * 1024, ClientCost.peakRssBytes(status));
    assertNull(ClientCost.peakRssBytes("Name:\tjava\n"));
    Long self = ClientCost.peakRssBytes();
    assertTrue(self == null || self > 1024 * 1024, "this JVM's own peak: " + self);
  }

  @Test
  void perOperationFiguresAreRoundedFromTheWindow() {
    PhaseResult.ClientSide c = PhaseResult.ClientSide.of(12.3456, 1_650_000, 2, 30.76, 345_668L * 1024);
    assertEquals(12.346, c.cpuS());
    assertEquals(7.5, c.cpuUsPerOp()); // 12.3456 s / 1.65 M = 7.482 µs
    assertEquals(30.8, c.busyPct());
    assertEquals(338, c.peakRssMb());
    assertNull(PhaseResult.ClientSide.of(0.5, 0, 2, 1, null).cpuUsPerOp(), "no operations, no per-operation cost");
  }

  @Test
  void mergedClientsSumCpuAndCoresAndKeepTheBusiestAndLargest() {
    PhaseResult.ClientSide a = PhaseResult.ClientSide.of(10, 1_000_000, 8, 40, 300L << 20);
    PhaseResult.ClientSide b = PhaseResult.ClientSide.of(30, 2_000_000, 8, 85, 200L << 20);
    PhaseResult.ClientSide m = PhaseResult.ClientSide.merged(List.of(a, b), 3_000_000);
    assertEquals(40.0, m.cpuS());
    assertEquals(13.3, m.cpuUsPerOp());
    assertEquals(16, m.cores());
    assertEquals(85.0, m.busyPct());
    assertEquals(300, m.peakRssMb());
  }

  @Test
  void aClientAboveEightyPercentOfItsCoresIsWarnedAbout() {
    assertNull(ClientCost.warning("run", PhaseResult.ClientSide.of(10, 1000, 2, 80.0, null)));
    assertEquals("warning: the client used 93 % of its 2 cores during run: the client may be the bottleneck: add "
        + "clients or threads elsewhere", ClientCost.warning("run", PhaseResult.ClientSide.of(10, 1000, 2, 92.6, null)));
  }

  @Test
  void aWindowMeasuresThisProcessesCpu() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    ClientCost start = ClientCost.start();
    long x = 0;
    // Busy until this thread alone has used 0.15 s of CPU, however long a busy machine makes that: the
    // process's CPU is read in clock ticks (10 ms) at both ends, so 0.1 s of thread time read as 0.09.
    for (long until = threads.getCurrentThreadCpuTime() + 150_000_000L; threads.getCurrentThreadCpuTime() < until; ) {
      x += Long.numberOfTrailingZeros(System.nanoTime());
    }
    PhaseResult.ClientSide c = start.end(1000);
    assertTrue(c.cpuS() >= 0.1 && x >= 0, c.toString());
    assertEquals(Runtime.getRuntime().availableProcessors(), c.cores());
  }
}
