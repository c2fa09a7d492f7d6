package dev.ybbench.ycsb;

import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.metrics.OperationMetrics;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.ycsb.cli.YcsbSettings;
import dev.ybbench.ycsb.client.YcsbPhase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.HdrHistogram.Histogram;

/**
 * The end-of-phase summary in YCSB's own "[OP], metric, value" form: on the terminal, and, when
 * the properties name an {@code exportfile}, written there in the {@code exporter}'s format
 * (YCSB's text, JSON objects, or a JSON array), the percentiles those of {@code
 * hdrhistogram.percentiles} when given.
 */
final class YcsbReport {
  /** One line of the report: a count (Long), a figure (Double) or a word. */
  record Line(String operation, String metric, Object value) {
    @Override
    public String toString() {
      return "[" + operation + "], " + metric + ", "
          + (value instanceof Double d ? String.format(Locale.ROOT, "%.1f", d) : value); // never 1.0E7
    }
  }

  /** The terminal's percentiles when none are asked for: YCSB's 95 and 99, with the median and 99.9 beside them. */
  private static final List<Double> DEFAULT_PERCENTILES = List.of(50.0, 95.0, 99.0, 99.9);

  private final List<Double> percentiles;
  private final Path exportFile;
  private final String exporter;
  private final List<Line> exported = new ArrayList<>();
  /**
   * YCSB's own overall lines ({@code [OVERALL], Throughput(ops/sec)}), for a YCSB command line;
   * else ybbench's, which name the phase ({@code [OVERALL], RUN Throughput(ops/sec)}) since one
   * ybbench run may load and run.
   */
  private final boolean ycsbWords;

  YcsbReport(Properties props) {
    this(props, false);
  }

  YcsbReport(Properties props, boolean ycsbWords) {
    this.ycsbWords = ycsbWords;
    String asked = props.getProperty(YcsbSettings.PERCENTILES);
    percentiles = asked == null ? DEFAULT_PERCENTILES : parsePercentiles(asked);
    String file = props.getProperty(YcsbSettings.EXPORT_FILE);
    exportFile = file == null || file.isBlank() ? null : Path.of(file.strip());
    exporter = props.getProperty(YcsbSettings.EXPORTER, YcsbSettings.EXPORTERS.get(0)).strip();
  }

  /** What the report will show and write, for the plan. */
  Map<String, String> settings() {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    m.put("percentiles", String.join(", ", percentiles.stream().map(YcsbReport::ordinal).toList()));
    m.put("export", exportFile == null ? "none" : exportFile + " (" + exporter.substring(exporter.lastIndexOf('.') + 1)
        + ")");
    return m;
  }

  private static List<Double> parsePercentiles(String asked) {
    List<Double> out = new ArrayList<>();
    for (String p : asked.split(",")) {
      try {
        double d = Double.parseDouble(p.strip());
        if (d <= 0 || d > 100) {
          throw new NumberFormatException();
        }
        out.add(d);
      } catch (NumberFormatException e) {
        throw new UserError(YcsbSettings.PERCENTILES + "=" + asked + " takes percentiles above 0 and up to 100, "
            + "separated by commas (e.g. 95,99)");
      }
    }
    return out;
  }

  /** The phase's lines as the terminal shows them; also kept for the export file. */
  String text(YcsbPhase.Result r) {
    List<Line> lines = lines(r);
    exported.addAll(lines);
    return String.join("\n", lines.stream().map(Line::toString).toList());
  }

