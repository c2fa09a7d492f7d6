package dev.ybbench.analysis.stats;

import java.util.Arrays;
import java.util.List;

/**
 * The change of one metric between a baseline's and a candidate's runs, with a confidence
 * interval from a two-level random-effects model (Kalibera &amp; Jones, "Rigorous Benchmarking in
 * Reasonable Time", ISMM 2013). The top level is the runs: when the sides were interleaved, the
 * rounds' log ratios (pairing cancels what drifted between rounds); else each side's runs. The
 * lower level is each run's own seconds, grouped into blocks ({@link RunBlocks}): they say how
 * much a run's value would move if it were run again at once. That is a floor on how much fewer
 * than three runs may be taken to vary (two runs can agree by chance; one has no spread at all),
 * and the evidence for setting a disturbed run aside ({@link #outlier}). It is never the whole
 * noise: runs differ from each other by more than their own seconds say (a fresh JVM, fresh data,
 * the server's state), so a comparison of one run a side, which knows only the lower level, gets
 * no interval; a single run against several (a night's run against its history) borrows their
 * spread as its own, a prediction interval. Ratios are analysed on the log scale, so a change is a ratio candidate/baseline and
 * its interval lies in (−100 %, +∞). The interval is the estimate ± Student's t quantile for the
 * number of rounds × the standard error: with five rounds a normal quantile (or a percentile
 * bootstrap, which sees only five values) would be too narrow.
 */
public final class Statistics {
  private Statistics() {}

  /** From this many runs (rounds) on, their spread alone estimates the noise; below, blocks give a floor. */
  public static final int FLOORLESS = 3;

  /** How a change is expressed: a ratio (as % change) or, for values that may be 0, a difference. */
  public enum Scale {
    /** Throughput, latency, tpmC: positive values; the change is (candidate/baseline − 1) × 100 %. */
    RATIO,
    /** An error ratio in %: the change is candidate − baseline, in percentage points. */
    DIFFERENCE
  }

  /**
   * One run's value of one metric, with the run's own noise.
   *
   * @param withinVariance the variance of the value (of its log, for RATIO) that the run's blocks of
   *                       seconds imply ({@link RunBlocks}); 0 when the run has no per-second data
   * @param blocks         how many blocks that came from (0 without them)
   */
  public record Sample(double value, double withinVariance, int blocks) {
    public static Sample of(double value) {
      return new Sample(value, 0, 0);
    }
  }

  /**
   * @param baseline   the baseline runs' geometric mean (RATIO) or mean (DIFFERENCE)
   * @param candidate  the candidate runs' likewise
   * @param change     % change (RATIO) or difference (DIFFERENCE); NaN when it cannot be computed
   * @param low        the interval's low end, in the same units; NaN without an interval
   * @param high       its high end
   * @param p          two-sided p-value of "no change" (NaN without an interval)
   * @param se         the standard error on the analysis scale (log for RATIO)
   * @param df         degrees of freedom of the t quantile
   * @param paired     whether the runs were analysed as interleaved pairs
   * @param confidence the interval's confidence level, e.g. 0.95
   * @param baselineRuns  the baseline runs the change is computed from (without one set aside)
   * @param asideBaseline the index of a baseline run set aside as disturbed, or −1; likewise for the candidate
   *                      (paired: both name the round)
   */
  public record Change(Scale scale, double baseline, double candidate, double change, double low, double high,
      double p, double se, double df, int baselineRuns, int candidateRuns, boolean paired, double confidence,
      int asideBaseline, int asideCandidate) {
    public Change(Scale scale, double baseline, double candidate, double change, double low, double high, double p,
        double se, double df, int baselineRuns, int candidateRuns, boolean paired, double confidence) {
      this(scale, baseline, candidate, change, low, high, p, se, df, baselineRuns, candidateRuns, paired, confidence,
          -1, -1);
    }

    public boolean hasInterval() {
      return !Double.isNaN(low);
    }

    /**
     * The interval at another confidence, from the same estimate, standard error and degrees of
     * freedom: {low, high} in the change's units.
     */
    public double[] intervalAt(double level) {
      if (!hasInterval()) {
        return new double[] {Double.NaN, Double.NaN};
      }
      boolean ratio = scale == Scale.RATIO;
      double point = ratio ? Math.log1p(change / 100) : change;
      double half = Distributions.tQuantile(1 - (1 - level) / 2, df) * se;
      return new double[] {express(point - half, ratio), express(point + half, ratio)};
    }

    /** Whether a disturbed run (or round) was set aside ({@link #outlier}). */
    public boolean setAside() {
      return asideBaseline >= 0 || asideCandidate >= 0;
    }

    /** Runs that make one side's estimate: rounds when paired, else the harmonic-mean count of the two sides. */
    public double effectiveRounds() {
      return paired ? baselineRuns : 2.0 / (1.0 / baselineRuns + 1.0 / candidateRuns);
    }
  }

