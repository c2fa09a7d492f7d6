package dev.ybbench.analysis.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * A run's own noise, the lower level of the comparison's model: how much the run's value would
 * move if the run were repeated at once. A run's per-second samples are autocorrelated (a slow
 * second is followed by slow seconds), so they are grouped into blocks of consecutive seconds
 * (batch means) and only the blocks count as independent: the run's value varies as the blocks'
 * values do, divided by their number.
 *
 * <p>The blocks' spread is taken from the differences between neighbouring blocks, and from their
 * median: a run's first seconds are slow while the JIT, the connections and the server's caches
 * warm up (measured here: the first 3 s of a workloadc run at 35–60 % of the rest), and that ramp
 * is the same in every run, not noise that a repetition would move. A plain variance would count
 * it and make every interval several times too wide.
 */
public final class RunBlocks {
  /** Fewer blocks than this say nothing about a run's noise. */
  static final int MIN_BLOCKS = 2;
  /** The median of |X − Y| for independent X, Y ~ N(0, σ²) is this × σ (√2 × the normal's 0.6745). */
  static final double MEDIAN_ABS_DIFFERENCE = 0.9538726;

  private RunBlocks() {}

  /**
   * Seconds per block: at least 5 (autocorrelation on this kind of machine lasts a few seconds),
   * growing as √n so that long runs get both long blocks and many of them.
   */
  static int blockLength(int seconds) {
    return Math.max(5, (int) Math.round(Math.sqrt(seconds)));
  }

  /** Consecutive runs of {@link #blockLength} intervals; a short tail joins the last block. */
  static <T> List<List<T>> blocks(List<T> intervals) {
    int length = blockLength(intervals.size());
    int n = intervals.size() / length;
    List<List<T>> out = new ArrayList<>();
    for (int b = 0; b < n; b++) {
      out.add(intervals.subList(b * length, b == n - 1 ? intervals.size() : (b + 1) * length));
    }
    return out;
  }

  /**
   * The variance of one block's value from neighbouring blocks' differences: the squared median
   * difference scaled to σ² with three or more differences, else half the mean squared difference.
   */
  static double blockVariance(double[] values) {
    int n = values.length - 1;
    if (n < 1) {
      return 0;
    }
    double[] diffs = new double[n];
    for (int i = 0; i < n; i++) {
      diffs[i] = Math.abs(values[i + 1] - values[i]);
    }
    if (n < 3) {
      return Arrays.stream(diffs).map(d -> d * d).average().orElse(0) / 2;
    }
    Arrays.sort(diffs);
    double median = n % 2 == 1 ? diffs[n / 2] : (diffs[n / 2 - 1] + diffs[n / 2]) / 2;
    double sigma = median / MEDIAN_ABS_DIFFERENCE;
    return sigma * sigma;
  }

  /** A value with the variance of its log from its blocks' values. */
  private static Statistics.Sample sample(double value, double[] perBlock) {
    if (perBlock.length < MIN_BLOCKS || Arrays.stream(perBlock).anyMatch(v -> !(v > 0))) {
      return new Statistics.Sample(value, 0, perBlock.length);
    }
    double[] logs = Arrays.stream(perBlock).map(Math::log).toArray();
    return new Statistics.Sample(value, blockVariance(logs) / logs.length, logs.length);
  }

  /** A rate (throughput, tpmC) with its noise from its per-interval rates' block means. */
  public static Statistics.Sample rate(double value, double[] perInterval) {
    List<Double> all = Arrays.stream(perInterval).boxed().toList();
    return sample(value, blocks(all).stream().mapToDouble(b -> b.stream().mapToDouble(Double::doubleValue)
        .average().orElse(0)).toArray());
  }

  /**
   * A latency percentile with its noise from a run's interval histograms: each block's intervals
   * added up and the percentile read from the sum.
   *
   * @param value the run's value of the percentile (from summary.json)
   */
  public static Statistics.Sample percentile(List<Histogram> intervals, double percentile, double value) {
    return percentileOfBlocks(blockSums(intervals), percentile, value);
  }

  /** Each block's intervals added up: what every percentile of a run is read from. */
  public static List<Histogram> blockSums(List<Histogram> intervals) {
    return blockSums(intervals.size(), intervals::forEach);
  }

  /**
   * As {@link #blockSums(List)}, the {@code n} intervals handed over in order by {@code intervals}
   * (a log read as it streams), each added to its block as {@link #blocks} cuts them.
   */
  public static List<Histogram> blockSums(int n, Consumer<Consumer<Histogram>> intervals) {
    int length = blockLength(n);
    List<Histogram> sums = new ArrayList<>();
    for (int b = 0; b < n / length; b++) {
      sums.add(new Histogram(3));
    }
    if (!sums.isEmpty()) {
      int[] i = {0};
      intervals.accept(h -> sums.get(Math.min(i[0]++ / length, sums.size() - 1)).add(h));
    }
    return sums;
  }

  /** {@link #percentile} from block sums ({@link #blockSums}) made once for all of a run's percentiles. */
  public static Statistics.Sample percentileOfBlocks(List<Histogram> blockSums, double percentile, double value) {
    return sample(value, blockSums.stream().mapToDouble(h -> h.getTotalCount() == 0 ? 0
        : h.getValueAtPercentile(percentile)).toArray());
  }
}
