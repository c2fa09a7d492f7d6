package dev.ybbench.harness.run;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.prometheus.PrometheusEndpoint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options every benchmark runner shares (a picocli mixin): where results go, when a run fails,
 * the history, the dry run.
 */
public final class RunOptions {
  @Option(names = "--label", paramLabel = "TEXT", description = "a tag for this run, e.g. a release name, kept in "
      + "run.json; compare.sh groups runs by it")
  public String label;

  @Option(names = "--results-dir", paramLabel = "DIR", description = "where run directories go (default: results/)")
  public Path resultsDir;

  @Option(names = "--max-error-pct", paramLabel = "PCT", defaultValue = "1",
      description = "a phase whose failed operations exceed this share of its operations fails the run "
          + "(default: ${DEFAULT-VALUE})")
  public double maxErrorPct;

  @Option(names = "--max-abort-pct", paramLabel = "PCT", defaultValue = "50",
      description = "a phase whose operations ended on a conflict after their retries (aborts: SQLSTATE 40001, "
          + "40P01, YugabyteDB's conflicts) exceed this share of its operations fails the run; aborts are counted "
          + "apart from errors (default: ${DEFAULT-VALUE})")
  public double maxAbortPct;

  @Option(names = "--max-outage-pct", paramLabel = "PCT", defaultValue = "10",
      description = "a phase during which the server was unreachable for more than this share of its time fails "
          + "the run (default: ${DEFAULT-VALUE})")
  public double maxOutagePct;

  @Option(names = "--server-interval", paramLabel = "S", defaultValue = "10",
      description = "seconds between readings of the server's own counters during a phase, for the chart of its "
          + "ops/s per node (default: ${DEFAULT-VALUE}; 0: at the start and end of each phase only)")
  public double serverIntervalS;

  @Option(names = "--wait-interval", paramLabel = "MS", defaultValue = "100",
      description = "milliseconds between looks at what the phase's sessions wait on (PostgreSQL's "
          + "pg_stat_activity; YugabyteDB samples its own), for each statement's wait profile "
          + "(default: ${DEFAULT-VALUE}; 0: no wait profile)")
  public long waitIntervalMs;

  @Option(names = "--metrics-ports", paramLabel = "PORTS", description = "YugabyteDB: the ports of each node's "
      + "/prometheus-metrics to read, the tserver's first (default: 9000 and the API's, 13000 for YSQL or 12000 for "
      + "YCQL); none reads none")
  public String metricsPorts;

  @Option(names = "--prometheus-port", paramLabel = "PORT", description = "serve the run's counters and latency "
      + "histograms for Prometheus to scrape at http://HOST:PORT/metrics while it runs (0: any free port, printed); "
      + "off by default")
  public Integer prometheusPort;

  @Option(names = "--history", paramLabel = "FILE|URL", description = "record the run into a history of runs as "
      + "it ends: an SQLite file (e.g. results/history.db, created when missing) or a postgresql:// URL a team "
      + "shares; compare.sh --history judges a run against it (docs/history.md)")
  public String history;

  @Option(names = "--confirm", paramLabel = "N", description = "with --history: as the run ends, judge it against "
      + "the history (compare.sh --history), and while it is a regression or undecided run it again, up to N more "
      + "times, judging all its runs; the exit code is the verdict's (0 pass, 1 regression, 3 undecided)")
  public Integer confirm;

  @Option(names = "--dry-run", descriptionKey = "dry-run", description = "print the plan (server, tables, phases, "
      + "every parameter) and start nothing; it refuses what the run would refuse")
  public boolean dryRun;

  @Option(names = "--verbose", description = "stack traces on errors")
  public boolean verbose;

  /** Read by the scripts (run-scripts/common.sh), which install gnuplot before the JVM starts. */
  @Option(names = "--no-install", description = "do not install gnuplot for the charts when it is missing (as root "
      + "with apt the scripts install it once, and say so)")
  public boolean noInstall;

  /**
   * These options with {@code newLabel}, as a copy: a runner that settles the label from elsewhere (YCSB's
   * {@code label} property) leaves the options as parsed.
   */
  public RunOptions withLabel(String newLabel) {
    RunOptions c = new RunOptions();
    c.label = newLabel;
    c.resultsDir = resultsDir;
    c.maxErrorPct = maxErrorPct;
    c.maxAbortPct = maxAbortPct;
    c.maxOutagePct = maxOutagePct;
    c.serverIntervalS = serverIntervalS;
    c.waitIntervalMs = waitIntervalMs;
    c.metricsPorts = metricsPorts;
    c.prometheusPort = prometheusPort;
    c.history = history;
    c.confirm = confirm;
    c.dryRun = dryRun;
    c.verbose = verbose;
    c.noInstall = noInstall;
    return c;
  }

  public Path resultsRoot(Path home) {
    return resultsDir != null ? resultsDir : home.resolve("results");
  }

  /** Refuses limits (and a server interval) that mean nothing, before anything starts. */
  public PhaseCheck.Limits limits() {
    if (!(maxErrorPct >= 0 && maxErrorPct <= 100) || !(maxOutagePct >= 0 && maxOutagePct <= 100)
        || !(maxAbortPct >= 0 && maxAbortPct <= 100)) {
      throw new UserError("--max-error-pct, --max-abort-pct and --max-outage-pct are percentages from 0 to 100, were "
          + PhaseCheck.number(maxErrorPct) + ", " + PhaseCheck.number(maxAbortPct) + " and "
          + PhaseCheck.number(maxOutagePct));
    }
    if (!(serverIntervalS == 0 || serverIntervalS >= 0.5 && serverIntervalS <= 3600)) {
      throw new UserError("--server-interval must be 0 (phase edges only) or from 0.5 to 3600 seconds, was "
          + serverIntervalS);
    }
    if (!(waitIntervalMs == 0 || waitIntervalMs >= 10 && waitIntervalMs <= 60_000)) {
      throw new UserError("--wait-interval must be 0 (no wait profile) or from 10 to 60000 milliseconds, was "
          + waitIntervalMs);
    }
    metricsPorts();
    if (prometheusPort != null) {
      PrometheusEndpoint.check(prometheusPort);
    }
    if (confirm != null && (history == null || confirm < 1)) {
      throw new UserError(history == null ? "--confirm judges the run against its history: give --history FILE|URL "
          + "too" : "--confirm must be at least 1 more run, was " + confirm);
    }
    if (history != null) {
      RunHistory.find().check(history, !dryRun);
    }
    return new PhaseCheck.Limits(maxErrorPct, maxOutagePct, maxAbortPct);
  }

  /** --metrics-ports as ports: null for the API's default, empty for none. */
  public List<Integer> metricsPorts() {
    if (metricsPorts == null) {
      return null;
    }
    if (metricsPorts.strip().equalsIgnoreCase("none")) {
      return List.of();
    }
    List<Integer> ports = new ArrayList<>();
    for (String p : metricsPorts.split(",")) {
      try {
        int port = Integer.parseInt(p.strip());
        if (port < 1 || port > 65535) {
          throw new NumberFormatException();
        }
        ports.add(port);
      } catch (NumberFormatException e) {
        throw new UserError("--metrics-ports takes ports separated by commas (e.g. 9000,13000) or none, was '"
            + metricsPorts + "'");
      }
    }
    return ports;
  }
}
