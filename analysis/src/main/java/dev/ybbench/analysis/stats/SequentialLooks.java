package dev.ybbench.analysis.stats;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Repeated looks at a growing experiment without inflating its error rate: regress.sh
 * --until-decided compares after every round from the first look on and stops once every
 * headline is decided. Testing each look at 95 % would call noise a change far more often than
 * 5 % of the time, so each look uses a wider interval, Pocock's constant boundary: the level at
 * which the largest standardized change over all the looks stays within bounds 95 % of the time
 * when nothing changed (repeated confidence intervals; Jennison &amp; Turnbull, "Group Sequential
 * Methods", 2000, ch. 9). The boundary is found by simulating the looks' standardized statistic,
 * a random walk in rounds, with a fixed seed.
 */
public final class SequentialLooks {
  private static final int PATHS = 100_000;

  private SequentialLooks() {}

  /**
   * The confidence each look must use so that looks after rounds {@code first} … {@code last}
   * together hold {@code confidence}.
   */
  public static double perLookConfidence(int first, int last, double confidence) {
    if (first < 1 || last < first) {
      throw new IllegalArgumentException("looks from round " + first + " to " + last);
    }
    if (first == last) {
      return confidence;
    }
    SplittableRandom random = new SplittableRandom(20131026L);
    double[] largest = new double[PATHS];
    for (int path = 0; path < PATHS; path++) {
      double sum = Math.sqrt(first) * random.nextGaussian();
      double max = Math.abs(sum) / Math.sqrt(first);
      for (int n = first + 1; n <= last; n++) {
        sum += random.nextGaussian();
        max = Math.max(max, Math.abs(sum) / Math.sqrt(n));
      }
      largest[path] = max;
    }
    Arrays.sort(largest);
    double boundary = largest[(int) Math.ceil(confidence * PATHS) - 1];
    return 2 * Distributions.normalCdf(boundary) - 1;
  }
}
