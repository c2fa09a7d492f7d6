package dev.ybbench.analysis.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.analysis.stats.RunBlocks;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.harness.results.HlogFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's noise read as its latency log streams (RunNoise) is the noise of the same intervals
 * held in a list (RunBlocks): block sums and per-interval rates alike, the short tail joining
 * the last block.
 */
class RunNoiseTest {
  @TempDir
  Path dir;

  @Test
  void streamingTheLogGivesTheSameNoiseAsTheIntervalsInMemory() throws Exception {
    List<Histogram> intervals = new ArrayList<>();
    long t = 1_700_000_000_000L;
    for (int i = 0; i < 23; i++) { // blocks of 5: four, the last one of 8
      Histogram h = new Histogram(3);
      for (int k = 0; k <= 100 + 7 * i; k++) {
        h.recordValue(1000 + (i % 4) * 250 + k * (i % 3 + 1));
      }
      h.setStartTimeStamp(t + 1000L * i);
      h.setEndTimeStamp(t + 1000L * (i + 1));
      intervals.add(h);
    }
    HlogFiles.writeIntervals(dir.resolve("latency"), "run", "READ", intervals);
    RunNoise noise = new RunNoise(dir, "run");

    Statistics.Sample expected = RunBlocks.percentile(intervals, 99, 1500);
    Statistics.Sample streamed = noise.percentile("READ", 99, 1500);
    assertTrue(expected.withinVariance() > 0, "the fixture's blocks differ");
    assertEquals(expected, streamed);
    assertEquals(4, streamed.blocks());

    double[] rates = intervals.stream().mapToDouble(h -> h.getTotalCount() / 1.0).toArray();
    assertEquals(RunBlocks.rate(120, rates), noise.rate(120, "READ"));
  }

  @Test
  void aDamagedLogGivesTheBareValue() throws Exception {
    Files.createDirectories(dir.resolve("latency"));
    Files.writeString(dir.resolve("latency/run-READ.hlog"), "#[StartTime: 1 (seconds since epoch)]\n"
        + "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
        + "0.000,1.000,1.000,not-base64!\n");
    RunNoise noise = new RunNoise(dir, "run");
    assertEquals(new Statistics.Sample(1500, 0, 0), noise.percentile("READ", 99, 1500));
    assertEquals(new Statistics.Sample(120, 0, 0), noise.rate(120, "READ"));
  }
}
