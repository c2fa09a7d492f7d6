package dev.ybbench.analysis.report;

import static dev.ybbench.analysis.report.ReportFormat.change;
import static dev.ybbench.analysis.report.ReportFormat.confidence;
import static dev.ybbench.analysis.report.ReportFormat.interval;

import dev.ybbench.analysis.compare.Comparison;
import dev.ybbench.analysis.compare.Verdict;
import dev.ybbench.analysis.stats.RunsToDecide;
import dev.ybbench.analysis.stats.Statistics;
import dev.ybbench.analysis.where.LayerComparison;
import dev.ybbench.harness.results.PhaseResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The answer a comparison leads with: one line per headline, regressions first, saying the change,
 * its interval, and where the change lives or what would decide it; then one line per row flagged
 * suspect, and a note per workload whose latency rows were not tested.
 */
public final class VerdictLines {
  private final Comparison.Result result;
  private final Map<String, LayerComparison.Workload> traced;
  private final double threshold;

  VerdictLines(Comparison.Result result, Map<String, LayerComparison.Workload> traced, double threshold) {
    this.result = result;
    this.traced = traced;
    this.threshold = threshold;
  }

  /** Regressions first, then what is undecided, then improvements, then no change. */
  private static final List<Verdict> ORDER = List.of(Verdict.REGRESSION, Verdict.NOT_COMPARABLE, Verdict.INCONCLUSIVE,
      Verdict.IMPROVEMENT, Verdict.NO_CHANGE);

  private List<Comparison.Row> headlines() {
    return result.rows().stream().filter(Comparison.Row::headline)
        .sorted(Comparator.comparingInt(r -> ORDER.indexOf(r.verdict()))).toList();
  }

  private List<Comparison.Row> suspects() {
    return result.rows().stream().filter(r -> r.verdict() == Verdict.SUSPECT).toList();
  }

  /** The rows the lines are about, in their order: the headlines, then the suspect rows. */
  List<Comparison.Row> rows() {
    List<Comparison.Row> rows = new ArrayList<>(headlines());
    rows.addAll(suspects());
    return rows;
  }

  /** The answer: one line per headline, then one per suspect row. */
  List<String> lines() {
    List<String> out = new ArrayList<>();
    for (Comparison.Row r : headlines()) {
      String where = traced(r) ? " — where: " + traced.get(r.key()).clause() : "";
      out.add(String.format(Locale.ROOT, "%-12s %s%s", r.verdict().toString().toUpperCase(Locale.ROOT), describe(r),
          where));
    }
    for (Comparison.Row r : suspects()) {
      out.add(String.format(Locale.ROOT, "%-12s %s (q %.3f; does not gate)", "suspect", describe(r), r.q()));
    }
    return out;
  }

  /**
   * Whether a headline's line says where its change lives: when it changed or is undecided, a row
   * of its workload was flagged, or a layer changed beneath a headline that did not (a statement
   * 25 times slower in a mix whose tpmC held).
   */
  private boolean traced(Comparison.Row headline) {
    LayerComparison.Workload where = traced.get(headline.key());
    return where != null && (headline.verdict() != Verdict.NO_CHANGE && headline.verdict() != Verdict.NOT_COMPARABLE
        || where.named() || suspects().stream().anyMatch(s -> s.key().equals(headline.key())));
  }

  /** One line per workload whose latency rows were not tested, saying why. */
  List<String> notes() {
    Map<String, String> notes = new LinkedHashMap<>();
    for (Comparison.Row r : result.rows()) {
      if (r.verdict() == Verdict.NOT_COMPARABLE && !r.headline()) {
        notes.putIfAbsent(r.key(), "note: " + r.key() + " latency rows " + r.note());
      }
    }
    return List.copyOf(notes.values());
  }

