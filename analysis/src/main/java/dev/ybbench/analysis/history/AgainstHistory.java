package dev.ybbench.analysis.history;

import dev.ybbench.analysis.compare.ComparedMetrics;
import dev.ybbench.analysis.compare.RunMatching;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.stats.ChangePoints;
import dev.ybbench.analysis.stats.RunsToDecide;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.RunInfo;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The baseline of a candidate judged against its history ({@code compare.sh --history DB
 * CANDIDATE}): for each workload of the candidate, the last runs of its key that ended complete
 * before it, on the same machine, core count and JDK, since the key's last change point (a level
 * the series has left is not the level to judge against). Their spread is how runs of that key
 * differ from each other — the upper level of the comparison's model, which a single run cannot
 * know — so one candidate run is judged against it as a prediction.
 *
 * <p>A level the last few runs share (a machine that slowed three nights ago, or a build that
 * sped up) is followed at once rather than after five runs beside it: when those runs sit apart
 * from the ones before them ({@link ChangePoints#tailShift}), the candidate is judged against
 * their level, with the spread of all the runs each around its own level. A candidate is thus
 * compared with the level the machine is at; the interval is wider (two or three runs say the
 * level), never shifted.
 */
public final class AgainstHistory {
  /** A history's change points are kept at this level (fewer false alarms than a series of releases). */
  public static final double ALPHA = 0.01;

  /**
   * The baseline side, and lines that say what it is made of.
   *
   * @param earlierLevel the side's runs (directories) at the level before a recent shift: they
   *                     count for the spread, not for the level ({@link
   *                     dev.ybbench.analysis.compare.Comparison.Options#earlierLevel})
   */
  public record Baseline(RunGroup side, List<String> notes, Set<Path> earlierLevel) {}

  private AgainstHistory() {}

  /**
   * @param last         at most this many runs of each key, the most recent
   * @param allowEnvDiff take runs from other machines, core counts and JDKs too
   */
  public static Baseline of(HistoryStore store, RunGroup candidate, int last, boolean allowEnvDiff) {
    List<RunGroup.Run> runs = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Set<Path> earlierLevel = new HashSet<>();
    Set<String> own = new LinkedHashSet<>();
    candidate.runs().forEach(r -> own.add(r.dir().getFileName().toString()));
    Instant first = candidate.runs().stream().map(RunGroup.Run::started).min(Comparator.naturalOrder()).orElseThrow();
    for (var byWorkload : RunMatching.byWorkload(candidate).entrySet()) {
      RunGroup.Run c = byWorkload.getValue().get(0);
      String key = HistoryRuns.key(c);
      List<HistoryStore.Entry> all = store.entries(key);
      List<RunGroup.Run> before = new ArrayList<>();
      int otherMachines = 0;
      for (HistoryStore.Entry e : all) {
        if (own.contains(e.runId()) || !RunInfo.COMPLETE.equals(e.state()) || !e.started().isBefore(first)) {
          continue;
        }
        if (!allowEnvDiff && !e.client().matches(HistoryRuns.client(c.info()))) {
          otherMachines++;
          continue;
        }
        before.add(HistoryRuns.run(e));
      }
      List<RunGroup.Run> recent = before.subList(Math.max(0, before.size() - last), before.size());
      String since = "";
      int cut = lastChangePoint(recent, key);
      if (cut > 0) {
        since = String.format(Locale.ROOT, ", since its change point between %s and %s (%d earlier left out)",
            build(recent.get(cut - 1)), build(recent.get(cut)), cut);
        recent = recent.subList(cut, recent.size());
      }
      int tail = recentShift(recent);
      String shifted = null;
      if (tail > 0) {
        double[] logs = logs(recent);
        double shift = Math.expm1(mean(logs, tail, logs.length) - mean(logs, 0, tail)) * 100;
        recent.subList(0, tail).forEach(r -> earlierLevel.add(r.dir()));
        shifted = String.format(Locale.ROOT, "history: %s's last %d runs sit %+.1f %% from the %d before them, a "
            + "shift too recent for a change point: judged against the level of those %d, with the spread of all "
            + "%d runs each around its own level", key, recent.size() - tail, shift, tail, recent.size() - tail,
            recent.size());
      }
      if (recent.isEmpty()) {
        throw new UserError("The history " + store.shown() + " has no complete run of " + key + " before "
            + c.dir().getFileName() + (otherMachines > 0 ? " on this machine (" + otherMachines + " from other "
            + "machines, core counts or JDKs: --allow-env-diff takes them)" : "") + "; record runs of it first "
            + "(--history on the runner, or history.sh import)");
      }
      notes.add(String.format(Locale.ROOT, "history: %s, %d run%s from %s to %s (%s)%s%s", key, recent.size(),
          recent.size() == 1 ? "" : "s", recent.get(0).started().toString().substring(0, 10),
          recent.get(recent.size() - 1).started().toString().substring(0, 10), builds(recent), since,
          otherMachines > 0 ? "; " + otherMachines + " from other machines left out" : ""));
      if (shifted != null) {
        notes.add(shifted);
      }
      runs.addAll(recent);
    }
    return new Baseline(new RunGroup("history", runs), notes, earlierLevel);
  }

  /**
   * The index of the first of the series' last 2 to {@link RunsToDecide#MIN_HISTORY} − 1 runs when
   * they share a shift from the runs before them (too few yet for a change point), or 0.
   */
  static int recentShift(List<RunGroup.Run> runs) {
    return ChangePoints.tailShift(logs(runs), RunsToDecide.MIN_HISTORY, RunsToDecide.MIN_HISTORY - 1, ALPHA);
  }

  private static double[] logs(List<RunGroup.Run> runs) {
    return runs.stream().mapToDouble(r -> Math.log(ComparedMetrics.headline(r).value())).toArray();
  }

  private static double mean(double[] v, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += v[i];
    }
    return sum / (to - from);
  }

  /** The index of the first run after the series' last change point, or 0. */
  static int lastChangePoint(List<RunGroup.Run> runs, String key) {
    if (runs.size() < 2 * RunsToDecide.MIN_HISTORY) {
      return 0;  // too short to tell a shift from noise
    }
    double[] logs = logs(runs);
    boolean[] allowed = new boolean[logs.length];
    // Each level keeps enough runs to be judged against.
    for (int i = RunsToDecide.MIN_HISTORY; i <= logs.length - RunsToDecide.MIN_HISTORY; i++) {
      allowed[i] = true;
    }
    List<Integer> cuts = ChangePoints.find(logs, allowed, key.hashCode(), ALPHA);
    return cuts.isEmpty() ? 0 : cuts.get(cuts.size() - 1);
  }

  private static String build(RunGroup.Run r) {
    return r.info().at("/server/version").asText() + " (" + r.dir().getFileName() + ")";
  }

  /** "builds 17.9 … 17.11" or "build 17.11". */
  private static String builds(List<RunGroup.Run> runs) {
    List<String> v = runs.stream().map(r -> r.info().at("/server/version").asText()).distinct().toList();
    return v.size() == 1 ? "build " + v.get(0) : "builds " + v.get(0) + " … " + v.get(v.size() - 1);
  }
}
