package dev.ybbench.ycsb;

import dev.ybbench.harness.UserError;
import dev.ybbench.ycsb.cli.YcsbSettings;
import dev.ybbench.ycsb.workload.CoreWorkload64;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * The effective YCSB properties checked before anything starts: YCSB itself reads most of them
 * only once its threads start, after the server is up and the table loaded, and some bad values
 * do not fail at all (a record count of 0 loads without end, since 0 means "no limit" to a YCSB
 * thread). Each problem is one line naming the property and its value.
 */
final class WorkloadCheck {
  /** Whole numbers and the least each may be. */
  private static final Map<String, Long> AT_LEAST = new LinkedHashMap<>();

  static {
    AT_LEAST.put("recordcount", 1L);
    AT_LEAST.put("operationcount", 0L); // 0: until --duration ends the run
    AT_LEAST.put("insertstart", 0L);
    AT_LEAST.put("insertcount", 1L);
    AT_LEAST.put("fieldcount", 1L);
    AT_LEAST.put("fieldlength", 1L);
    AT_LEAST.put("minfieldlength", 1L);
    AT_LEAST.put("minscanlength", 1L);
    AT_LEAST.put("maxscanlength", 1L);
    AT_LEAST.put("zeropadding", 1L);
    AT_LEAST.put("threadcount", 1L);
    AT_LEAST.put(YcsbSettings.WARMUP, 0L);
    AT_LEAST.put("yb.split", 1L);
    AT_LEAST.put("yb.tablets", 0L);
    AT_LEAST.put("ysql.max_retries", 0L);
    AT_LEAST.put("ycql.max_retries", 0L);
    AT_LEAST.put("ycql.rf", 1L);
    AT_LEAST.put("ycql.connections_per_node", 1L);
    AT_LEAST.put("ycql.request_timeout_ms", 1L);
  }

  /** CoreWorkload's operation mix and its defaults (YCSB 0.17). */
  private static final Map<String, Double> MIX = new LinkedHashMap<>();

  static {
    MIX.put("readproportion", 0.95);
    MIX.put("updateproportion", 0.05);
    MIX.put("insertproportion", 0.0);
    MIX.put("scanproportion", 0.0);
    MIX.put("readmodifywriteproportion", 0.0);
  }

  /** Other fractions in [0, 1]. */
  private static final List<String> FRACTIONS = List.of("hotspotdatafraction", "hotspotopnfraction");

  private static final Map<String, List<String>> CHOICES = Map.of(
      "requestdistribution", List.of("uniform", "zipfian", "latest", "hotspot", "sequential", "exponential"),
      "insertorder", List.of("hashed", "ordered"),
      "fieldlengthdistribution", List.of("constant", "uniform", "zipfian", "histogram"),
      "scanlengthdistribution", List.of("uniform", "zipfian"));

  private WorkloadCheck() {}

  /**
   * Refuses bad values with a {@link UserError}.
   *
   * @param runs whether the workload's mix will run (not for a load alone)
   * @return notes for the user, e.g. the effective mix when the proportions do not sum to 1
   */
  static List<String> check(Properties p, boolean runs) {
    for (Map.Entry<String, Long> e : AT_LEAST.entrySet()) {
      long v = whole(p, e.getKey());
      // A sample app's 0 records are "none written before the run"; CoreWorkload would load 0 without end.
      long least = e.getKey().equals("recordcount") && !CoreWorkload64.isCore(p.getProperty("workload")) ? 0
          : e.getValue();
      if (v != Long.MIN_VALUE && v < least) {
        throw new UserError(e.getKey() + "=" + p.getProperty(e.getKey()).strip() + " must be at least " + least);
      }
    }
    long records = whole(p, "recordcount");
    long start = Math.max(0, whole(p, "insertstart"));
    long count = whole(p, "insertcount");
    if (records != Long.MIN_VALUE && count != Long.MIN_VALUE && start + count > records) {
      throw new UserError("insertstart=" + start + " plus insertcount=" + count + " exceeds recordcount=" + records
          + ": the slice to load must lie within the records");
    }
    if (whole(p, "minscanlength") > whole(p, "maxscanlength") && p.getProperty("maxscanlength") != null) {
      throw new UserError("minscanlength=" + p.getProperty("minscanlength") + " is above maxscanlength="
          + p.getProperty("maxscanlength"));
    }
    double targetOps = number(p, "target", 0);
    if (targetOps < 0) {
      throw new UserError("target=" + p.getProperty("target") + " cannot be negative; leave it out for no cap");
    }
    for (String f : FRACTIONS) {
      fraction(p, f, 0);
    }
    CHOICES.forEach((name, allowed) -> {
      String v = p.getProperty(name);
      if (v != null && !allowed.contains(v.strip())) {
        throw new UserError(name + "=" + v + " is not one of " + String.join(", ", allowed));
      }
    });
    List<String> notes = new ArrayList<>();
    Map<String, Double> mix = new LinkedHashMap<>();
    MIX.forEach((name, dflt) -> mix.put(name, fraction(p, name, dflt)));
    double sum = mix.values().stream().mapToDouble(Double::doubleValue).sum();
    if (runs && sum == 0) {
      throw new UserError("Every operation proportion is 0 (" + String.join(", ", MIX.keySet())
          + "): the run would do nothing");
    }
    if (runs && Math.abs(sum - 1) > 1e-9) {
      // YCSB draws operations by weight, so the proportions act as shares of their sum.
      notes.add(String.format(Locale.ROOT, "the operation proportions sum to %s, not 1; YCSB draws by weight, so the "
          + "effective mix is %s", trim(sum), mix.entrySet().stream().filter(e -> e.getValue() > 0)
          .map(e -> e.getKey().replace("proportion", "") + " " + trim(100 * e.getValue() / sum) + " %")
          .collect(Collectors.joining(", "))));
    }
    return notes;
  }

  /** The property as a whole number, or Long.MIN_VALUE when it is not set. */
  private static long whole(Properties p, String name) {
    String v = p.getProperty(name);
    if (v == null || v.isBlank()) {
      return Long.MIN_VALUE;
    }
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new UserError(name + "=" + v.strip() + " is not a whole number");
    }
  }

  private static double number(Properties p, String name, double dflt) {
    String v = p.getProperty(name);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    try {
      double d = Double.parseDouble(v.strip());
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      throw new UserError(name + "=" + v.strip() + " is not a number");
    }
  }

  private static double fraction(Properties p, String name, double dflt) {
    double d = number(p, name, dflt);
    if (d < 0 || d > 1) {
      throw new UserError(name + "=" + p.getProperty(name).strip() + " must lie between 0 and 1");
    }
    return d;
  }

  private static String trim(double v) {
    String s = String.format(Locale.ROOT, "%.3f", v).replaceFirst("\\.?0+$", "");
    return s.isEmpty() ? "0" : s;
  }
}
