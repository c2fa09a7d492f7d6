package dev.ybbench.harness.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.results.RunDirectory;
import org.junit.jupiter.api.Test;

/**
 * yb_latency_histogram read as YugabyteDB writes it. The histograms and the percentiles expected
 * of them are yugabyte-db's own: {@code src/postgres/src/test/regress/expected/yb_hdr_percentile.out},
 * the regression test of its {@code yb_get_percentile}, and the examples of its docs' page on
 * pg_stat_statements ({@code docs/content/v2025.1/launch-and-manage/monitor-and-alert/query-tuning/
 * pg-stat-statements.md}).
 */
class LatencyBucketsTest {
  private static final ObjectMapper COMPACT = new ObjectMapper();

  private static LatencyBuckets of(String json) throws Exception {
    return LatencyBuckets.of(RunDirectory.JSON.readTree(json));
  }

  @Test
  void percentilesAreYugabyteDbsOwn() throws Exception {
    LatencyBuckets h = of("[{\"[384.0,409.6)\": 5}, {\"[768.0,819.2)\": 4}, {\"[1126.4,1228.8)\": 1}]");
    assertEquals(409.6, h.percentileMs(50));
    assertEquals(819.2, h.percentileMs(90));
    assertEquals(1228.8, h.percentileMs(99));
    assertEquals(409.6, h.percentileMs(0));
    assertEquals(409.6, h.percentileMs(-0.1));
    assertEquals(1228.8, h.percentileMs(8892.3));
    assertEquals(20000.0, of("[{\"[-2.8,2e4)\": 8}]").percentileMs(90));
    assertEquals(Double.POSITIVE_INFINITY, of("[{\"[12,)\": 8}]").percentileMs(0));
    LatencyBuckets open = of("[{\"[1,2)\": 5}, {\"[3,4)\": 4}, {\"[5,)\": 1}]");
    assertEquals(2.0, open.percentileMs(50));
    assertEquals(4.0, open.percentileMs(90));
    assertEquals(Double.POSITIVE_INFINITY, open.percentileMs(99));
    assertEquals(Double.NaN, of("[]").percentileMs(90));
  }

  @Test
  void theDocsExamplesGiveTheDocsPercentiles() throws Exception {
    LatencyBuckets h = of("[{\"[0.1,0.2)\": 4}, {\"[0.2,0.3)\": 1}, {\"[0.8,0.9)\": 1}, {\"[1.1,1.2)\": 3}, "
        + "{\"[1.5,1.6)\": 1}, {\"[2.0,2.2)\": 4}, {\"[3.2,3.6)\": 1}]");
    assertEquals(3.6, h.percentileMs(99));
    assertEquals(2.2, h.percentileMs(90));
    assertEquals(1.2, h.percentileMs(50));
    LatencyBuckets big = of(new String(LatencyBucketsTest.class.getResourceAsStream("yb_latency_histogram.json")
        .readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(102.4, big.percentileMs(99));
    assertEquals(89.6, big.percentileMs(95));
    assertEquals(83.2, big.percentileMs(90));
    // A statement that ran past the histogram's range: the docs' select pg_sleep($1), 9 calls.
    assertEquals(Double.POSITIVE_INFINITY, of("[{\"[0.8,0.9)\": 6}, {\"[1677721.6,)\": 3}]").percentileMs(99));
  }

  @Test
  void whatTheServerRefusesIsRefused() {
    // yb_get_percentile: "Invalid histogram: Unexpected object end, should follow k/v pair within object"
    assertThrows(IllegalArgumentException.class, () -> of("[{\"[-1.1e-3,5000)\": 5}, {}]"));
    assertThrows(IllegalArgumentException.class, () -> of("[{\"0.1-0.2\": 5}]"));
    assertThrows(IllegalArgumentException.class, () -> of("{\"[0.1,0.2)\": 5}"));
  }

  @Test
  void aPhaseIsTheDifferenceOfTwoReadingsAndWritesBackAsTheServerDoes() throws Exception {
    LatencyBuckets before = of("[{\"[0.1,0.2)\": 3}, {\"[0.4,0.5)\": 1}]");
    LatencyBuckets after = of("[{\"[0.1,0.2)\": 10}, {\"[0.4,0.5)\": 1}, {\"[1.6,1.7)\": 2}, {\"[1677721.6,)\": 1}]");
    LatencyBuckets phase = after.minus(before);
    assertEquals("[{\"[0.1,0.2)\":7},{\"[1.6,1.7)\":2},{\"[1677721.6,)\":1}]",
        COMPACT.writeValueAsString(phase));
    assertEquals(10, phase.count());
    assertEquals(0.2, phase.percentileMs(50));
    assertEquals(Double.POSITIVE_INFINITY, phase.percentileMs(99));
    assertEquals(phase, RunDirectory.JSON.readValue(RunDirectory.JSON.writeValueAsString(phase), LatencyBuckets.class));
    // A bucket that went down: the statistics were reset between the readings.
    assertNull(before.minus(after));
    // Two users' rows of one statement.
    assertEquals("[{\"[0.1,0.2)\":13},{\"[0.4,0.5)\":2},{\"[1.6,1.7)\":2},{\"[1677721.6,)\":1}]",
        COMPACT.writeValueAsString(after.plus(before)));
  }
}
