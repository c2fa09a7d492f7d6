package dev.ybbench.analysis.compare;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether the client machine itself moved between the two sides' runs, read from the probe each
 * run records as it ends (run.json's {@code probe}: the work all its cores do at once, the
 * loopback round trip). A candidate slower than its baseline while the machine's probe is slower
 * by as much may be the machine's dip rather than the build's: runs one after another cannot
 * tell them apart, runs interleaved with the baseline can (regress.sh).
 */
public final class MachineDrift {
  /** A probe that moved less than this is the probe's own noise. */
  static final double PROBE_NOISE_PCT = 3;

  private MachineDrift() {}

  /**
   * A line for each headline that got worse while the probe got worse by at least half as much
   * (and beyond its noise); none when the runs hold no probe.
   */
  public static List<String> notes(List<Comparison.Row> rows, RunGroup baseline, RunGroup candidate) {
    double cpu = change(baseline, candidate, "cpu_units_per_s");
    double rtt = change(baseline, candidate, "loopback_rtt_us");
    List<String> out = new ArrayList<>();
    if (Double.isNaN(cpu)) {
      return out;
    }
    for (Comparison.Row r : rows) {
      if (!r.headline() || !r.change().hasInterval() || r.verdict() == Verdict.NOT_COMPARABLE) {
        continue;
      }
      double worse = r.higherIsBetter() ? -r.change().change() : r.change().change();
      if (worse > 0 && -cpu >= PROBE_NOISE_PCT && -cpu >= worse / 2) {
        out.add(String.format(Locale.ROOT, "note: %s %s %+.1f %%, and the client machine moved too: its CPU probe "
            + "%+.1f %%%s in the candidate's runs against the baseline's; a machine slowdown during these runs cannot "
            + "be ruled out (runs interleaved with the baseline can: regress.sh)", r.key(), r.metric(),
            r.change().change(), cpu, Double.isNaN(rtt) ? "" : String.format(Locale.ROOT, ", loopback round trip "
            + "%+.1f %%", rtt)));
      }
    }
    return out;
  }

  /** The change of the median probe figure {@code field}, candidate against baseline, in %; NaN without both. */
  static double change(RunGroup baseline, RunGroup candidate, String field) {
    double b = median(baseline, field);
    double c = median(candidate, field);
    return Double.isNaN(b) || Double.isNaN(c) || b <= 0 ? Double.NaN : (c / b - 1) * 100;
  }

  private static double median(RunGroup side, String field) {
    Set<Path> seen = new HashSet<>(); // a run of several works (TPC-C) is one probe
    double[] v = side.runs().stream().filter(r -> seen.add(r.dir())).map(r -> r.info().path("probe").path(field))
        .filter(JsonNode::isNumber).mapToDouble(JsonNode::asDouble).sorted().toArray();
    if (v.length == 0) {
      return Double.NaN;
    }
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
