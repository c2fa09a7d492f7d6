package dev.ybbench.harness.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatisticsTest {
  @Test
  void changeAndWelchIntervalMatchAHandComputation() {
    // Baseline mean 100 (sd 1), candidate mean 70 (sd 1), n = 3 each:
    // se = sqrt(1/3 + 1/3) = 0.8165, df = 4, t = 2.776, half-width 2.2666 → ±2.27 % of 100.
    Statistics.Change c = Statistics.change(List.of(99.0, 100.0, 101.0), List.of(69.0, 70.0, 71.0));
    assertEquals(100.0, c.baselineMean(), 1e-9);
    assertEquals(70.0, c.candidateMean(), 1e-9);
    assertEquals(-30.0, c.changePct(), 1e-9);
    assertEquals(-32.2666, c.lowPct(), 1e-3);
    assertEquals(-27.7334, c.highPct(), 1e-3);
  }

  @Test
  void tQuantilesAreTheTableValues() {
    assertEquals(12.706, Statistics.tQuantile975(1), 1e-3);
    assertEquals(2.776, Statistics.tQuantile975(4), 1e-3);
    assertEquals(2.228, Statistics.tQuantile975(10), 1e-3);
    assertEquals(2.086, Statistics.tQuantile975(20), 2e-3);
    assertEquals(2.042, Statistics.tQuantile975(30), 2e-3);
    assertEquals(1.96, Statistics.tQuantile975(Double.POSITIVE_INFINITY), 1e-3);
  }

  @Test
  void oneRunASideHasNoInterval() {
    Statistics.Change c = Statistics.change(List.of(100.0), List.of(98.0));
    assertFalse(c.hasInterval());
    assertEquals(-2.0, c.changePct(), 1e-9);
  }

  @Test
  void verdictsAreDirectionAware() {
    Statistics.Change drop30 = Statistics.change(List.of(99.0, 100.0, 101.0), List.of(69.0, 70.0, 71.0));
    assertEquals(Verdict.REGRESSION, Verdict.of(drop30, true, 5));   // throughput fell 30 %
    assertEquals(Verdict.IMPROVEMENT, Verdict.of(drop30, false, 5)); // latency fell 30 %
    Statistics.Change rise30 = Statistics.change(List.of(99.0, 100.0, 101.0), List.of(129.0, 130.0, 131.0));
    assertEquals(Verdict.REGRESSION, Verdict.of(rise30, false, 5));  // latency rose 30 %
    Statistics.Change two = Statistics.change(List.of(99.0, 100.0, 101.0), List.of(101.0, 102.0, 103.0));
    assertEquals(Verdict.NO_CHANGE, Verdict.of(two, true, 5));
    Statistics.Change wide = Statistics.change(List.of(60.0, 100.0, 140.0), List.of(50.0, 90.0, 130.0));
    assertEquals(Verdict.INCONCLUSIVE, Verdict.of(wide, true, 5));
    assertTrue(wide.highPct() - wide.lowPct() > 100);
  }

  @Test
  void withOneRunThePointChangeDecides() {
    assertEquals(Verdict.REGRESSION, Verdict.of(Statistics.change(List.of(100.0), List.of(70.0)), true, 5));
    assertEquals(Verdict.NO_CHANGE, Verdict.of(Statistics.change(List.of(100.0), List.of(98.0)), true, 5));
    assertEquals(Verdict.IMPROVEMENT, Verdict.of(Statistics.change(List.of(100.0), List.of(90.0)), false, 5));
    assertEquals(Verdict.NO_CHANGE, Verdict.of(Statistics.change(List.of(0.0), List.of(0.0)), false, 5));
  }
}