  /**
   * @param paired     baseline.get(i) and candidate.get(i) ran in the same round (same size lists)
   * @param confidence e.g. 0.95
   */
  public static Change change(List<Sample> baseline, List<Sample> candidate, boolean paired, Scale scale,
      double confidence) {
    return change(baseline, candidate, paired ? Design.PAIRED : Design.UNPAIRED, scale, confidence);
  }

  /**
   * How the two sides' runs relate: by round (paired); unrelated, each side's spread its own
   * (Welch); or runs of one configuration on one machine whose spread is shared (a candidate's
   * runs judged against its history: the two sides' spreads pooled).
   */
  public enum Design { PAIRED, UNPAIRED, POOLED }

  /** As above, the sides' design given. */
  public static Change change(List<Sample> baseline, List<Sample> candidate, Design design, Scale scale,
      double confidence) {
    return change(baseline, candidate, design, scale, confidence, List.of());
  }

  /**
   * As above, for a baseline whose level moved lately ({@link Design#POOLED} only): the baseline's
   * runs are those at the level it is at now, and {@code earlierLevel} are runs of the same
   * configuration at the level before, which say how runs spread (each around its own level's
   * mean, so the step between the levels is no part of it) but nothing of the level. Two runs at
   * the new level then judge a candidate with the spread of all of them: the pooled variance's
   * degrees of freedom are every run's but one per level and one for the candidate.
   */
  public static Change change(List<Sample> baseline, List<Sample> candidate, Design design, Scale scale,
      double confidence, List<Sample> earlierLevel) {
    if (!earlierLevel.isEmpty() && design != Design.POOLED) {
      throw new IllegalArgumentException("an earlier level is a pooled design's");
    }
    boolean paired = design == Design.PAIRED;
    if (paired && baseline.size() != candidate.size()) {
      throw new IllegalArgumentException("paired sides need as many runs each");
    }
    if (scale == Scale.RATIO && allPositive(baseline) && allPositive(candidate)) {
      int ab;
      int ac;
      if (paired) {
        double[] d = new double[baseline.size()];
        double[] within = new double[d.length];
        for (int i = 0; i < d.length; i++) {
          d[i] = Math.log(candidate.get(i).value()) - Math.log(baseline.get(i).value());
          within[i] = baseline.get(i).withinVariance() + candidate.get(i).withinVariance();
        }
        ab = ac = outlier(d, within);
      } else {
        ab = outlier(values(baseline, true), withins(baseline));
        ac = outlier(values(candidate, true), withins(candidate));
      }
      if (ab >= 0 || ac >= 0) {
        Change c = estimate(without(baseline, ab), without(candidate, ac), design, scale, confidence, earlierLevel);
        return new Change(c.scale(), c.baseline(), c.candidate(), c.change(), c.low(), c.high(), c.p(), c.se(),
            c.df(), c.baselineRuns(), c.candidateRuns(), c.paired(), c.confidence(), ab, ac);
      }
    }
    return estimate(baseline, candidate, design, scale, confidence, earlierLevel);
  }