  /** "ycsb/workloada throughput (ops/s) -12.3 % (95 % interval -18.0 % … -6.2 %; 5 rounds, paired)". */
  private String describe(Comparison.Row r) {
    Statistics.Change c = r.change();
    StringBuilder s = new StringBuilder(r.key()).append(r.operation().equals("ALL") ? "" : " " + r.operation())
        .append(' ').append(r.metric())
        .append(r.latency() && !r.origin().equals(PhaseResult.ACTUAL_START) ? " from the " + r.origin() : "")
        .append(' ').append(change(c));
    if (r.verdict() == Verdict.NOT_COMPARABLE) {
      return s.append(" (").append(r.note()).append(')').toString();
    }
    if (c.hasInterval() && r.verdict() == Verdict.NO_CHANGE) {
      double[] tost = c.intervalAt(2 * c.confidence() - 1);
      s.append(String.format(Locale.ROOT, " (within ±%s: %s interval %s, two one-sided tests; %s)",
          c.scale() == Statistics.Scale.RATIO ? threshold + " %" : Comparison.ERROR_MARGIN_PP + " pp",
          confidence(2 * c.confidence() - 1), interval(c.scale(), tost[0], tost[1]), runs(c)));
    } else if (c.hasInterval()) {
      s.append(" (").append(confidence(c.confidence())).append(" interval ").append(interval(c)).append("; ")
          .append(runs(c)).append(')');
    } else {
      s.append(" (").append(runs(c)).append(", no interval: ")
          .append(c.baselineRuns() == 1 && c.candidateRuns() == 1 ? "one run a side says nothing of how runs differ"
              : "a value of zero").append(')');
    }
    if (r.setAside() != null) {
      s.append("; set aside as disturbed, far from the others: ").append(r.setAside());
    }
    if (r.note() != null) {
      s.append("; ").append(r.note());
    }
    String single = whatDecidesSingleRuns(r, threshold);
    if (single != null) {
      s.append("; ").append(single);
    } else if (r.roundsToDecide() != null) {
      int now = (int) Math.ceil(c.effectiveRounds());
      double noisePct = Math.expm1(c.se() * Math.sqrt(c.effectiveRounds())) * 100;
      s.append(r.roundsToDecide() >= Comparison.MAX_ROUNDS
          ? String.format(Locale.ROOT, "; the noise seen (%.1f %% per round) would take more than %d rounds to "
              + "decide a %.1f %% change", noisePct, Comparison.MAX_ROUNDS, threshold)
          : String.format(Locale.ROOT, "; about %d more round%s (%d in all) would likely decide a %.1f %% change at "
              + "the noise seen (%.1f %% per round)", Math.max(1, r.roundsToDecide() - now),
              r.roundsToDecide() - now == 1 ? "" : "s", Math.max(r.roundsToDecide(), now + 1), threshold, noisePct));
    }
    return s.toString();
  }

  /**
   * What would decide an undecided headline of single runs — one run a side, or one run against
   * its history — where more rounds are not the answer; null for any other row.
   */
  public static String whatDecidesSingleRuns(Comparison.Row r, double threshold) {
    Statistics.Change c = r.change();
    if (r.roundsToDecide() == null) {
      return null;
    }
    return RunsToDecide.runsUnknown(c) ? undecidedSingleRuns(c, r.roundsToDecide(), threshold)
        : RunsToDecide.oneAgainstSeveral(c) ? undecidedAgainstSeveral(c, r.roundsToDecide(), threshold) : null;
  }

  /**
   * What would decide a comparison of one run a side: "at least 2 more runs a side, or a history
   * of 6 runs of this key, would decide a 5.0 % change (runs differ at least by their own seconds'
   * 1.2 %)"; at least, since runs differ by more than their own seconds say.
   */
  static String undecidedSingleRuns(Statistics.Change c, int runsInAll, double threshold) {
    int history = RunsToDecide.history(c, threshold, Comparison.MAX_ROUNDS);
    if (c.se() == 0) {
      return String.format(Locale.ROOT, "at least %d more runs a side, or a history of at least %d runs of this key, "
          + "would decide (these runs are too short to say how noisy they are)", Statistics.FLOORLESS - 1, history);
    }
    double perRunPct = Math.expm1(c.se() / Math.sqrt(2)) * 100;
    if (runsInAll >= Comparison.MAX_ROUNDS) {
      return String.format(Locale.ROOT, "runs that vary by their own seconds' %.1f %% alone would take more than %d "
          + "a side to decide a %.1f %% change", perRunPct, Comparison.MAX_ROUNDS, threshold);
    }
    int more = Math.max(1, runsInAll - 1);
    return String.format(Locale.ROOT, "at least %d more run%s a side%s would decide a %.1f %% change (runs differ "
            + "at least by their own seconds' %.1f %%)", more, more == 1 ? "" : "s",
        history >= Comparison.MAX_ROUNDS ? "" : ", or a history of " + history + " runs of this key", threshold,
        perRunPct);
  }

  /**
   * What would decide one run judged against several (its history): "against these 8 runs one run
   * is decided beyond −11.8 % or +13.4 % (they differ by 5.1 %); about 3 runs of the candidate
   * would likely decide a 5.0 % change".
   */
  static String undecidedAgainstSeveral(Statistics.Change c, int candidateRuns, double threshold) {
    int n = c.baselineRuns();
    double[] beyond = RunsToDecide.decidedBeyond(c);
    double spreadPct = Math.expm1(c.se() / Math.sqrt(1 + 1.0 / n)) * 100;
    String then = candidateRuns >= Comparison.MAX_ROUNDS
        ? String.format(Locale.ROOT, "no number of candidate runs would decide a %.1f %% change against them: more "
            + "runs in the history, or steadier ones, would", threshold)
        : String.format(Locale.ROOT, "about %d runs of the candidate would likely decide a %.1f %% change",
            candidateRuns, threshold);
    return String.format(Locale.ROOT, "against these %d runs one run is decided beyond %+.1f %% or %+.1f %% (they "
        + "differ by %.1f %%); %s", n, beyond[0], beyond[1], spreadPct, then);
  }

  private static String runs(Statistics.Change c) {
    if (c.paired()) {
      return c.baselineRuns() + " rounds, paired";
    }
    return c.baselineRuns() == c.candidateRuns() ? c.baselineRuns() + " run" + (c.baselineRuns() == 1 ? "" : "s")
        + " a side" : c.baselineRuns() + " vs " + c.candidateRuns() + " runs";
  }
}
