package dev.ybbench.tpcc.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.core.TpccRandom;
import dev.ybbench.tpcc.load.LoadPhase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under a {@code <rate>} a terminal's transactions have slots in a schedule, and a stall shows in
 * the latency measured from the slot: another session holds the warehouse row that every Payment
 * updates for 2 s, while a terminal is paced at 5 Payments/s.
 */
class RateLatencyIT {
  @TempDir
  Path dir;

  @Test
  void aStallUnderARateShowsInTheIntendedLatencyOfTheTransactionsDueDuringIt() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println)) {
      String url = OneWarehouse.load(pg);
      TpccConfig config = TpccConfig.read(Path.of("config", "tiny.xml"));
      TpccConfig.Work paymentsOnly = new TpccConfig.Work(60, 0, 5.0, List.of(0, 100, 0, 0, 0));
      Metrics metrics = new Metrics();
      Terminals terminal = new Terminals(List.of(new Terminal(1, 1, new TpccRandom(7, LoadPhase.LOAD_CONSTANTS))),
          OneWarehouse.connections(url), config, paymentsOnly, 1, new Terminals.Setup(1, false, 10), metrics);
      Histogram intended;
      Histogram actual;
      try (Timeseries ts = new Timeseries(dir.resolve("timeseries.csv"));
          PhaseRecorder recorder = new PhaseRecorder("execute", metrics, Files.createDirectories(dir.resolve("latency")),
              ts)) {
        terminal.start();
        Thread.sleep(2000);
        try (Connection blocker = DriverManager.getConnection(url, "postgres", "");
            Statement st = blocker.createStatement()) {
          blocker.setAutoCommit(false);
          st.execute("UPDATE warehouse SET w_ytd = w_ytd WHERE w_id = 1");
          Thread.sleep(2000);
          blocker.rollback();
        }
        Thread.sleep(3000);
        terminal.stop();
        terminal.join(20_000);
        recorder.close();
        intended = recorder.totals().get("Payment");
        actual = recorder.actualTotals().get("Payment");
      }
      assertEquals(intended.getTotalCount(), actual.getTotalCount());
      long slowIntended = intended.getTotalCount() - intended.getCountBetweenValues(0, 1_000_000);
      long slowActual = actual.getTotalCount() - actual.getCountBetweenValues(0, 1_000_000);
      // ~10 slots fell in the 2 s stall: the one blocked was slow from its start, the ones queued
      // behind it were slow only from their slots (the first half of them by more than 1 s).
      assertTrue(slowActual <= 1, slowActual + " transactions took over 1 s from their actual start");
      assertTrue(slowIntended >= 3, slowIntended + " transactions took over 1 s from their slot; "
          + intended.getTotalCount() + " in all");
      assertTrue(intended.getMaxValue() >= 1_500_000, "intended max " + intended.getMaxValue() + " µs");
    }
  }
}
