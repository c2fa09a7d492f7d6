package dev.ybbench.harness.run;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.ClassArchive;
import dev.ybbench.harness.cli.ShutdownGuard;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.prometheus.PrometheusEndpoint;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.Plots;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.results.RunReport;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.harness.server.BoundStatements;
import dev.ybbench.harness.server.ServerSampler;
import dev.ybbench.harness.server.ServerView;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The life of every run, whatever the benchmark (as go-tpc's workloader or BenchBase's
 * DBWorkload → results writer): the server is opened, the run directory claimed, run.json
 * written, the benchmark's phases run and recorded, the final state decided — {@code complete},
 * {@code failed} with a one-line reason, or {@code interrupted} — summary.json and run.json
 * written with it, plots drawn, the last line printed, the server stopped, and the state mapped
 * to the exit code. A runner validates its input, then hands its phases to {@link #run}.
 */
public final class RunLifecycle {
  public static final int EXIT_COMPLETE = 0;
  public static final int EXIT_FAILED = 1;
  public static final int EXIT_BAD_INPUT = 2;
  public static final int EXIT_INTERRUPTED = ShutdownGuard.EXIT_INTERRUPTED;
  /** {@link ShutdownGuard#STOPPING}, for a run. */
  public static final String STOPPING = ShutdownGuard.STOPPING + "; what was measured so far is kept";

  /** What a benchmark runs against: a server that is up, and what it is. */
  public interface Target extends AutoCloseable {
    ServerInfo server();

    /** The nodes connected to, as "host:port,…". */
    String hosts();

    /** For an embedded server, the version asked for and what it resolved to ("17 (17.11.0)"); else null. */
    String embeddedVersion();

    /** Stops an embedded server (idempotent); a no-op for --hosts. */
    @Override
    void close();

    /**
     * The server's own counters, read before and after each phase; none where they cannot be read.
     *
     * @param metricsPorts YugabyteDB's metrics ports to read (--metrics-ports): null for the API's
     *                     default, empty for none
     */
    default ServerView serverView(List<Integer> metricsPorts) {
      return ServerView.NONE;
    }
  }

  /** A benchmark's phases, run in order; each records its result with {@link Run#record}. */
  public interface Work {
    void run(Run run) throws Exception;
  }

  /**
   * What is run, known and validated before anything starts.
   *
   * @param parameters every effective parameter, read once the target is open (opening it settles
   *                   some, such as the hosts and the dialect); passwords are redacted
   * @param extra      further run.json fields (e.g. "api", "config_file")
   * @param command    the command line as typed; password values are redacted
   */
  public record Spec(String bench, String workload, RunOptions options, Path home,
      Supplier<Map<String, String>> parameters,
      Map<String, Object> extra, List<String> command) {}

  private final Console console;
  private final ShutdownGuard guard;
  private volatile Runnable stopWork = () -> {};
  private volatile Target target;
  private Path runDirectory;

  public RunLifecycle(Console console) {
    this.console = console;
    this.guard = new ShutdownGuard(() -> {
      console.line(STOPPING);
      stopWork.run();
    }, this::closeTarget, Duration.ofSeconds(30));
  }

  /**
   * Runs an entry point's body with Ctrl-C handling and exits the JVM with its code; a run that
   * completed records the classes it loaded when asked to ({@link ClassArchive}).
   */
  public void main(IntSupplier body) {
    guard.runMain(() -> {
      int rc = body.getAsInt();
      if (rc == EXIT_COMPLETE && runDirectory != null && !interrupted()) {
        ClassArchive.recordIfAsked();
      }
      return rc;
    });
  }

  /** The entry point is done: results written, servers stopped. Call once, however it ended. */
  public void finished() {
    guard.finished();
  }

  public Console console() {
    return console;
  }

  public boolean interrupted() {
    return guard.interrupted();
  }

  /** The run directory, once claimed (null before, or when the run never started). */
  public Path runDirectory() {
    return runDirectory;
  }

  /** What Ctrl-C stops from now on (run at once when it already came). */
  public void onStop(Runnable stop) {
    stopWork = stop;
    if (interrupted()) {
      stop.run();
    }
  }

  /**
   * Opens the target, runs the work, and writes what happened.
   *
   * @param open starts or finds the server; a {@link UserError} from it (bad host, unknown version)
   *             ends the run before any directory exists
   * @return the exit code: 0 complete, 1 failed, 130 interrupted (a {@link UserError} raised once
   *         the run started is rethrown after the results are written, for exit code 2)
   */
  public int run(Spec spec, Supplier<? extends Target> open, Work work) throws IOException {
    PhaseCheck.Limits limits = spec.options().limits();
    Instant started = Instant.now();
    PrometheusEndpoint prometheus = prometheus(spec);
    try {
      Target t;
      // Ctrl-C while the server starts (a Cassandra node joins in ~10 s) stops the starting, whose
      // waits end on an interrupt, and the nodes already up are stopped with it.
      Thread opener = Thread.currentThread();
      onStop(opener::interrupt);
      try {
        t = open.get();
      } catch (UserError e) {
        if (interrupted()) {
          return EXIT_INTERRUPTED;
        }
        throw e;
      } finally {
        onStop(() -> {});
        Thread.interrupted(); // an interrupt that came as the start ended is not for what follows
      }
      target = t;
      if (interrupted()) {
        return EXIT_INTERRUPTED;
      }
      ServerInfo server = t.server();
      RunDirectory dir = RunDirectory.create(spec.options().resultsRoot(spec.home()), spec.bench(), spec.workload(),
          server, started);
      runDirectory = dir.path();
      console.attach(dir.consoleLog());
      RunInfo info = new RunInfo(spec.bench(), spec.workload(), spec.options().label, started)
          .server(server, t.embeddedVersion() != null, t.hosts(), t.embeddedVersion())
          .parameters(spec.parameters().get())
          .put("command", RunInfo.redactCommand(spec.command(), Console::clean));
      spec.extra().forEach(info::put);
      dir.writeJson("run.json", info.tree());
      console.line("Results: " + dir.path());

      String state = RunInfo.COMPLETE;
      String reason = null;
      RuntimeException rethrow = null;
      Run run = null;
      BoundStatements.clear();
      try (Timeseries ts = new Timeseries(dir.timeseries())) {
        if (prometheus != null) {
          prometheus.runStarted(dir.path().getFileName().toString(), ts);
        }
        run = new Run(this, dir, ts, limits, RunSummary.start(spec.bench(), spec.workload(), server),
            new ServerSampler(t.serverView(spec.options().metricsPorts()), dir.path(), spec.options().serverIntervalS,
                spec.options().waitIntervalMs, console::line), prometheus != null);
        work.run(run);
      } catch (RunFailure e) {
        state = RunInfo.FAILED;
        reason = e.getMessage();
      } catch (UserError e) {
        state = RunInfo.FAILED;
        reason = e.getMessage();
        rethrow = e;
      } catch (Exception | Error e) {
        state = RunInfo.FAILED;
        reason = ErrorText.firstLine(e);
        rethrow = e instanceof RuntimeException r ? r : new RuntimeException(reason, e);
      }
      if (run != null) {
        run.stopServerSampling();
      }
      Map<String, Object> probe = run != null && !interrupted() ? MachineProbe.take() : null;
      if (probe != null) {
        info.put("probe", probe); // what the client machine could do as the run ended
      }
      if (interrupted()) {
        // Ctrl-C closes connections under the threads; what they then report is not a failure of the run.
        state = RunInfo.INTERRUPTED;
        reason = null;
        rethrow = null;
      }
      if (reason != null) {
        reason = Console.clean(reason);
      }
      RunSummary summary = (run == null ? RunSummary.start(spec.bench(), spec.workload(), server) : run.summary())
          .withState(state, reason);
      Map<String, Object> ended = info.end(state, Instant.now(), reason).tree();
      dir.writeJson(RunSummary.FILE, summary);
      dir.writeJson("run.json", ended);
      if (run != null && !run.measuredPhases().isEmpty()) {
        String why = Plots.draw(dir, run.measuredPhases(), spec.bench() + " " + spec.workload() + " on "
            + server.slug());
        if (why != null) {
          console.line("warning: " + why);
        }
      }
      try {
        RunReport.write(dir.path(), summary, ended);
      } catch (IOException e) {
        console.line("warning: no report.html: " + e.getMessage());
      }
      if (prometheus != null) {
        awaitLastScrape(prometheus);
      }
      console.line("Run " + state + (reason == null || rethrow != null ? "" : " (" + reason + ")") + ": "
          + dir.path());
      if (rethrow != null) {
        throw rethrow;
      }
      return switch (state) {
        case RunInfo.COMPLETE -> EXIT_COMPLETE;
        case RunInfo.INTERRUPTED -> EXIT_INTERRUPTED;
        default -> EXIT_FAILED;
      };
    } finally {
      if (prometheus != null) {
        prometheus.close();
      }
      closeTarget();
      console.close();
    }
  }

  /** --prometheus-port's endpoint, serving before anything starts; null without the flag. */
  private PrometheusEndpoint prometheus(Spec spec) {
    Integer port = spec.options().prometheusPort;
    if (port == null) {
      return null;
    }
    String client = "0";
    String fleet = "";
    if (spec.extra().get("fleet") instanceof Map<?, ?> f) {
      client = String.valueOf(f.get("index"));
      fleet = String.valueOf(f.get("id"));
    }
    PrometheusEndpoint endpoint = PrometheusEndpoint.start(port, spec.bench(), spec.workload(), spec.options().label,
        client, fleet, ClientCost::cpuNanos);
    console.line("Prometheus: serving /metrics on port " + endpoint.port() + " (every interface)");
    return endpoint;
  }

  /** The final counts are written: one more scrape, when something scrapes, sees them (Ctrl-C ends the wait). */
  private void awaitLastScrape(PrometheusEndpoint prometheus) {
    try {
      prometheus.awaitLastScrape(this::interrupted, console::line);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void closeTarget() {
    Target t = target;
    if (t != null) {
      t.close();
    }
  }
}