  /** Runs needed for one to be judged against the others. */
  static final int OUTLIER_MIN_RUNS = 4;
  /** How far from the others, in robust scales, a run must lie to be set aside. */
  static final double OUTLIER_SCALES = 4;

  /**
   * The one value that lies more than {@link #OUTLIER_SCALES} scales from the median of the
   * others, or −1. The scale is the others' median absolute deviation (× 1.4826, a normal's σ),
   * but never below the spread the others' own blocks predict (the square root of their mean
   * within-run variance): without that floor, four runs that happen to agree closely would make
   * any fifth an outlier. The suspect's own blocks are left out of its floor: a run that stalled
   * for a second has a wide spread of its own, which must not shield it (a history of 8 runs at
   * 7,460 ops/s kept one at 3,358 whose stall made the floor 0.24, so every later night was
   * undecided). No floor (runs without per-second data), no outliers: a run is set aside only on
   * evidence. With 1 run in 100 slowed by another process, five rounds hold one such run 1 time in
   * 10, and one run 20 % off would otherwise widen the interval until a 10 % regression goes unseen.
   *
   * @param within each value's within-run variance
   */
  static int outlier(double[] x, double[] within) {
    if (x.length < OUTLIER_MIN_RUNS) {
      return -1;
    }
    int worst = -1;
    double worstScore = OUTLIER_SCALES;
    for (int i = 0; i < x.length; i++) {
      double[] others = new double[x.length - 1];
      double othersWithin = 0;
      for (int j = 0, k = 0; j < x.length; j++) {
        if (j != i) {
          others[k++] = x[j];
          othersWithin += within[j];
        }
      }
      double floor = Math.sqrt(othersWithin / others.length);
      if (!(floor > 0)) {
        continue;
      }
      double median = median(others);
      double[] deviations = Arrays.stream(others).map(v -> Math.abs(v - median)).toArray();
      double scale = Math.max(1.4826 * median(deviations), floor);
      double score = Math.abs(x[i] - median) / scale;
      if (score > worstScore) {
        worst = i;
        worstScore = score;
      }
    }
    return worst;
  }

  /** As {@link #outlier(double[], double[])}, every run's blocks predicting {@code noiseSd}. */
  static int outlier(double[] x, double noiseSd) {
    double[] within = new double[x.length];
    Arrays.fill(within, noiseSd * noiseSd);
    return outlier(x, within);
  }

