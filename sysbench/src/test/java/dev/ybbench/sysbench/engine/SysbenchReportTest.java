package dev.ybbench.sysbench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** sysbench 1.0.20's own output, captured from real runs against PostgreSQL 15, read as sysbench printed it. */
class SysbenchReportTest {
  static SysbenchReport read(String sample) throws IOException {
    SysbenchReport r = new SysbenchReport();
    try (InputStream in = SysbenchReportTest.class.getResourceAsStream("/sysbench/" + sample)) {
      new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().forEach(r::accept);
    }
    return r;
  }

  @Test
  void theFinalStatisticsIntervalsAndHistogramOfAReadWriteRun() throws IOException {
    SysbenchReport r = read("oltp_read_write-histogram.txt");
    SysbenchReport.Statistics s = r.statistics();
    assertEquals(new SysbenchReport.Statistics(37800, 10722, 5435, 2680, 53957, 20, 0, 5.2351, 2680, 0.70, 3.90,
        1005.29, 95, 3.43), s);
    assertEquals(5, r.intervals().size());
    assertEquals(new SysbenchReport.Interval(1, 2, 477.08, 9663.34, 6776.92, 1913.31, 973.12, 95, 3.49, 4.99, 0.0),
        r.intervals().get(0));
    assertEquals(5, r.intervals().get(4).elapsedS());
    assertEquals(124, r.histogram().size());
    assertEquals(new SysbenchReport.Bucket(0.702, 2), r.histogram().get(0));
    assertEquals(new SysbenchReport.Bucket(1013.597, 1), r.histogram().get(123));
    // Every event is in the histogram once.
    assertEquals(2680, r.histogram().stream().mapToLong(SysbenchReport.Bucket::count).sum());
    assertTrue(r.fatal().isEmpty());
  }

  @Test
  void thePercentileFollowsPercentileAndWideCountsShiftTheRateColumn() throws IOException {
    SysbenchReport p99 = read("oltp_read_write-p99.txt");
    assertEquals(99, p99.statistics().percentile());
    assertEquals(4.82, p99.statistics().percentileMs());
    assertEquals(99, p99.intervals().get(0).percentile());
    assertTrue(p99.histogram().isEmpty());
    SysbenchReport point = read("oltp_point_select.txt");
    assertEquals(425656, point.statistics().transactions());
    assertEquals(425656, point.statistics().reads());
    assertEquals(0, point.statistics().writes());
    assertEquals(4, point.intervals().size(), "a 5 s run printed four intervals: the fifth raced its end");
  }

  @Test
  void aRunThatFailedHasFatalLinesAndNoStatistics() throws IOException {
    SysbenchReport prepare = read("fatal-prepare.txt");
    assertNull(prepare.statistics());
    assertEquals("PQprepare() failed: ERROR:  relation \"sbtest3\" does not exist", prepare.fatal().get(0));
    SysbenchReport insert = read("fatal-insert.txt");
    assertNull(insert.statistics());
    assertEquals(3, insert.fatal().size());
    assertTrue(insert.fatal().get(2).contains("state = '42P01'"), insert.fatal().get(2));
  }
}
