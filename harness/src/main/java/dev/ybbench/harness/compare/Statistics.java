package dev.ybbench.harness.compare;

import java.util.List;

/**
 * The change between a baseline's and a candidate's repeated measurements of one metric, with a
 * 95 % confidence interval from Welch's t-interval for the difference of means (which does not
 * assume the two sides vary alike), expressed as percentages of the baseline mean.
 */
public final class Statistics {
  private Statistics() {}

  /**
   * @param changePct  (candidate mean − baseline mean) / baseline mean × 100
   * @param lowPct     the interval's low end in the same units, or NaN with fewer than 2 runs a side
   * @param highPct    its high end, or NaN
   */
  public record Change(double baselineMean, double candidateMean, double changePct, double lowPct, double highPct) {
    public boolean hasInterval() {
      return !Double.isNaN(lowPct);
    }
  }

  public static double mean(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  /** Sample variance (n − 1). */
  public static double variance(List<Double> v) {
    double m = mean(v);
    return v.stream().mapToDouble(x -> (x - m) * (x - m)).sum() / (v.size() - 1);
  }

  public static Change change(List<Double> baseline, List<Double> candidate) {
    double mb = mean(baseline);
    double mc = mean(candidate);
    double scale = mb == 0 ? Double.NaN : 100.0 / Math.abs(mb);
    double change = mb == 0 ? (mc == 0 ? 0 : Double.POSITIVE_INFINITY) : (mc - mb) * scale;
    if (baseline.size() < 2 || candidate.size() < 2 || mb == 0) {
      return new Change(mb, mc, change, Double.NaN, Double.NaN);
    }
    double vb = variance(baseline) / baseline.size();
    double vc = variance(candidate) / candidate.size();
    double se = Math.sqrt(vb + vc);
    // Welch–Satterthwaite degrees of freedom.
    double df = se == 0 ? Double.POSITIVE_INFINITY : (vb + vc) * (vb + vc)
        / (vb * vb / (baseline.size() - 1) + vc * vc / (candidate.size() - 1));
    double half = tQuantile975(df) * se * scale;
    return new Change(mb, mc, change, change - half, change + half);
  }

  /** The 97.5 % quantile of Student's t with {@code df} degrees of freedom (two-sided 95 %). */
  static double tQuantile975(double df) {
    if (Double.isInfinite(df) || df > 1000) {
      return 1.959964;
    }
    // Table for small df, then the Cornish–Fisher expansion, which is within 0.001 from df = 3.
    double[] table = {Double.NaN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228};
    if (df < 10.5) {
      int lo = (int) Math.max(1, Math.floor(df));
      int hi = Math.min(10, lo + 1);
      double f = df - lo;
      return table[lo] + (table[hi] - table[lo]) * Math.max(0, Math.min(1, f));
    }
    double z = 1.959964;
    double z3 = z * z * z;
    double z5 = z3 * z * z;
    return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df);
  }
}
