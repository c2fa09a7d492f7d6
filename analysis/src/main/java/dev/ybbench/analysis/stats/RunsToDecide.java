package dev.ybbench.analysis.stats;

/**
 * How many more runs would decide a change that is still undecided, at the noise seen so far and
 * with {@link #POWER}: more interleaved rounds, or for single runs — where more rounds are not the
 * answer — a history of the baseline's runs, or more runs of the candidate against one.
 */
public final class RunsToDecide {
  private RunsToDecide() {}

  /** Statistical power aimed at by {@link #rounds}: a change of the threshold's size is found 4 times in 5. */
  static final double POWER = 0.8;

  /**
   * Rounds in all (runs per side when unpaired) after which a change of the threshold's size
   * would likely (with {@link #POWER}) be decided at the noise observed so far; at most
   * {@code cap}.
   */
  public static int rounds(Statistics.Change c, double thresholdPct, int cap) {
    if (!(c.se() > 0)) {
      return (int) Math.ceil(c.effectiveRounds());
    }
    double delta = c.scale() == Statistics.Scale.RATIO ? Math.log1p(thresholdPct / 100) : thresholdPct;
    double zPower = Distributions.normalQuantile(POWER);
    double alpha = 1 - c.confidence();
    double k = c.effectiveRounds();
    for (int n = 2; n <= cap; n++) {
      double q = Distributions.tQuantile(1 - alpha / 2, n - 1);
      if ((q + zPower) * c.se() * Math.sqrt(k / n) <= delta) {
        return n;
      }
    }
    return cap;
  }

  /**
   * Whether nothing is known of how runs differ: one run a side, no other runs beside them. Such a
   * change has no interval, and its standard error is the runs' own seconds only, the least the
   * noise between runs can be.
   */
  public static boolean runsUnknown(Statistics.Change c) {
    return !c.paired() && c.baselineRuns() == 1 && c.candidateRuns() == 1 && c.scale() == Statistics.Scale.RATIO
        && !c.hasInterval() && c.se() >= 0;
  }

  /**
   * For one run a side ({@link #runsUnknown}): how many runs of the baseline's configuration, kept
   * in a history, would likely (with {@link #POWER}) let one candidate run decide a change of the
   * threshold's size, were runs to differ no more than their own seconds say: the smallest m with
   * (t(m − 1) + z) × s × √(1 + 1/m) ≤ δ, a prediction interval's width. Otherwise, or beyond
   * {@code cap}, the cap.
   */
  public static int history(Statistics.Change c, double thresholdPct, int cap) {
    if (!runsUnknown(c)) {
      return cap;
    }
    if (c.se() == 0) {
      return MIN_HISTORY;  // the runs say nothing of their noise: the least history that can judge at all
    }
    double delta = Math.log1p(thresholdPct / 100);
    double perRun = c.se() / Math.sqrt(2);
    double zPower = Distributions.normalQuantile(POWER);
    for (int m = MIN_HISTORY; m <= cap; m++) {
      double q = Distributions.tQuantile(1 - (1 - c.confidence()) / 2, m - 1);
      if ((q + zPower) * perRun * Math.sqrt(1 + 1.0 / m) <= delta) {
        return m;
      }
    }
    return cap;
  }

  /**
   * Whether one candidate run is judged against several unpaired runs (a night's run against its
   * history): its interval is a prediction from their spread ({@link Statistics#change}).
   */
  public static boolean oneAgainstSeveral(Statistics.Change c) {
    return !c.paired() && c.candidateRuns() == 1 && c.baselineRuns() >= 2 && c.scale() == Statistics.Scale.RATIO
        && c.hasInterval();
  }

  /**
   * For one run against several ({@link #oneAgainstSeveral}): the changes a single run must
   * exceed to be decided against these runs, {low, high} in %: the estimate's distance from the
   * ends of its interval, taken from zero (log scale, so the two differ).
   */
  public static double[] decidedBeyond(Statistics.Change c) {
    double half = Math.log1p(c.change() / 100) - Math.log1p(c.low() / 100);
    return new double[] {Math.expm1(-half) * 100, Math.expm1(half) * 100};
  }

  /**
   * For one run against n others ({@link #oneAgainstSeveral}): how many runs of the candidate
   * would likely (with {@link #POWER}) decide a change of the threshold's size when their mean is
   * judged against the same n: the smallest k with (t(df) + z) × s × √(1/n + 1/k) ≤ δ, where
   * s² = se² / (1 + 1/n) is the runs' spread that the single run's prediction borrowed. The cap
   * when no number of candidate runs would: the n runs' own mean is then too uncertain (more of
   * them, or steadier ones, are what is missing).
   */
  public static int candidateRuns(Statistics.Change c, double thresholdPct, int cap) {
    if (!oneAgainstSeveral(c)) {
      return cap;
    }
    int n = c.baselineRuns();
    double delta = Math.log1p(thresholdPct / 100);
    double s = c.se() / Math.sqrt(1 + 1.0 / n);
    // The interval's own degrees of freedom: n − 1, or more when earlier runs' spread is pooled in.
    double factor = Distributions.tQuantile(1 - (1 - c.confidence()) / 2, c.df())
        + Distributions.normalQuantile(POWER);
    for (int k = 1; k <= cap; k++) {
      if (factor * s * Math.sqrt(1.0 / n + 1.0 / k) <= delta) {
        return k;
      }
    }
    return cap;
  }

  /** Fewer runs than this do not make a history a run can be judged against: one odd run could not be told. */
  public static final int MIN_HISTORY = Statistics.OUTLIER_MIN_RUNS + 1;
}