  private static double[] withins(List<Sample> side) {
    return side.stream().mapToDouble(Sample::withinVariance).toArray();
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  private static boolean allPositive(List<Sample> side) {
    return side.stream().allMatch(s -> s.value() > 0);
  }

  private static List<Sample> without(List<Sample> side, int index) {
    if (index < 0) {
      return side;
    }
    List<Sample> out = new java.util.ArrayList<>(side);
    out.remove(index);
    return out;
  }

  private static Change estimate(List<Sample> baseline, List<Sample> candidate, Design design, Scale scale,
      double confidence, List<Sample> earlierLevel) {
    boolean paired = design == Design.PAIRED;
    int nb = baseline.size();
    int nc = candidate.size();
    boolean ratio = scale == Scale.RATIO;
    if (ratio && (baseline.stream().anyMatch(s -> !(s.value() > 0)) || candidate.stream()
        .anyMatch(s -> !(s.value() > 0)))) {
      // A zero throughput or latency has no log: the arithmetic change, without an interval.
      double mb = mean(values(baseline, false));
      double mc = mean(values(candidate, false));
      double pct = mb > 0 ? (mc - mb) / mb * 100 : Double.NaN;
      return new Change(scale, mb, mc, pct, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, nb, nc,
          paired, confidence);
    }
    double[] gb = values(baseline, ratio);
    double[] gc = values(candidate, ratio);
    double point = mean(gc) - mean(gb);
    double variance;
    if (paired) {
      double[] d = new double[nb];
      double within = 0;
      for (int i = 0; i < nb; i++) {
        d[i] = gc[i] - gb[i];
        within += baseline.get(i).withinVariance() + candidate.get(i).withinVariance();
      }
      variance = nb >= FLOORLESS ? variance(d) / nb : Math.max(variance(d) / nb, within / ((double) nb * nb));
    } else if (nb == 1 && nc == 1) {
      // Nothing says how runs differ. The runs' own seconds stay as the least the noise can be,
      // for saying how many runs would decide; they decide nothing themselves.
      double se = Math.sqrt(baseline.get(0).withinVariance() + candidate.get(0).withinVariance());
      return new Change(scale, back(mean(gb), ratio), back(mean(gc), ratio), express(point, ratio), Double.NaN,
          Double.NaN, Double.NaN, se, Double.NaN, nb, nc, paired, confidence);
    } else if (pooled(design, nb, nc, earlierLevel)) {
      // Runs of one configuration on one machine: a few candidate runs say little of their spread
      // alone, the history's runs say it for them too (pooled, as the classic two-sample t).
      double[] ge = values(earlierLevel, ratio);
      double pooled = ((nb - 1) * variance(gb) + (nc - 1) * variance(gc) + (ge.length - 1) * variance(ge))
          / pooledDf(nb, nc, earlierLevel);
      double within = baseline.stream().mapToDouble(Sample::withinVariance).sum() / ((double) nb * nb)
          + candidate.stream().mapToDouble(Sample::withinVariance).sum() / ((double) nc * nc);
      variance = Math.max(pooled * (1.0 / nb + 1.0 / nc), within);
    } else {
      // One run against several: it varies as they vary from each other (the same configuration's
      // runs), which its own seconds alone would understate.
      double between = nb == 1 ? variance(gc) : nc == 1 ? variance(gb) : 0;
      variance = sideVariance(gb, baseline, between) + sideVariance(gc, candidate, between);
    }
    double se = Math.sqrt(variance);
    double df = pooled(design, nb, nc, earlierLevel) ? pooledDf(nb, nc, earlierLevel)
        : degreesOfFreedom(baseline, candidate, gb, gc, paired);
    if (Double.isNaN(df)) {
      return new Change(scale, back(mean(gb), ratio), back(mean(gc), ratio), express(point, ratio), Double.NaN,
          Double.NaN, Double.NaN, se, df, nb, nc, paired, confidence);
    }
    double q = Distributions.tQuantile(1 - (1 - confidence) / 2, df);
    double p = se > 0 ? 2 * (1 - Distributions.tCdf(Math.abs(point) / se, df)) : (point == 0 ? 1 : 0);
    return new Change(scale, back(mean(gb), ratio), back(mean(gc), ratio), express(point, ratio),
        express(point - q * se, ratio), express(point + q * se, ratio), p, se, df, nb, nc, paired, confidence);
  }

  /**
   * Whether the spread is pooled: runs of one configuration on both sides, more than one on each
   * (a single candidate run against its history is a prediction from the history's spread alone,
   * the same thing), or any number beside an earlier level's runs.
   */
  private static boolean pooled(Design design, int nb, int nc, List<Sample> earlierLevel) {
    return design == Design.POOLED && (nb >= 2 && nc >= 2 || earlierLevel.size() >= 2 && nb + nc >= 3);
  }

  /** The pooled spread's degrees of freedom: every run's but one per level estimated. */
  private static int pooledDf(int nb, int nc, List<Sample> earlierLevel) {
    return nb - 1 + nc - 1 + Math.max(earlierLevel.size() - 1, 0);
  }

  /**
   * One side's level: the geometric mean of its runs with an interval (for a series of releases).
   *
   * @return {mean, low, high}; low and high NaN when nothing is known of the noise
   */
  public static double[] level(List<Sample> runs, double confidence) {
    double[] g = values(runs, true);
    double m = mean(g);
    double se = Math.sqrt(sideVariance(g, runs, 0));
    double df = runs.size() >= 2 ? runs.size() - 1 : runs.get(0).blocks() - 1;
    if (!(se > 0) || df < 1) {
      return new double[] {Math.exp(m), Double.NaN, Double.NaN};
    }
    double q = Distributions.tQuantile(1 - (1 - confidence) / 2, df);
    return new double[] {Math.exp(m), Math.exp(m - q * se), Math.exp(m + q * se)};
  }

  /**
   * The variance of one side's mean: its runs' spread, never below what their own blocks say. A
   * side of one run has no spread of its own: {@code between} is the other side's, a run's
   * variance borrowed (0: none to borrow).
   */
  private static double sideVariance(double[] g, List<Sample> side, double between) {
    int n = g.length;
    double within = side.stream().mapToDouble(Sample::withinVariance).sum() / ((double) n * n);
    if (n == 1) {
      return Math.max(between, within);
    }
    return n >= FLOORLESS ? variance(g) / n : Math.max(variance(g) / n, within);
  }

  private static double[] values(List<Sample> side, boolean ratio) {
    return side.stream().mapToDouble(s -> ratio ? Math.log(s.value()) : s.value()).toArray();
  }

  private static double back(double g, boolean ratio) {
    return ratio ? Math.exp(g) : g;
  }

  /** A change on the analysis scale as reported: % for ratios, units for differences. */
  private static double express(double d, boolean ratio) {
    return ratio ? Math.expm1(d) * 100 : d;
  }

  static double mean(double[] v) {
    double sum = 0;
    for (double x : v) {
      sum += x;
    }
    return v.length == 0 ? Double.NaN : sum / v.length;
  }

  /** Sample variance (n − 1); 0 for fewer than 2 values. */
  static double variance(double[] v) {
    if (v.length < 2) {
      return 0;
    }
    double m = mean(v);
    double ss = 0;
    for (double x : v) {
      ss += (x - m) * (x - m);
    }
    return ss / (v.length - 1);
  }

  /**
   * Paired: rounds − 1. Unpaired with 2+ runs a side: Welch–Satterthwaite over the run values;
   * one side with a single run: the other side's runs − 1, whose spread is the only one known. A
   * single run each: NaN, nothing is known of how runs differ.
   */
  static double degreesOfFreedom(List<Sample> b, List<Sample> c, double[] gb, double[] gc, boolean paired) {
    int nb = b.size();
    int nc = c.size();
    if (paired && nb >= 2) {
      return nb - 1;
    }
    if (nb >= 2 && nc >= 2) {
      double vb = variance(gb) / nb;
      double vc = variance(gc) / nc;
      if (vb + vc == 0) {
        return nb + nc - 2;
      }
      return (vb + vc) * (vb + vc) / (vb * vb / (nb - 1) + vc * vc / (nc - 1));
    }
    if (nb >= 2 || nc >= 2) {
      return Math.max(nb, nc) - 1;
    }
    return Double.NaN;
  }

  /**
   * Benjamini–Hochberg adjusted p-values (q-values): a row is a discovery at false-discovery rate
   * α when its q ≤ α. NaN p-values stay NaN and do not count as tests.
   */
  public static double[] benjaminiHochberg(double[] p) {
    Integer[] order = new Integer[p.length];
    int m = 0;
    for (int i = 0; i < p.length; i++) {
      if (!Double.isNaN(p[i])) {
        order[m++] = i;
      }
    }
    Integer[] tested = Arrays.copyOf(order, m);
    Arrays.sort(tested, (x, y) -> Double.compare(p[y], p[x]));
    double[] q = new double[p.length];
    Arrays.fill(q, Double.NaN);
    double running = 1;
    for (int k = 0; k < m; k++) {
      int rank = m - k;  // the k-th largest p has rank m − k
      running = Math.min(running, p[tested[k]] * m / rank);
      q[tested[k]] = running;
    }
    return q;
  }
}