  /** Writes every phase's lines so far to the export file, if one was asked for. */
  void export() throws IOException {
    if (exportFile == null) {
      return;
    }
    String body;
    if (exporter.endsWith("TextMeasurementsExporter")) {
      body = String.join("\n", exported.stream().map(Line::toString).toList()) + "\n";
    } else {
      // YCSB's JSON exporters write one {"metric", "measurement", "value"} object per line: as a series of objects,
      // or within one array.
      ArrayNode array = RunDirectory.JSON.createArrayNode();
      for (Line l : exported) {
        ObjectNode n = array.addObject().put("metric", l.operation()).put("measurement", l.metric());
        if (l.value() instanceof Long count) {
          n.put("value", count);
        } else if (l.value() instanceof Double figure) {
          n.put("value", figure);
        } else {
          n.put("value", String.valueOf(l.value()));
        }
      }
      if (exporter.endsWith("JSONArrayMeasurementsExporter")) {
        body = RunDirectory.JSON.writer(new DefaultPrettyPrinter()).writeValueAsString(array) + "\n";
      } else {
        StringBuilder s = new StringBuilder();
        for (var n : array) {
          s.append(RunDirectory.JSON.writer(new DefaultPrettyPrinter()).writeValueAsString(n)).append('\n');
        }
        body = s.toString();
      }
    }
    Path parent = exportFile.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(exportFile, body);
  }

  private List<Line> lines(YcsbPhase.Result r) {
    List<Line> out = new ArrayList<>();
    String p = ycsbWords ? "" : r.phase().toUpperCase(Locale.ROOT) + " ";
    out.add(new Line("OVERALL", p + "RunTime(ms)", Math.round(r.seconds() * 1000)));
    out.add(new Line("OVERALL", p + "Throughput(ops/sec)",
        Math.round(10 * r.metrics().successes() / r.seconds()) / 10.0));
    if (r.end() != YcsbPhase.End.COMPLETED) {
      out.add(new Line("OVERALL", p + "EndedBy", switch (r.end()) {
        case TIME_LIMIT -> "time limit";
        case NOTHING_WORKS -> "every operation failing";
        default -> "interrupt";
      }));
    }
    Map<String, Histogram> totals = r.recorder().totals();
    for (OperationMetrics op : r.metrics().operations()) {
      String n = op.name();
      Histogram h = totals.get(n);
      out.add(new Line(n, "Operations", op.successes()));
      if (h != null && h.getTotalCount() > 0) {
        out.add(new Line(n, "AverageLatency(us)", Math.round(10 * h.getMean()) / 10.0));
        out.add(new Line(n, "MinLatency(us)", h.getMinValue()));
        out.add(new Line(n, "MaxLatency(us)", h.getMaxValue()));
        for (double pct : percentiles) {
          out.add(new Line(n, ordinal(pct) + "PercentileLatency(us)", h.getValueAtPercentile(pct)));
        }
      }
      out.add(new Line(n, "Return=OK", op.successes()));
      op.errors().forEach((cls, count) -> out.add(new Line(n, "Return=" + cls, count)));
      // As YCSB names a status: the binding's Status for an abort is "abort/<class>".
      op.aborts().forEach((cls, count) -> out.add(new Line(n, "Return=" + OperationMetrics.ABORT_PREFIX + cls, count)));
      out.add(new Line(n, "Retries", op.retries()));
    }
    Map<String, Histogram> batchTotals = r.recorder().batchTotals();
    for (OperationMetrics batch : r.metrics().batches()) {
      String n = batch.name() + "-BATCH";
      Histogram h = batchTotals.get(batch.name());
      out.add(new Line(n, "Operations", batch.successes()));
      out.add(new Line(n, "RowsPerBatch", Math.round(10.0 * r.metrics().operation(batch.name()).successes()
          / Math.max(1, batch.successes())) / 10.0));
      if (h != null && h.getTotalCount() > 0) {
        out.add(new Line(n, "AverageLatency(us)", Math.round(10 * h.getMean()) / 10.0));
        out.add(new Line(n, "50thPercentileLatency(us)", h.getValueAtPercentile(50)));
        out.add(new Line(n, "99thPercentileLatency(us)", h.getValueAtPercentile(99)));
      }
    }
    return out;
  }

  /** "95th", "99th", "99.9th": a percentile's name in YCSB's report. */
  static String ordinal(double p) {
    if (p != Math.rint(p)) {
      return String.format(Locale.ROOT, "%s", p) + "th";
    }
    long i = (long) p;
    String suffix = i % 100 >= 11 && i % 100 <= 13 ? "th" : switch ((int) (i % 10)) {
      case 1 -> "st";
      case 2 -> "nd";
      case 3 -> "rd";
      default -> "th";
    };
    return i + suffix;
  }
}
