package dev.ybbench.analysis.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A shift only the last few runs of a history share: found on its second or third run, not its
 * fifth; one odd run, or two that stayed, are no shift. Expected p-values from the two-sample t
 * test on pooled variance (scipy.stats.ttest_ind with equal_var).
 */
class TailShiftTest {
  private static final double[] BEFORE = {0, .02, -.02, .01, -.01, .015, -.015, 0, .005, -.005};

  private static double[] with(double... tail) {
    double[] x = java.util.Arrays.copyOf(BEFORE, BEFORE.length + tail.length);
    System.arraycopy(tail, 0, x, BEFORE.length, tail.length);
    return x;
  }

  @Test
  void threeRunsThatDippedTogetherAreAShift() {
    double[] x = with(-.16, -.17, -.15);
    assertEquals(0.0021912947, ChangePoints.tailP(x, x.length - 2), 1e-8);
    assertEquals(6.8154815e-10, ChangePoints.tailP(x, x.length - 3), 1e-15);
    assertEquals(0.0005615677, ChangePoints.tailP(x, x.length - 4), 1e-9);
    // The least p is the three's, below 0.01 / 3.
    assertEquals(10, ChangePoints.tailShift(x, 5, 4, 0.01));
  }

  @Test
  void oneOddRunOrTwoThatStayedAreNot() {
    double[] odd = with(-.16);
    assertEquals(0.0226692757, ChangePoints.tailP(odd, odd.length - 2), 1e-8);
    assertEquals(0, ChangePoints.tailShift(odd, 5, 4, 0.01));
    assertEquals(0, ChangePoints.tailShift(with(.01, -.01), 5, 4, 0.01));
    // Too few before them: nothing is tested.
    assertEquals(0, ChangePoints.tailShift(new double[] {0, .01, -.01, -.2, -.2}, 5, 4, 0.01));
  }
}
