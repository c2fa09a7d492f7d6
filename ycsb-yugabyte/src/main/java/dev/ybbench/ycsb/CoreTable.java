package dev.ybbench.ycsb;

import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.ycsb.client.YcsbPhase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The core sequence's last word: one table of its runs, a row per phase and operation, read from each summary.json. */
final class CoreTable {
  private CoreTable() {}

  /** A run of the sequence as it ended: its directory (null when none was made) and exit code. */
  record Done(String workload, Path dir, int exit) {}

  private static final String ROW = "%-10s %-5s %-11s %10s  %-17s %9s %9s %8s %7s";

  static List<String> lines(String api, List<Done> done, int planned) {
    List<String> out = new ArrayList<>();
    String server = done.stream().filter(d -> d.dir() != null).findFirst().map(d -> summary(d.dir()))
        .map(s -> s == null ? "" : " on " + s.server().product() + " " + s.server().version()).orElse("");
    out.add("YCSB core over " + api.toUpperCase(Locale.ROOT) + server + ": " + done.size() + " of " + planned
        + " runs");
    out.add(String.format(Locale.ROOT, ROW, "workload", "phase", "state", "ops/s", "operation", "p50 ms", "p99 ms",
        "errors", "aborts").stripTrailing());
    for (Done d : done) {
      RunSummary s = d.dir() == null ? null : summary(d.dir());
      if (s == null) {
        out.add(String.format(Locale.ROOT, ROW, d.workload(), "", "exit " + d.exit(), "", "", "", "", "", "")
            .stripTrailing());
        continue;
      }
      boolean firstOfRun = true;
      for (Map.Entry<String, PhaseResult> phase : s.phases().entrySet()) {
        if (phase.getKey().equals(YcsbPhase.WARMUP)) {
          continue; // not measured: the run's window follows it
        }
        PhaseResult p = phase.getValue();
        boolean firstOfPhase = true;
        for (Map.Entry<String, OperationResult> op : p.operations().entrySet()) {
          OperationResult r = op.getValue();
          out.add(String.format(Locale.ROOT, ROW, firstOfRun ? d.workload() : "", firstOfPhase ? phase.getKey() : "",
              firstOfRun ? s.state() : "", firstOfPhase ? String.format(Locale.ROOT, "%,.0f", p.throughputOps()) : "",
              op.getKey(), ms(r.latencyUs() == null ? null : r.latencyUs().p50()),
              ms(r.latencyUs() == null ? null : r.latencyUs().p99()), String.format(Locale.ROOT, "%,d", r.errors()),
              String.format(Locale.ROOT, "%,d", r.aborts())).stripTrailing());
          firstOfRun = false;
          firstOfPhase = false;
        }
      }
      if (firstOfRun) {
        out.add(String.format(Locale.ROOT, ROW, d.workload(), "", s.state(), "", "", "", "", "", "").stripTrailing());
      }
    }
    done.stream().filter(d -> d.dir() != null).forEach(d -> out.add("  " + d.workload() + ": " + d.dir()));
    return out;
  }

  private static String ms(Long us) {
    return us == null ? "-" : String.format(Locale.ROOT, "%.2f", us / 1000.0);
  }

  private static RunSummary summary(Path dir) {
    try {
      return RunSummary.read(dir);
    } catch (RuntimeException e) {
      return null; // a run that died before it wrote one
    }
  }
}
