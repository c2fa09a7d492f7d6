package dev.ybbench.harness.compare;

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
import org.HdrHistogram.Histogram;

/**
 * One run's metrics as samples for the comparison: the run's value (from summary.json) with its
 * own noise, read from the compared phase's per-second record, {@code timeseries.csv} for the
 * phase's throughput and {@code latency/<phase>-<OP>.hlog} for each operation's rate and
 * percentiles. A run without them (a merged run keeps one interval) gives bare values.
 */
final class RunNoise {
  private final Path dir;
  private final String phase;
  private final Map<String, List<Interval>> intervals = new HashMap<>();
  private final Map<String, List<Histogram>> blockSums = new HashMap<>();

  private record Interval(Histogram latency, double seconds) {}

  RunNoise(Path dir, String phase) {
    this.dir = dir;
    this.phase = phase;
  }

  /** The phase's successful operations per second, from timeseries.csv. */
  Statistics.Sample throughput(double value) {
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
    List<double[]> perOp = new ArrayList<>();
    for (String op : operations) {
      List<Interval> in = intervals(op);
      if (!in.isEmpty()) {
        perOp.add(in.stream().mapToDouble(i -> i.latency().getTotalCount() / Math.max(i.seconds(), 1e-3)).toArray());
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
  Statistics.Sample percentile(String op, double percentile, double value) {
    // Four percentiles of each operation are compared: its blocks are added up once.
    List<Histogram> sums = blockSums.computeIfAbsent(op, o -> RunBlocks.blockSums(
        intervals(o).stream().map(Interval::latency).toList()));
    return RunBlocks.percentileOfBlocks(sums, percentile, value);
  }

  private List<Interval> intervals(String op) {
    return intervals.computeIfAbsent(op, o -> {
      Path file = dir.resolve("latency").resolve(phase + "-" + o + ".hlog");
      List<Interval> out = new ArrayList<>();
      if (!Files.isRegularFile(file)) {
        return out;
      }
      try {
        for (Histogram h : HlogFiles.intervals(file)) {
          out.add(new Interval(h, (h.getEndTimeStamp() - h.getStartTimeStamp()) / 1000.0));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (RuntimeException e) {
        out.clear();  // a damaged log: the run's value without its own noise
      }
      return out;
    });
  }
}
