package dev.ybbench.harness.run;

import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.results.NodeRates;
import dev.ybbench.harness.server.AuditedTables;
import dev.ybbench.harness.server.StatementPlans;
import dev.ybbench.harness.server.ServerReport;
import dev.ybbench.harness.server.ServerSampler;
import dev.ybbench.harness.server.ServerView;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A run in progress, as a benchmark's phases see it: where to print and write, whether Ctrl-C
 * arrived, and where each phase's result goes. {@link #record} is also where a phase that cannot
 * stand ends the run.
 */
public final class Run {
  private final RunLifecycle lifecycle;
  private final boolean servedLive;
  private final RunDirectory directory;
  private final Timeseries timeseries;
  private final PhaseCheck.Limits limits;
  private final List<String> measuredPhases = new ArrayList<>();
  private volatile RunSummary summary;
  private final ServerSampler server;
  private ServerReport serverReport;
  /** plans.json's phases so far. */
  private final Map<String, List<StatementPlans.StatementPlan>> plans = new LinkedHashMap<>();
  private final Map<String, ServerView.Snapshot> before = new HashMap<>();
  private final Map<String, ClientCost> clientBefore = new HashMap<>();
  private AuditedTables auditTable;
  /** The benchmark's statement texts and the operations issuing each, where it says. */
  private Map<String, ? extends Collection<String>> issuedBy = Map.of();
  private int clients = 1;
  /** Node lines printed per phase; a hundred-node cluster's others are in server.json. */
  private static final int MAX_NODE_LINES = 12;

  Run(RunLifecycle lifecycle, RunDirectory directory, Timeseries timeseries, PhaseCheck.Limits limits,
      RunSummary summary, ServerSampler server, boolean servedLive) {
    this.servedLive = servedLive;
    this.lifecycle = lifecycle;
    this.directory = directory;
    this.timeseries = timeseries;
    this.limits = limits;
    this.summary = summary;
    this.server = server;
  }

  /**
   * The table whose statements the server's counts are audited against the harness's (YCSB's
   * usertable); without one the server's counters are recorded but not audited. When {@code
   * clients} above 1 share the table, the server counts every client's statements, so this
   * client's share is not audited here but in the merged run.
   */
  public void auditTable(String table, int clients) {
    auditTables(AuditedTables.of(table), clients);
  }

  /**
   * The phase about to be recorded cannot be audited after all: which of its statements completed
   * is not known (a tool's transactions failed part-way, and it does not say where). The server's
   * counters are recorded; the console says why they are not audited.
   */
  public void notAudited(String why) {
    console().line("note: " + why + ": the server's count of statements on " + auditTable + " is not audited");
    this.auditTable = null;
  }

  /** As {@link #auditTable}, over several tables (sysbench's). */
  public void auditTables(AuditedTables tables, int clients) {
    this.auditTable = tables;
    this.clients = clients;
  }

  /**
   * Which operations issue each statement the benchmark sends (its text as the client sends it),
   * read when a phase ends, so that the phase's statements in summary.json say whose they are.
   */
  public void statementsIssuedBy(Map<String, ? extends Collection<String>> textToOperations) {
    this.issuedBy = textToOperations;
  }

  /**
   * A phase's measured window starts: the server's counters and the client's CPU now are its
   * starting point (before its clients start).
   */
  public void beginPhase(String phase) {
    beginPhase(phase, () -> {});
  }

  /**
   * A phase's measured window starts, {@code counting} (which opens the client's window) run at the
   * instant the server's counts are read, and the client's CPU read then too; after the snapshot
   * when the view reads none. Where the clients already run (a warm-up ends), both sides thus count
   * the same operations, and the snapshot's work before that instant is the warm-up's.
   */
  public void beginPhase(String phase, Runnable counting) {
    boolean[] counted = {false};
    Runnable now = () -> {
      if (!counted[0]) {
        counted[0] = true;
        clientBefore.put(phase, ClientCost.start());
        counting.run();
      }
    };
    ServerView.Snapshot s = server.begin(phase, now);
    now.run(); // a view that counted nothing (none, or unreadable): the window opens now
    if (s != null) {
      before.put(phase, s);
      try { // where the window began, should this process not live to record the phase
        directory.writeJson(ServerReport.FILE, (serverReport == null ? new ServerReport(RunSummary.FORMAT,
            server.view().source(), Map.of()) : serverReport).withPhase(phase, ServerReport.begun(s, auditTable)));
      } catch (IOException e) {
        console().line("warning: server.json could not be written: " + e.getMessage());
      }
    }
  }

