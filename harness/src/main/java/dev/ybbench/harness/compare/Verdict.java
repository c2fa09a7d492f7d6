package dev.ybbench.harness.compare;

/**
 * What a change means for a metric. Direction-aware: for throughput a drop is worse, for
 * latency and errors a rise is. With an interval (2+ runs a side) a verdict needs the whole
 * interval beyond the threshold; with one run a side the point change decides.
 */
public enum Verdict {
  REGRESSION("regression"),
  IMPROVEMENT("improvement"),
  NO_CHANGE("no change"),
  /** The interval straddles the threshold: the runs vary too much to say. */
  INCONCLUSIVE("inconclusive");

  private final String label;

  Verdict(String label) {
    this.label = label;
  }

  @Override
  public String toString() {
    return label;
  }

  /**
   * @param higherIsBetter true for throughput, tpmC, efficiency; false for latency and errors
   * @param thresholdPct   changes smaller than this are "no change"
   */
  public static Verdict of(Statistics.Change c, boolean higherIsBetter, double thresholdPct) {
    double sign = higherIsBetter ? 1 : -1;
    if (Double.isNaN(c.changePct())) {
      return NO_CHANGE;
    }
    if (!c.hasInterval()) {
      double better = sign * c.changePct();
      return better <= -thresholdPct ? REGRESSION : better >= thresholdPct ? IMPROVEMENT : NO_CHANGE;
    }
    // In "better" units: positive is better, whatever the metric.
    double lo = Math.min(sign * c.lowPct(), sign * c.highPct());
    double hi = Math.max(sign * c.lowPct(), sign * c.highPct());
    if (hi <= -thresholdPct) {
      return REGRESSION;
    }
    if (lo >= thresholdPct) {
      return IMPROVEMENT;
    }
    if (lo > -thresholdPct && hi < thresholdPct) {
      return NO_CHANGE;
    }
    return INCONCLUSIVE;
  }
}
