package dev.ybbench.harness.results;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Reading a run's {@code latency/<phase>-<OP>.hlog} files back into histograms, so that runs
 * of several client machines merge exactly: adding HdrHistograms loses nothing, unlike
 * averaging their percentiles.
 */
public final class HlogFiles {
  private HlogFiles() {}

  /** Every interval of every {@code <phase>-*.hlog} in {@code latencyDir}, added up per operation. */
  public static Map<String, Histogram> totals(Path latencyDir, String phase) throws IOException {
    Map<String, Histogram> out = new TreeMap<>();
    for (Map.Entry<String, Path> f : files(latencyDir, phase).entrySet()) {
      Histogram total = new Histogram(3);
      forEachInterval(f.getValue(), total::add);
      out.put(f.getKey(), total);
    }
    return out;
  }

  /**
   * Every {@code <phase>-*.hlog} in {@code latencyDir} as its intervals, per operation (none when
   * the directory is missing).
   */
  public static Map<String, List<Histogram>> intervalsByOperation(Path latencyDir, String phase) throws IOException {
    Map<String, List<Histogram>> out = new TreeMap<>();
    for (Map.Entry<String, Path> f : files(latencyDir, phase).entrySet()) {
      out.put(f.getKey(), intervals(f.getValue()));
    }
    return out;
  }

  /** The {@code <phase>-<OP>.hlog} files in {@code latencyDir} by operation (none when the directory is missing). */
  public static Map<String, Path> files(Path latencyDir, String phase) throws IOException {
    Map<String, Path> out = new TreeMap<>();
    if (!Files.isDirectory(latencyDir)) {
      return out;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(latencyDir, phase + "-*.hlog")) {
      for (Path f : files) {
        String op = f.getFileName().toString().substring(phase.length() + 1).replaceFirst("\\.hlog$", "");
        if (!op.matches("\\d+-.*")) { // phase execute-2's file, which execute-* also matches
          out.put(op, f);
        }
      }
    }
    return out;
  }

  /** When the phase of an {@code .hlog} file began (epoch ms): its StartTime, else its first interval's start. */
  public static long startMillis(Path hlog) throws IOException {
    HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
    try {
      EncodableHistogram first = reader.nextIntervalHistogram();
      double start = reader.getStartTimeSec();
      return start > 0 ? Math.round(start * 1000) : first == null ? 0 : first.getStartTimeStamp();
    } finally {
      reader.close();
    }
  }

  /**
   * The interval histograms of one {@code .hlog} file in order, each with its start and end time
   * stamps (epoch ms): one per second of the phase as the run recorded them.
   */
  public static List<Histogram> intervals(Path hlog) throws IOException {
    List<Histogram> out = new ArrayList<>();
    forEachInterval(hlog, out::add);
    return out;
  }

  /**
   * Each interval histogram of one {@code .hlog} file in order, handed over one at a time, for
   * what needs one figure per interval or their sum: a decoded interval holds a count per value
   * bucket (~100 KB): a long phase's intervals, held at once, would multiply the client's peak
   * memory (docs/performance.md).
   */
  public static void forEachInterval(Path hlog, Consumer<Histogram> each) throws IOException {
    HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
    try {
      for (EncodableHistogram h; (h = reader.nextIntervalHistogram()) != null; ) {
        each.accept((Histogram) h);
      }
    } finally {
      reader.close();
    }
  }

  /**
   * Writes {@code <phase>-<op>.hlog} from interval histograms that carry their own time stamps,
   * as a run writes it second by second (an imported run's, rebuilt from its raw samples).
   */
  public static void writeIntervals(Path latencyDir, String phase, String op, List<Histogram> intervals)
      throws IOException {
    Files.createDirectories(latencyDir);
    long start = intervals.isEmpty() ? 0 : intervals.get(0).getStartTimeStamp();
    try (PrintStream out = new PrintStream(Files.newOutputStream(latencyDir.resolve(phase + "-" + op + ".hlog")),
        true, "UTF-8")) {
      HistogramLogWriter w = new HistogramLogWriter(out);
      w.outputComment("ybbench " + phase + " " + op + ": latency in microseconds, one interval per second");
      w.outputLogFormatVersion();
      w.outputStartTime(start);
      w.setBaseTime(start);
      w.outputLegend();
      intervals.forEach(w::outputIntervalHistogram);
    }
  }
}