  /**
   * The client's and the server's side of a phase that began with {@link #beginPhase}: the
   * client's cost and server.json, and their summary lines.
   */
  private PhaseResult withSides(String phase, PhaseResult result) throws IOException {
    ClientCost clientStart = clientBefore.remove(phase);
    ServerView.Snapshot start = before.remove(phase);
    if (clientStart == null) {
      return result;
    }
    long operations = result.unitsOfWork();
    PhaseResult.ClientSide client = clientStart.end(operations);
    ServerView.Snapshot end = start == null ? null : server.end();
    PhaseResult.ServerSide side = end == null ? unread(start == null) : serverSide(phase, result, start, end);
    printCost(phase, client, side, operations);
    return result.toBuilder().client(client).server(side).build();
  }

  /** A phase whose server's view could not be read at its start or end: says so, where it would have been. */
  private PhaseResult.ServerSide unread(boolean atStart) {
    if (server.view() == ServerView.NONE) {
      return null;
    }
    return new PhaseResult.ServerSide(null, null, null, null, null, null, Map.of(ServerView.COUNTERS,
        "the server's view (" + server.view().source() + ") could not be read at the phase's "
            + (atStart ? "start" : "end") + "; the console says why"));
  }

  private PhaseResult.ServerSide serverSide(String phase, PhaseResult result, ServerView.Snapshot start,
      ServerView.Snapshot end) throws IOException {
    ServerReport.Phase p = ServerReport.phase(start, end, result, auditTable, issuedBy);
    // After the phase's closing snapshot, so that the EXPLAINs are no statements of the phase.
    StatementPlans.Explained explained = server.view().plans(p.statements());
    if (explained != null && !explained.plans().isEmpty()) {
      plans.put(phase, explained.plans());
      directory.writeJson(StatementPlans.FILE, new StatementPlans.File(RunSummary.FORMAT, explained.how(), plans));
    } else if (explained != null && explained.unavailable() != null) {
      p = p.withUnavailable(ServerView.PLANS, explained.unavailable());
    }
    PhaseResult.ServerSide side = p.summary();
    boolean shared = side.serverStatements() != null && clients > 1;
    if (shared) { // the server's count is every client's: no Δ against this one's
      side = new PhaseResult.ServerSide(side.harnessOperations(), side.serverStatements(), null, side.serverCpuS(),
          side.nodes(), side.statements(), side.unavailable());
      p = p.withSummary(side);
    }
    serverReport = (serverReport == null ? new ServerReport(RunSummary.FORMAT, server.view().source(), Map.of())
        : serverReport).withPhase(phase, p);
    directory.writeJson(ServerReport.FILE, serverReport);
    if (shared) {
      console().line(String.format(Locale.ROOT, "Server audit (%s): this client %d operations; the server %d "
          + "statements on %s from all %d clients in this client's window: the merged run (--merge) audits them",
          phase, side.harnessOperations(), side.serverStatements(), auditTable, clients));
    } else if (side.serverStatements() != null) {
      // Where an operation is a transaction of several statements (sysbench's), the harness counted statements.
      String unit = result.auditedStatements() != null ? "statements" : "operations";
      console().line(String.format(Locale.ROOT, "Server audit (%s): harness %d %s / server %d statements on "
          + "%s (Δ %.2f %%), from %s", phase, side.harnessOperations(), unit, side.serverStatements(), auditTable,
          side.deltaPct(), server.view().source()));
    } else if (side.unavailable(ServerView.AUDIT) != null) {
      console().line("Server audit (" + phase + "): not made: " + side.unavailable(ServerView.AUDIT));
    }
    List<NodeRates> nodes = side.nodes() == null ? List.of() : side.nodes();
    for (int i = 0; i < nodes.size() && i < MAX_NODE_LINES; i++) {
      console().line("Server node (" + phase + ") " + nodes.get(i).describe());
    }
    if (nodes.size() > MAX_NODE_LINES) {
      console().line(String.format(Locale.ROOT, "Server nodes (%s): %d more in server.json; all %d together %.1f "
          + "ops/s", phase, nodes.size() - MAX_NODE_LINES, nodes.size(),
          nodes.stream().mapToDouble(NodeRates::opsPerS).sum()));
    }
    return side;
  }

