package dev.ybbench.analysis.compare;

import dev.ybbench.analysis.stats.RunBlocks;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.HlogFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * One run's metrics as samples for the comparison: the run's value (from summary.json) with its
 * own noise, read from the compared phase's per-second record, {@code timeseries.csv} for the
 * phase's throughput and {@code latency/<phase>-<OP>.hlog} for each operation's rate and
 * percentiles. A run without them (a merged run keeps one interval) gives bare values.
 *
 * <p>What it answers is kept ({@link #recorded}): the history stores it with the run, and a run
 * read back from the history ({@link #of(Map)}) answers the same without its directory.
 */
public final class RunNoise {
  private final Path dir;
  private final String phase;
  /** Per operation, its successes per second in each interval of its log. */
  private final Map<String, double[]> rates = new HashMap<>();
  private final Map<String, List<Histogram>> blockSums = new HashMap<>();
  /** Each answer's noise by question ("throughput", "rate:READ", "p99.0:READ"): {within variance, blocks}. */
  private final Map<String, double[]> answers = new java.util.TreeMap<>();
  private final boolean fromRecord;

  RunNoise(Path dir, String phase) {
    this.dir = dir;
    this.phase = phase;
    this.fromRecord = false;
  }

  private RunNoise(Map<String, double[]> recorded) {
    this.dir = null;
    this.phase = null;
    this.answers.putAll(recorded);
    this.fromRecord = true;
  }

  /** A run's noise as the history recorded it; a question it has no answer to gets the bare value. */
  static RunNoise of(Map<String, double[]> recorded) {
    return new RunNoise(recorded);
  }

  /** Every answer given so far, for the history. */
  Map<String, double[]> recorded() {
    return Map.copyOf(answers);
  }

  private Statistics.Sample answer(String question, double value,
      java.util.function.Supplier<Statistics.Sample> compute) {
    if (fromRecord) {
      double[] a = answers.get(question);
      return a == null ? Statistics.Sample.of(value) : new Statistics.Sample(value, a[0], (int) a[1]);
    }
    Statistics.Sample s = compute.get();
    answers.put(question, new double[] {s.withinVariance(), s.blocks()});
    return s;
  }

  /** The phase's successful operations per second, from timeseries.csv. */
  Statistics.Sample throughput(double value) {
    return answer("throughput", value, () -> throughputFromSeconds(value));
  }

  private Statistics.Sample throughputFromSeconds(double value) {
    Path file = dir.resolve("timeseries.csv");
    List<Double> perSecond = new ArrayList<>();
    if (Files.isRegularFile(file)) {
      try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        String header = in.readLine();
        if (header != null && header.startsWith(Timeseries.HEADER)) {
          for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split(",");
            if (f.length > 2 && f[0].equals(phase)) {
              perSecond.add(Double.parseDouble(f[2]));
            }
          }
        }
      } catch (IOException | NumberFormatException e) {
        perSecond.clear();  // an unreadable series: the run's value without its own noise
      }
    }
    return RunBlocks.rate(value, perSecond.stream().mapToDouble(Double::doubleValue).toArray());
  }

  /** The operations' successes per second together (one operation's throughput; New-Orders for tpmC). */
  Statistics.Sample rate(double value, String... operations) {
    return answer("rate:" + String.join(",", operations), value, () -> rateFromSeconds(value, operations));
  }

  private Statistics.Sample rateFromSeconds(double value, String... operations) {
    List<double[]> perOp = new ArrayList<>();
    for (String op : operations) {
      double[] r = rates(op);
      if (r.length > 0) {
        perOp.add(r);
      }
    }
    int n = perOp.stream().mapToInt(a -> a.length).min().orElse(0);
    double[] sum = new double[n];
    for (double[] a : perOp) {
      for (int i = 0; i < n; i++) {
        sum[i] += a[i];
      }
    }
    return RunBlocks.rate(value, sum);
  }

  /** A percentile (e.g. 99.9) of one operation's latency. */
  public Statistics.Sample percentile(String op, double percentile, double value) {
    // Four percentiles of each operation are compared: its blocks are added up once.
    return answer("p" + percentile + ":" + op, value, () -> RunBlocks.percentileOfBlocks(
        blockSums.computeIfAbsent(op, this::readBlockSums), percentile, value));
  }

  private double[] rates(String op) {
    return rates.computeIfAbsent(op, o -> {
      List<Double> out = new ArrayList<>();
      if (!read(o, h -> out.add(h.getTotalCount() / Math.max((h.getEndTimeStamp() - h.getStartTimeStamp()) / 1000.0,
          1e-3)))) {
        out.clear();
      }
      return out.stream().mapToDouble(Double::doubleValue).toArray();
    });
  }

  /**
   * The operation's intervals added up per block, read as they stream from the log
   * (HlogFiles.forEachInterval): a long run's intervals are not all held at once.
   */
  private List<Histogram> readBlockSums(String op) {
    boolean[] readable = {true};
    List<Histogram> sums = RunBlocks.blockSums(rates(op).length, each -> readable[0] = read(op, each));
    return readable[0] ? sums : List.of();
  }

  /** Hands each interval of the operation's log to {@code each}; false when the log is damaged. */
  private boolean read(String op, Consumer<Histogram> each) {
    Path file = dir.resolve("latency").resolve(phase + "-" + op + ".hlog");
    if (!Files.isRegularFile(file)) {
      return true;
    }
    try {
      HlogFiles.forEachInterval(file, each);
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      return false;  // a damaged log: the run's value without its own noise
    }
  }
}
