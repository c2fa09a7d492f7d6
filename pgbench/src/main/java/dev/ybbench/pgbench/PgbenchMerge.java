package dev.ybbench.pgbench;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.merge.PhaseMerge;
import dev.ybbench.harness.merge.RunMerge;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.pgbench.engine.PgbenchResults;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * One result for pgbench clients that ran the same scripts at once against the same tables
 * ({@code --clients N}): each script's transactions, failures and retries add up, and its latency
 * is the clients' per-second histograms added together, which is exact, second by second too
 * ({@link PhaseMerge}); the server's audit is over every client's statements, from the first
 * client's start to the last one's end. Only complete runs of the same scripts and options, as
 * many as they say ran, are merged.
 */
final class PgbenchMerge {
  private PgbenchMerge() {}

  /** What each client sets for itself: its sessions and threads. */
  private static final Pattern OWN = Pattern.compile("sessions|jobs");

  static Path merge(List<Path> runs, Path resultsRoot, Consumer<String> warn, BooleanSupplier stop)
      throws IOException {
    List<RunMerge.Part> parts = RunMerge.read(runs, Pgbench.NAME, OWN);
    for (RunMerge.Part p : parts) {
      String clients = p.parameter("clients");
      if (!Integer.toString(parts.size()).equals(clients)) {
        throw new UserError("Cannot merge " + p.dir() + ": it ran as one of " + clients + " clients (--clients), and "
            + parts.size() + " runs are given; give every client's run once");
      }
    }
    RunSummary first = parts.get(0).summary();
    RunSummary summary = RunSummary.start(Pgbench.NAME, first.workload() + "-merged", first.server().info());
    Map<String, PhaseMerge.Merged> merged = new LinkedHashMap<>();
    for (Map.Entry<String, PhaseMerge.Merged> e : RunMerge.phases(parts, stop).entrySet()) {
      String name = e.getKey();
      PhaseResult m = e.getValue().phase();
      long onTables = 0;
      boolean audited = true;
      for (RunMerge.Part p : parts) {
        Long n = p.summary().phase(name).auditedStatements();
        audited &= n != null;
        onTables += n == null ? 0 : n;
      }
      PhaseResult phase = m.toBuilder().auditedStatements(audited ? onTables : null)
          .headline(new PhaseResult.Figure("tps", "tps", m.throughputOps(), true, null))
          .extension(PgbenchResults.KEY, figures(parts, name)).build();
      merged.put(name, e.getValue().withPhase(phase));
      summary = summary.withPhase(name, phase);
    }
    if (!merged.containsKey("run")) {
      throw new UserError(runs.get(0) + " holds no measured pgbench run to merge (an -i is one client's)");
    }
    Map<String, String> params = new LinkedHashMap<>();
    for (String p : new String[] {"sessions", "jobs"}) {
      params.put(p, Integer.toString(parts.stream().mapToInt(r -> Integer.parseInt(r.parameter(p))).sum()));
    }
    return RunMerge.write(parts, resultsRoot, summary, merged, OWN, params, warn, stop);
  }

  /** pgbench's own figures over the clients: counts added up, the scripts as the first client ran them. */
  private static PgbenchResults.Figures figures(List<RunMerge.Part> parts, String phase) {
    long processed = 0;
    double tps = 0;
    long skipped = 0;
    long late = 0;
    long retried = 0;
    long cut = 0;
    List<Map<String, Object>> scripts = null;
    for (RunMerge.Part p : parts) {
      PgbenchResults.Figures f = p.summary().phase(phase).extension(PgbenchResults.KEY, PgbenchResults.Figures.class);
      if (f == null) {
        throw new UserError("Cannot merge " + p.dir() + ": its " + phase + " phase has no pgbench figures");
      }
      processed += f.processed();
      tps += f.tps();
      skipped += f.skipped();
      late = late < 0 || f.late() < 0 ? -1 : late + f.late();
      retried += f.retried();
      cut += f.logLinesCut();
      scripts = scripts == null ? f.scripts() : scripts;
    }
    return new PgbenchResults.Figures(processed, PhaseResult.round(tps), skipped, late, retried, scripts, cut);
  }

  /** The merged run's checks, a line each per phase: its totals, and the server's statements against the clients'. */
  static boolean audit(Path merged, Consumer<String> out) throws IOException {
    boolean ok = true;
    for (Map.Entry<String, PhaseResult> e : RunSummary.read(merged).phases().entrySet()) {
      PhaseResult p = e.getValue();
      out.accept(String.format(Locale.ROOT, "[%s] %d transactions, %d failed, %d retries, %.1f tps over %.1f s",
          e.getKey(), p.successes(), p.aborts() + p.errors(), p.retries(), p.throughputOps(), p.durationS()));
      ok &= RunMerge.audited(e.getKey(), p, false, "statements", out);
    }
    return ok;
  }
}