  /**
   * One line of what the phase cost the client (and the server, when it runs here), and a warning
   * when the client kept its cores so busy that it may have been what limited the figures.
   */
  private void printCost(String phase, PhaseResult.ClientSide client, PhaseResult.ServerSide side, long operations) {
    String unit = operations == 0 ? "" : String.format(Locale.ROOT, " %.1f µs/op,", client.cpuUsPerOp());
    String serverCpu = side == null || side.serverCpuS() == null || operations == 0 ? ""
        : String.format(Locale.ROOT, "; server %.1f µs/op", 1e6 * side.serverCpuS() / operations);
    String rss = client.peakRssMb() == null ? "" : ", peak RSS " + client.peakRssMb() + " MB";
    console().line(String.format(Locale.ROOT, "CPU (%s): client%s %.1f s, %.0f %% of %d cores%s%s", phase, unit,
        client.cpuS(), client.busyPct(), client.cores(), rss, serverCpu));
    String warning = ClientCost.warning(phase, client);
    if (warning != null) {
      console().line(warning);
    }
  }

  public Console console() {
    return lifecycle.console();
  }

  public RunDirectory directory() {
    return directory;
  }

  /**
   * Whether the run's metrics are served as it runs (--prometheus-port): a benchmark that reads its
   * tool's record only once the tool ended then follows it as it is written, for the live view.
   */
  public boolean servedLive() {
    return servedLive;
  }

  public Timeseries timeseries() {
    return timeseries;
  }

  /** True once Ctrl-C (or SIGTERM) has arrived: phases end early and later ones do not start. */
  public boolean interrupted() {
    return lifecycle.interrupted();
  }

  /** What Ctrl-C should do to the phase now running (replaces the previous phase's). */
  public void onStop(Runnable stop) {
    lifecycle.onStop(stop);
  }

  /**
   * Keeps a phase's result in summary.json and judges it: a phase whose figures cannot stand
   * ({@link PhaseCheck}) ends the run as failed. A phase cut short by Ctrl-C is kept, not judged.
   */
  public void record(String phase, PhaseResult result) throws IOException {
    keep(phase, withSides(phase, result));
    if (!interrupted()) {
      String problem = PhaseCheck.problem(phase, result, limits);
      if (problem != null) {
        throw new RunFailure(problem);
      }
    }
  }

  /**
   * Keeps a phase's result without judging it: a warm-up, whose errors are the cold start it is
   * there to absorb.
   */
  public void keep(String phase, PhaseResult result) {
    summary = summary.withPhase(phase, result);
    if (result.operations() != null && !result.operations().isEmpty()) {
      measuredPhases.add(phase);
    }
  }

  /**
   * The benchmark's run-wide figures (TPC-C's warehouses, terminals and consistency check), under
   * its {@code key} in summary.json, replacing those recorded before.
   */
  public void recordFigures(String key, Object figures) {
    summary = summary.withExtension(key, figures);
  }

  /** The benchmark's run-wide figures recorded so far under {@code key}, as {@code type}; null if none. */
  public <T> T figures(String key, Class<T> type) {
    return summary.extension(key, type);
  }

  RunSummary summary() {
    return summary;
  }

  /** Stops reading the server (a phase that failed or was interrupted never reached its end). */
  void stopServerSampling() {
    server.stop();
  }

  /** Phases with a timeseries to draw. */
  List<String> measuredPhases() {
    return List.copyOf(measuredPhases);
  }
}
