package dev.ybbench.sysbench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.HlogFiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sysbench's report of a real run as the phase summary.json records. */
class SysbenchResultsTest {
  @TempDir
  Path dir;

  @Test
  void theFinalReportIsThePhase() throws Exception {
    SysbenchReport r = SysbenchReportTest.read("oltp_read_write-histogram.txt");
    PhaseResult p;
    try (Timeseries ts = new Timeseries(dir.resolve("timeseries.csv"))) {
      p = SysbenchResults.phase(r, true, "run", 1_700_000_000_000L, dir.resolve("latency"), ts);
    }
    OperationResult tx = p.operations().get(SysbenchResults.TRANSACTION);
    assertEquals(2680, tx.successes());
    assertEquals(20, tx.retries(), "its ignored errors: events run again");
    assertEquals(0, tx.errors());
    assertEquals(2680, p.successes());
    assertEquals(5.2, p.durationS()); // 5.2351 s, kept to 0.1 s as every phase
    assertEquals(511.9, p.throughputOps(), 0.05); // 2680 / 5.2351; sysbench prints 511.80 over its own clock
    assertEquals(2680, tx.latencyUs().count());
    assertEquals(702, tx.latencyUs().min()); // the first bucket's middle, 0.702 ms
    assertTrue(tx.latencyUs().max() >= 1_013_000 && tx.latencyUs().max() <= 1_014_000, tx.latencyUs().toString());
    assertEquals(37800, SysbenchFigures.queries(p).get("read").successes());
    assertEquals(10722, SysbenchFigures.queries(p).get("write").successes());
    assertEquals(5435, SysbenchFigures.queries(p).get("other").successes());
    assertNull(SysbenchFigures.queries(p).get("read").latencyUs());
    // On the tables: reads, writes, and the 55 writes that changed no row among the others, which
    // also hold one BEGIN per attempt (2,680 + 20) and one COMMIT per transaction (2,680).
    assertEquals(37800 + 10722 + 5435 - (2 * 2680 + 20), (long) p.auditedStatements());
    assertEquals(2680, HlogFiles.totals(dir.resolve("latency"), "run").get("transaction").getTotalCount());
    List<String> rows = Files.readAllLines(dir.resolve("timeseries.csv"));
    assertEquals(Timeseries.HEADER, rows.get(0));
    assertEquals("run,1.000,477.1,,3490,,0,5", rows.get(1)); // its 95th percentile; 4.99 err/s over 1 s
    assertEquals(6, rows.size());
  }

  @Test
  void aRunCutShortCountsFromItsIntervals() throws Exception {
    SysbenchReport r = new SysbenchReport();
    r.accept("[ 1s ] thds: 2 tps: 477.08 qps: 9663.34 (r/w/o: 6776.92/1913.31/973.12) lat (ms,95%): 3.49 "
        + "err/s: 4.99 reconn/s: 0.00");
    r.accept("[ 2s ] thds: 2 tps: 418.19 qps: 8365.80 (r/w/o: 5854.66/1665.76/845.38) lat (ms,95%): 3.55 "
        + "err/s: 1.00 reconn/s: 0.00");
    PhaseResult p;
    try (Timeseries ts = new Timeseries(dir.resolve("timeseries.csv"))) {
      p = SysbenchResults.phase(r, true, "run", 0, dir.resolve("latency"), ts);
    }
    OperationResult tx = p.operations().get(SysbenchResults.TRANSACTION);
    assertEquals(895, tx.successes()); // 477.08 + 418.19
    assertEquals(6, tx.retries());
    assertNull(tx.latencyUs(), "no histogram: no latency");
    assertEquals(12632, SysbenchFigures.queries(p).get("read").successes()); // 6776.92 + 5854.66 = 12631.58
    assertEquals(2.0, p.durationS());
  }
}
