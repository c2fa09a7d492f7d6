package dev.ybbench.ycsb;

import dev.ybbench.harness.metrics.OperationMetrics;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** The end-of-phase summary on the terminal, in YCSB's own "[OP], metric, value" form. */
final class YcsbReport {
  private YcsbReport() {}

  static String text(YcsbPhase.Result r) {
    StringBuilder s = new StringBuilder();
    String p = r.phase().toUpperCase(Locale.ROOT);
    line(s, "OVERALL", p + " RunTime(ms)", String.format(Locale.ROOT, "%.0f", r.seconds() * 1000));
    line(s, "OVERALL", p + " Throughput(ops/sec)",
        String.format(Locale.ROOT, "%.1f", r.metrics().successes() / r.seconds()));
    if (r.end() != YcsbPhase.End.COMPLETED) {
      line(s, "OVERALL", p + " EndedBy", switch (r.end()) {
        case TIME_LIMIT -> "time limit";
        case NOTHING_WORKS -> "every operation failing";
        default -> "interrupt";
      });
    }
    Map<String, Histogram> totals = r.recorder().totals();
    for (OperationMetrics op : r.metrics().operations()) {
      String n = op.name();
      Histogram h = totals.get(n);
      line(s, n, "Operations", Long.toString(op.successes()));
      if (h != null && h.getTotalCount() > 0) {
        line(s, n, "AverageLatency(us)", String.format(Locale.ROOT, "%.1f", h.getMean()));
        line(s, n, "MinLatency(us)", Long.toString(h.getMinValue()));
        line(s, n, "MaxLatency(us)", Long.toString(h.getMaxValue()));
        line(s, n, "50thPercentileLatency(us)", Long.toString(h.getValueAtPercentile(50)));
        line(s, n, "95thPercentileLatency(us)", Long.toString(h.getValueAtPercentile(95)));
        line(s, n, "99thPercentileLatency(us)", Long.toString(h.getValueAtPercentile(99)));
        line(s, n, "99.9thPercentileLatency(us)", Long.toString(h.getValueAtPercentile(99.9)));
      }
      line(s, n, "Return=OK", Long.toString(op.successes()));
      op.errors().forEach((cls, count) -> line(s, n, "Return=" + cls, Long.toString(count)));
      line(s, n, "Retries", Long.toString(op.retries()));
    }
    Map<String, Histogram> batchTotals = r.recorder().batchTotals();
    for (OperationMetrics batch : r.metrics().batches()) {
      String n = batch.name() + "-BATCH";
      Histogram h = batchTotals.get(batch.name());
      line(s, n, "Operations", Long.toString(batch.successes()));
      line(s, n, "RowsPerBatch", String.format(Locale.ROOT, "%.1f",
          (double) r.metrics().operation(batch.name()).successes() / Math.max(1, batch.successes())));
      if (h != null && h.getTotalCount() > 0) {
        line(s, n, "AverageLatency(us)", String.format(Locale.ROOT, "%.1f", h.getMean()));
        line(s, n, "50thPercentileLatency(us)", Long.toString(h.getValueAtPercentile(50)));
        line(s, n, "99thPercentileLatency(us)", Long.toString(h.getValueAtPercentile(99)));
      }
    }
    return s.toString().stripTrailing();
  }

  private static void line(StringBuilder s, String op, String metric, String value) {
    s.append('[').append(op).append("], ").append(metric).append(", ").append(value).append('\n');
  }
}
