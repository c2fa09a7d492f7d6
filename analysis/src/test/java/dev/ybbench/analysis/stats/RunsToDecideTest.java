package dev.ybbench.analysis.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How many more runs would decide, with values worked out by hand. */
class RunsToDecideTest {
  private static List<Statistics.Sample> samples(double... values) {
    return Arrays.stream(values).mapToObj(Statistics.Sample::of).toList();
  }

  @Test
  void whatDecidesOneRunAgainstSeveral() {
    // The history of StatisticsTest's one run against several (s² = 0.00625, n = 5): its prediction's half-width is
    // t(0.975, 4) · √(0.00625 · 1.2) = 2.776445 · 0.0866025 = 0.240447 on the log scale.
    List<Statistics.Sample> history = samples(1, Math.exp(0.1), Math.exp(-0.1), Math.exp(0.05), Math.exp(-0.05));
    Statistics.Change c = Statistics.change(history, List.of(new Statistics.Sample(Math.exp(-0.2), 0.00001, 10)),
        false, Statistics.Scale.RATIO, 0.95);
    assertTrue(RunsToDecide.oneAgainstSeveral(c));
    assertArrayEquals(new double[] {Math.expm1(-0.240447) * 100, Math.expm1(0.240447) * 100},
        RunsToDecide.decidedBeyond(c), 1e-3);
    // k candidate runs: (t(4) + z(0.8)) · 0.0790569 · √(1/5 + 1/k) ≤ ln 1.2 first at k = 5 (k = 4: 0.1918 > 0.1823).
    assertEquals(5, RunsToDecide.candidateRuns(c, 20, 1000));
    // 5 %: even the five runs' own mean is too uncertain (3.618 · 0.0791 · √0.2 = 0.128 > ln 1.05).
    assertEquals(1000, RunsToDecide.candidateRuns(c, 5, 1000));
    Statistics.Change twoRuns = Statistics.change(history, samples(Math.exp(-0.2), Math.exp(-0.21)), false,
        Statistics.Scale.RATIO, 0.95);
    assertFalse(RunsToDecide.oneAgainstSeveral(twoRuns));
  }

  @Test
  void roundsToDecideFollowsFromTheNoise() {
    Statistics.Change c = new Statistics.Change(Statistics.Scale.RATIO, 100, 97, -3, -15, 10, 0.5, 0.05, 2, 3, 3,
        true, 0.95);
    // Smallest n with (t(0.975, n − 1) + z(0.8)) · 0.05 · √(3 / n) ≤ ln 1.05: n = 27 (26 gives 0.0493 > 0.0488).
    assertEquals(27, RunsToDecide.rounds(c, 5, 1000));
    Statistics.Change quiet = new Statistics.Change(Statistics.Scale.RATIO, 100, 97, -3, -15, 10, 0.5, 0.01, 2, 3, 3,
        true, 0.95);
    assertTrue(RunsToDecide.rounds(quiet, 5, 1000) < 27);
  }
}
