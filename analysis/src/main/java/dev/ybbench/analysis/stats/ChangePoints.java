package dev.ybbench.analysis.stats;

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
public final class ChangePoints {
  /** Permutations per significance test. */
  static final int PERMUTATIONS = 499;
  /** The significance level of each split, for a series of releases with a few runs each. */
  static final double ALPHA = 0.05;

  private ChangePoints() {}

  /**
   * @param values  the series, in order (e.g. log throughput of every run, release by release)
   * @param allowed allowed[i]: a change may lie between values[i − 1] and values[i]
   * @return the positions i of significant changes, ascending
   */
  public static List<Integer> find(double[] values, boolean[] allowed, long seed) {
    return find(values, allowed, seed, ALPHA);
  }

  /** As {@link #find(double[], boolean[], long)}, each split kept when its permutation p-value is at most alpha. */
  public static List<Integer> find(double[] values, boolean[] allowed, long seed, double alpha) {
    List<Integer> out = new ArrayList<>();
    split(values, allowed, 0, values.length, new SplittableRandom(seed), alpha, out);
    out.sort(Integer::compare);
    return out;
  }

  /**
   * A shift that only the series' last few values share, too few for {@link #find} (which wants
   * enough values on either side of a split to test it): for each k from 2 to {@code maxTail}, the
   * last k values against the others, by the two-sample t test on their pooled variance; the k
   * whose p-value is least, when it is below {@code alpha} / (maxTail − 1) (Bonferroni over the k
   * tried). A machine that slowed for its last three runs is seen on the third, not the fifth.
   *
   * @param minBefore values the others must hold at least
   * @return the index of the first of those k values, or 0 when there is no such shift
   */
  public static int tailShift(double[] values, int minBefore, int maxTail, double alpha) {
    int best = 0;
    double bestP = alpha / (maxTail - 1);
    for (int k = 2; k <= maxTail && values.length - k >= minBefore; k++) {
      double p = tailP(values, values.length - k);
      if (p < bestP) {
        bestP = p;
        best = values.length - k;
      }
    }
    return best;
  }

  /** The two-sided p-value of the t test of values[from …] against values[… from − 1], variances pooled. */
  static double tailP(double[] values, int from) {
    double[] before = Arrays.copyOfRange(values, 0, from);
    double[] tail = Arrays.copyOfRange(values, from, values.length);
    int m = before.length;
    int k = tail.length;
    double pooled = ((m - 1) * Statistics.variance(before) + (k - 1) * Statistics.variance(tail)) / (m + k - 2);
    double diff = Statistics.mean(tail) - Statistics.mean(before);
    if (!(pooled > 0)) {
      return diff == 0 ? 1 : 0;
    }
    double t = diff / Math.sqrt(pooled * (1.0 / m + 1.0 / k));
    return 2 * (1 - Distributions.tCdf(Math.abs(t), m + k - 2));
  }

  private static void split(double[] values, boolean[] allowed, int from, int to, SplittableRandom random,
      double alpha, List<Integer> out) {
    double[] segment = Arrays.copyOfRange(values, from, to);
    double[] energy = energies(segment);
    int best = best(energy, allowed, from);
    if (best < 0) {
      return;
    }
    double observed = energy[best];
    int atLeast = 0;
    double[] shuffled = segment.clone();
    for (int p = 0; p < PERMUTATIONS; p++) {
      for (int i = shuffled.length - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        double t = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = t;
      }
      double[] q = energies(shuffled);
      int b = best(q, allowed, from);
      if (b >= 0 && q[b] >= observed) {
        atLeast++;
      }
    }
    double pValue = (atLeast + 1.0) / (PERMUTATIONS + 1);
    if (pValue > alpha) {
      return;
    }
    out.add(from + best);
    split(values, allowed, from, from + best, random, alpha, out);
    split(values, allowed, from + best, to, random, alpha, out);
  }

  /**
   * The runs a change point stands between: {from, cut, to}, from the change point before it (or
   * the first run) to the one after it (or the end), {@code n} values in all.
   */
  public static int[] around(List<Integer> cuts, int k, int n) {
    return new int[] {k == 0 ? 0 : cuts.get(k - 1), cuts.get(k), k + 1 < cuts.size() ? cuts.get(k + 1) : n};
  }

  /**
   * The k-th change point's change in %: the level after it against the level before it, each the
   * mean of the logs between neighbouring change points (a geometric mean's ratio).
   */
  public static double changePct(double[] logs, List<Integer> cuts, int k) {
    int[] r = around(cuts, k, logs.length);
    double before = Statistics.mean(Arrays.copyOfRange(logs, r[0], r[1]));
    double after = Statistics.mean(Arrays.copyOfRange(logs, r[1], r[2]));
    return Math.expm1(after - before) * 100;
  }

  /** The allowed split with the largest energy statistic q[tau] ({@link #energies}), or −1 if none is allowed. */
  private static int best(double[] q, boolean[] allowed, int offset) {
    int best = -1;
    double max = Double.NEGATIVE_INFINITY;
    for (int tau = 1; tau < q.length; tau++) {
      if (allowed[offset + tau] && q[tau] > max) {
        max = q[tau];
        best = tau;
      }
    }
    return best;
  }

  /**
   * {@link #energy} of every split at once, in O(n²) rather than O(n²) per split: the sums of
   * distances within the left part, within the right part and across are carried from one split
   * to the next (a history of hundreds of runs is tested with 499 permutations).
   *
   * @return q[tau] for 1 ≤ tau < n (q[0] unused)
   */
  static double[] energies(double[] x) {
    int n = x.length;
    double[] q = new double[Math.max(n, 1)];
    double total = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        total += Math.abs(x[i] - x[j]);
      }
    }
    double left = 0;
    double right = total;
    for (int tau = 1; tau < n; tau++) {
      // x[tau − 1] moves from the right part to the left.
      int m = tau - 1;
      for (int i = 0; i < m; i++) {
        left += Math.abs(x[i] - x[m]);
      }
      for (int j = m + 1; j < n; j++) {
        right -= Math.abs(x[m] - x[j]);
      }
      double across = (total - left - right) / ((double) tau * (n - tau));
      double withinLeft = tau < 2 ? 0 : left / (tau * (tau - 1) / 2.0);
      double withinRight = n - tau < 2 ? 0 : right / ((n - tau) * (n - tau - 1) / 2.0);
      q[tau] = (double) tau * (n - tau) / n * (2 * across - withinLeft - withinRight);
    }
    return q;
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
