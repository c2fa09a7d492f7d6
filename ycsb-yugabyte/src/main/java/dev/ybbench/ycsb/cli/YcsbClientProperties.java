package dev.ybbench.ycsb.cli;

import static dev.ybbench.ycsb.cli.YcsbSettings.EXPORTER;
import static dev.ybbench.ycsb.cli.YcsbSettings.EXPORTERS;

import dev.ybbench.harness.UserError;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * YCSB's own client properties beyond those that stand for flags: honoured (the status line's
 * interval, the final report's percentiles and export file), satisfied already (status lines and
 * HdrHistogram are always on, latency is recorded from both starts), or refused.
 */
final class YcsbClientProperties {
  /** YCSB's client properties that ask for what ybbench always does: taken, read by nothing else. */
  static final List<String> SATISFIED = List.of("threadcount", "status", "measurementtype", "measurement.interval",
      "hdrhistogram.fileoutput", "measurement.trackjvm", "spin.sleep");

  private YcsbClientProperties() {}

  /**
   * Refuses each of YCSB's client properties in {@code props} that ybbench cannot honour, in the
   * order of their names; {@code refused} makes the error from the property's name and why.
   */
  static void check(Properties props, BiFunction<String, String, UserError> refused) {
    for (String name : new TreeSet<>(props.stringPropertyNames())) {
      String v = props.getProperty(name).strip();
      String refusal = switch (name) {
        case "status" -> { // YCSB's -s: ybbench prints a status line whether asked or not
          bool(name, v, refused);
          yield null;
        }
        case "measurementtype" -> v.equals("hdrhistogram") ? null : "ybbench records every operation in HdrHistogram "
            + "(latency/*.hlog) and per second in timeseries.csv; measurementtype=" + v + " is not one of its outputs";
        case "measurement.interval" -> List.of("op", "intended", "both").contains(v) ? null
            : "measurement.interval takes op, intended or both";
        case "hdrhistogram.fileoutput" -> null; // latency/*.hlog is always written
        case "hdrhistogram.output.path" -> "the HdrHistogram logs are the run directory's latency/*.hlog; "
            + "leave hdrhistogram.output.path out";
        case "measurement.trackjvm" -> bool(name, v, refused) ? "ybbench reports its client's CPU and peak memory "
            + "(summary.json client), not YCSB's JVM statistics; leave measurement.trackjvm out" : null;
        case "histogram.buckets", "timeseries.granularity", "measurement.raw.output_file",
            "measurement.raw.no_summary" -> name + " belongs to a measurementtype ybbench does not have "
            + "(it records HdrHistogram and timeseries.csv); leave it out";
        case "reportlatencyforeacherror", "latencytrackederrors" -> "ybbench counts errors by class (summary.json "
            + "errors_by_class) and records the latency of successes only; leave " + name + " out";
        case "spin.sleep" -> bool(name, v, refused) ? "ybbench's threads wait for the target schedule by parking, "
            + "not spinning; leave spin.sleep out" : null;
        case EXPORTER -> EXPORTERS.contains(v) ? null : "exporter takes one of " + String.join(", ", EXPORTERS);
        default -> name.startsWith("htrace.") ? "ybbench does not trace with HTrace; leave " + name + " out" : null;
      };
      if (refusal != null) {
        throw refused.apply(name, refusal);
      }
    }
  }

  private static boolean bool(String name, String v, BiFunction<String, String, UserError> refused) {
    if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      throw refused.apply(name, "give true or false");
    }
    return Boolean.parseBoolean(v);
  }
}
