package dev.ybbench.analysis.compare;

import dev.ybbench.analysis.stats.Statistics;

/**
 * What a change means for a metric, direction-aware: for throughput a drop is worse, for latency
 * and errors a rise is. "Better" below means the change in the direction that is better.
 *
 * <p>A headline row (the metric that gates the exit code) is a regression when its interval lies
 * wholly on the worse side of zero and the change is at least the threshold; no change when the
 * change is shown to lie within ± the threshold by two one-sided tests at the same level
 * (Schuirmann 1987: the interval at twice the error rate, 90 % for 95 %, lies within ± the
 * threshold); inconclusive otherwise. Other rows are judged the
 * same way, except that "wholly on one side of zero" becomes a Benjamini–Hochberg q-value at
 * most {@link #FALSE_DISCOVERY_RATE} across all of them, and a worse one is {@code suspect}: with
 * a hundred rows some would otherwise cross zero by chance alone.
 */
public enum Verdict {
  REGRESSION("regression"),
  IMPROVEMENT("improvement"),
  NO_CHANGE("no change"),
  /** The interval reaches beyond the threshold: the runs vary too much to say. */
  INCONCLUSIVE("inconclusive"),
  /** A row that does not gate is worse by the threshold, after the false-discovery-rate correction. */
  SUSPECT("suspect"),
  /**
   * The sides measured different quantities (latency from the intended start on one side, from
   * the actual start on the other): shown, never tested.
   */
  NOT_COMPARABLE("not comparable");

  /** The false-discovery rate across the rows that do not gate. */
  public static final double FALSE_DISCOVERY_RATE = 0.05;

  private final String label;

  Verdict(String label) {
    this.label = label;
  }

  @Override
  public String toString() {
    return label;
  }

  /** Decided: a verdict reached by a test, i.e. neither inconclusive nor not comparable. */
  public boolean decided() {
    return this != INCONCLUSIVE && this != NOT_COMPARABLE;
  }

  /**
   * @param higherIsBetter true for throughput and tpmC; false for latency and errors
   * @param threshold      changes smaller than this are "no change" (% for ratios, the metric's units for
   *                       differences)
   */
  public static Verdict headline(Statistics.Change c, boolean higherIsBetter, double threshold) {
    if (!c.hasInterval()) {
      return INCONCLUSIVE;
    }
    double[] better = better(c, higherIsBetter);
    double point = better[0];
    if (better[2] < 0 && point <= -threshold) {
      return REGRESSION;
    }
    if (better[1] > 0 && point >= threshold) {
      return IMPROVEMENT;
    }
    return equivalent(c, threshold) ? NO_CHANGE : INCONCLUSIVE;
  }

  /** A row that does not gate, with its Benjamini–Hochberg q-value. */
  public static Verdict other(Statistics.Change c, boolean higherIsBetter, double threshold, double q) {
    if (!c.hasInterval()) {
      return INCONCLUSIVE;
    }
    double[] better = better(c, higherIsBetter);
    boolean discovered = q <= FALSE_DISCOVERY_RATE;
    if (discovered && better[0] <= -threshold) {
      return SUSPECT;
    }
    if (discovered && better[0] >= threshold) {
      return IMPROVEMENT;
    }
    return equivalent(c, threshold) ? NO_CHANGE : INCONCLUSIVE;
  }

  /** {change, low, high} turned so that positive is better. */
  private static double[] better(Statistics.Change c, boolean higherIsBetter) {
    double sign = higherIsBetter ? 1 : -1;
    double a = sign * c.low();
    double b = sign * c.high();
    return new double[] {sign * c.change(), Math.min(a, b), Math.max(a, b)};
  }

  /** Two one-sided tests: the interval at twice the error rate lies within ± the threshold. */
  private static boolean equivalent(Statistics.Change c, double threshold) {
    double[] tost = c.intervalAt(2 * c.confidence() - 1);
    return tost[0] > -threshold && tost[1] < threshold;
  }
}
