package dev.ybbench.analysis.compare;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunSummary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which runs the two sides compare: the phase of each run, the runs of each workload, the
 * refusal of runs whose parameters or machine differ, and whether the sides were interleaved
 * so that their runs pair by round.
 */
public final class RunMatching {
  private RunMatching() {}

  /** The phase compared: YCSB's run phase (else its load), TPC-C's measurement. */
  static String phase(RunSummary summary) {
    for (String p : List.of("execute", "run", "load")) {
      if (summary.phase(p) != null) {
        return p;
      }
    }
    return null;
  }

  /** A side's runs by "bench/workload", those without a compared phase left out. */
  public static Map<String, List<RunGroup.Run>> byWorkload(RunGroup side) {
    Map<String, List<RunGroup.Run>> m = new TreeMap<>();
    for (RunGroup.Run r : side.runs()) {
      if (r.phaseName() != null) {
        m.computeIfAbsent(r.bench() + "/" + r.workload(), k -> new ArrayList<>()).add(r);
      }
    }
    return m;
  }

  /**
   * Every run of a workload, on both sides, must have run with the same parameters, but for those
   * that may differ ({@link RunInfo#mayDifferBetweenRuns}): where and how to connect, which is not
   * what ran; the throughput cap, so that a throttled run can stand in for a slower release; and
   * which phases a run had (regress.sh --reuse-data loads in the first round only), since the
   * phase compared is the same.
   */
  public static void checkParameters(List<RunGroup.Run> baseline, List<RunGroup.Run> candidate) {
    RunGroup.Run ref = baseline.get(0);
    List<RunGroup.Run> all = new ArrayList<>(baseline);
    all.addAll(candidate);
    for (RunGroup.Run r : all) {
      TreeSet<String> names = new TreeSet<>();
      ref.info().path("parameters").fieldNames().forEachRemaining(names::add);
      r.info().path("parameters").fieldNames().forEachRemaining(names::add);
      for (String n : names) {
        if (RunInfo.mayDifferBetweenRuns(n)) {
          continue;
        }
        String a = ref.info().path("parameters").path(n).asText(null);
        String v = r.info().path("parameters").path(n).asText(null);
        if (!Objects.equals(a, v)) {
          throw new UserError("Refusing to compare " + r.workload() + ": parameter " + n + " is " + a + " in "
              + ref.dir().getFileName() + " but " + v + " in " + r.dir().getFileName());
        }
      }
    }
  }

  /** What must be the same for two runs to differ only by the release: the machine and the JDK. */
  private static final List<String> ENVIRONMENT = List.of("/host/name", "/host/cores", "/harness/jdk");

  /**
   * Refuses runs from different machines, core counts or JDKs: their difference would be the
   * environment's as much as the release's. Runs that do not record a field (older results) pass it.
   */
  public static void checkEnvironment(List<RunGroup.Run> baseline, List<RunGroup.Run> candidate) {
    RunGroup.Run ref = baseline.get(0);
    for (RunGroup.Run r : candidate) {
      for (String field : ENVIRONMENT) {
        String a = ref.info().at(field).asText(null);
        String v = r.info().at(field).asText(null);
        if (a != null && v != null && !a.equals(v)) {
          throw new UserError("Refusing to compare " + r.workload() + ": " + field.substring(1).replace('/', '.')
              + " is " + a + " in " + ref.dir().getFileName() + " but " + v + " in " + r.dir().getFileName()
              + "; a difference of machine is not one of release: compare runs from one machine, or pass "
              + "--allow-env-diff");
        }
      }
    }
  }

  public static List<RunGroup.Run> byStart(List<RunGroup.Run> runs) {
    return runs.stream().sorted(Comparator.comparing(RunGroup.Run::started)).toList();
  }

  /**
   * Whether the runs were interleaved (A B, B A, A B … as regress.sh runs them): in order of
   * start, every consecutive pair holds one run of each side. Then the i-th runs of the two
   * sides form round i, and what drifted between rounds cancels in their ratio.
   */
  public static boolean interleaved(List<RunGroup.Run> baseline, List<RunGroup.Run> candidate) {
    if (baseline.size() != candidate.size() || baseline.size() < 2) {
      return false;
    }
    List<RunGroup.Run> all = new ArrayList<>(baseline);
    all.addAll(candidate);
    all = byStart(all);
    for (int i = 0; i < all.size(); i += 2) {
      if (baseline.contains(all.get(i)) == baseline.contains(all.get(i + 1))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether every run of one side started before every run of the other: runs before and after an
   * upgrade of one cluster. A drift of the machine or cluster between the halves then moves the
   * candidate as a change of the release would.
   */
  public static boolean sequential(List<RunGroup.Run> baseline, List<RunGroup.Run> candidate) {
    if (baseline.isEmpty() || candidate.isEmpty()) {
      return false;
    }
    java.time.Instant lastBaseline = byStart(baseline).get(baseline.size() - 1).started();
    java.time.Instant firstCandidate = byStart(candidate).get(0).started();
    java.time.Instant lastCandidate = byStart(candidate).get(candidate.size() - 1).started();
    java.time.Instant firstBaseline = byStart(baseline).get(0).started();
    return lastBaseline.isBefore(firstCandidate) || lastCandidate.isBefore(firstBaseline);
  }
}
