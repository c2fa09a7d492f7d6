package dev.ybbench.analysis.history;

import dev.ybbench.analysis.stats.ChangePoints;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.RunInfo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A key's series in the history and its change points ({@code compare.sh --history DB --key K}):
 * E-divisive means over the headline of every complete run of the key on the machine of its last
 * run, each change point kept at {@link AgainstHistory#ALPHA} by the permutation test, with the
 * builds on either side, the level before and after, and whether the last run is one.
 */
public final class HistoryTrend {
  /**
   * A shift of the series.
   *
   * @param index the first run after it
   */
  public record Shift(int index, HistoryStore.Entry before, HistoryStore.Entry after, double changePct) {}

  /** A key's complete runs on one machine, in order, and the shifts found in them. */
  public record Trend(String key, String metric, List<HistoryStore.Entry> runs, List<Shift> shifts) {}

  private HistoryTrend() {}

  /** The key a user named: a key exactly, or a workload ("ycsb/workloadc") that one key has. */
  public static String resolve(HistoryStore store, String named) {
    Map<String, List<HistoryStore.Entry>> keys = store.keys();
    if (keys.containsKey(named)) {
      return named;
    }
    List<String> matching = keys.keySet().stream().filter(k -> k.startsWith(named + "@")).toList();
    if (matching.size() == 1) {
      return matching.get(0);
    }
    if (matching.isEmpty()) {
      throw new UserError("The history " + store.shown() + " has no key " + named + (keys.isEmpty() ? " (it is empty)"
          : "; its keys: " + String.join(", ", keys.keySet())));
    }
    throw new UserError(named + " has several keys in the history " + store.shown() + " (its runs differ in "
        + "parameters): name one of " + String.join(", ", matching) + " (history.sh list shows what each is)");
  }

  /** The trend of a key: its complete runs on the machine of its last run. */
  public static Trend of(HistoryStore store, String named) {
    String key = resolve(store, named);
    List<HistoryStore.Entry> complete = store.entries(key).stream()
        .filter(e -> RunInfo.COMPLETE.equals(e.state()) && e.headline() != null && e.headline() > 0).toList();
    if (complete.isEmpty()) {
      return new Trend(key, null, List.of(), List.of());
    }
    HistoryStore.Entry last = complete.get(complete.size() - 1);
    List<HistoryStore.Entry> runs = complete.stream().filter(e -> e.client().matches(last.client())).toList();
    double[] logs = runs.stream().mapToDouble(e -> Math.log(e.headline())).toArray();
    boolean[] allowed = new boolean[logs.length];
    Arrays.fill(allowed, true);
    List<Integer> cuts = ChangePoints.find(logs, allowed, key.hashCode(), AgainstHistory.ALPHA);
    List<Shift> shifts = new ArrayList<>();
    for (int k = 0; k < cuts.size(); k++) {
      int cut = cuts.get(k);
      shifts.add(new Shift(cut, runs.get(cut - 1), runs.get(cut), ChangePoints.changePct(logs, cuts, k)));
    }
    return new Trend(key, last.headlineMetric(), runs, shifts);
  }

  /** The trend as lines for the terminal. */
  public static List<String> lines(HistoryStore store, String named, double threshold) {
    Trend t = of(store, named);
    List<String> out = new ArrayList<>();
    if (t.runs().isEmpty()) {
      out.add(t.key() + ": no complete run in the history " + store.shown());
      return out;
    }
    HistoryStore.Entry first = t.runs().get(0);
    HistoryStore.Entry last = t.runs().get(t.runs().size() - 1);
    out.add(String.format(Locale.ROOT, "%s %s: %d runs from %s (%s) to %s (%s) on %s", t.key(), t.metric(),
        t.runs().size(), day(first), first.serverVersion(), day(last), last.serverVersion(), last.clientHost()));
    if (t.shifts().isEmpty()) {
      out.add(String.format(Locale.ROOT, "  no change point (E-divisive means, permutation test at %.0f %%)",
          AgainstHistory.ALPHA * 100));
    }
    for (Shift s : t.shifts()) {
      out.add(String.format(Locale.ROOT, "  change point %+.1f %%%s between %s (%s, %s) and %s (%s, %s)",
          s.changePct(), Math.abs(s.changePct()) < threshold ? String.format(Locale.ROOT, " (within ±%.1f %%)",
              threshold) : "", s.before().serverVersion(), s.before().runId(), day(s.before()),
          s.after().serverVersion(), s.after().runId(), day(s.after())));
    }
    boolean lastIsOne = !t.shifts().isEmpty()
        && t.shifts().get(t.shifts().size() - 1).index() == t.runs().size() - 1;
    out.add("  last run " + last.runId() + " (" + last.serverVersion() + "): " + (lastIsOne ? "a change point"
        : "not a change point") + "; to judge it against the runs before it: compare.sh --history " + store.shown()
        + " " + (last.resultsPath() != null ? last.resultsPath() : last.runId()));
    return out;
  }

  private static String day(HistoryStore.Entry e) {
    return e.started().toString().substring(0, 10);
  }
}
