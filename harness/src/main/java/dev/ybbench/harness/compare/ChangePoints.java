package dev.ybbench.harness.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Change points in a series of results by E-divisive means (Matteson &amp; James, "A
 * Nonparametric Approach for Multiple Change Point Analysis of Multivariate Data", JASA 2014),
 * as Apache Otava (formerly DataStax's Hunter) applies it to performance history: the split that
 * maximizes the energy distance between the values before and after it, kept when a permutation
 * test finds it significant, then the same within each side, recursively. Splits may fall only
 * at allowed positions (between releases, never between two runs of one release).
 */
final class ChangePoints {
  /** Permutations per significance test. */
  static final int PERMUTATIONS = 499;
  /** The significance level of each split. */
  static final double ALPHA = 0.05;

  private ChangePoints() {}

  /**
   * @param values  the series, in order (e.g. log throughput of every run, release by release)
   * @param allowed allowed[i]: a change may lie between values[i − 1] and values[i]
   * @return the positions i of significant changes, ascending
   */
  static List<Integer> find(double[] values, boolean[] allowed, long seed) {
    List<Integer> out = new ArrayList<>();
    split(values, allowed, 0, values.length, new SplittableRandom(seed), out);
    out.sort(Integer::compare);
    return out;
  }

  private static void split(double[] values, boolean[] allowed, int from, int to, SplittableRandom random,
      List<Integer> out) {
    double[] segment = Arrays.copyOfRange(values, from, to);
    int best = best(segment, allowed, from);
    if (best < 0) {
      return;
    }
    double observed = energy(segment, best);
    int atLeast = 0;
    double[] shuffled = segment.clone();
    for (int p = 0; p < PERMUTATIONS; p++) {
      for (int i = shuffled.length - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        double t = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = t;
      }
      int b = best(shuffled, allowed, from);
      if (b >= 0 && energy(shuffled, b) >= observed) {
        atLeast++;
      }
    }
    double pValue = (atLeast + 1.0) / (PERMUTATIONS + 1);
    if (pValue > ALPHA) {
      return;
    }
    out.add(from + best);
    split(values, allowed, from, from + best, random, out);
    split(values, allowed, from + best, to, random, out);
  }

  /** The allowed split of the segment with the largest energy statistic, or −1 if none is allowed. */
  private static int best(double[] segment, boolean[] allowed, int offset) {
    int best = -1;
    double max = Double.NEGATIVE_INFINITY;
    for (int tau = 1; tau < segment.length; tau++) {
      if (!allowed[offset + tau]) {
        continue;
      }
      double q = energy(segment, tau);
      if (q > max) {
        max = q;
        best = tau;
      }
    }
    return best;
  }

  /**
   * The E-divisive statistic of splitting x before index tau: τ(n − τ)/n × (2 × the mean distance
   * across − the mean distance within the left − within the right), distances |x − y|.
   */
  static double energy(double[] x, int tau) {
    int n = x.length;
    double across = 0;
    for (int i = 0; i < tau; i++) {
      for (int j = tau; j < n; j++) {
        across += Math.abs(x[i] - x[j]);
      }
    }
    across /= (double) tau * (n - tau);
    return (double) tau * (n - tau) / n * (2 * across - within(x, 0, tau) - within(x, tau, n));
  }

  private static double within(double[] x, int from, int to) {
    int m = to - from;
    if (m < 2) {
      return 0;
    }
    double sum = 0;
    for (int i = from; i < to; i++) {
      for (int j = i + 1; j < to; j++) {
        sum += Math.abs(x[i] - x[j]);
      }
    }
    return sum / (m * (m - 1) / 2.0);
  }
}
