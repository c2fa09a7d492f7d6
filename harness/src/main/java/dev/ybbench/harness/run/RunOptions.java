package dev.ybbench.harness.run;

import dev.ybbench.harness.UserError;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options every benchmark runner shares (a picocli mixin): where results go and when a run fails. */
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

  @Option(names = "--max-outage-pct", paramLabel = "PCT", defaultValue = "10",
      description = "a phase during which the server was unreachable for more than this share of its time fails "
          + "the run (default: ${DEFAULT-VALUE})")
  public double maxOutagePct;

  @Option(names = "--server-interval", paramLabel = "S", defaultValue = "10",
      description = "seconds between readings of the server's own counters during a phase, for the chart of its "
          + "ops/s per node (default: ${DEFAULT-VALUE}; 0: at the start and end of each phase only)")
  public double serverIntervalS;

  @Option(names = "--verbose", description = "stack traces on errors")
  public boolean verbose;

  public Path resultsRoot(Path home) {
    return resultsDir != null ? resultsDir : home.resolve("results");
  }

  /** Refuses limits (and a server interval) that mean nothing, before anything starts. */
  public PhaseCheck.Limits limits() {
    if (!(maxErrorPct >= 0 && maxErrorPct <= 100) || !(maxOutagePct >= 0 && maxOutagePct <= 100)) {
      throw new UserError("--max-error-pct and --max-outage-pct are percentages from 0 to 100, were " + maxErrorPct
          + " and " + maxOutagePct);
    }
    if (!(serverIntervalS == 0 || serverIntervalS >= 0.5 && serverIntervalS <= 3600)) {
      throw new UserError("--server-interval must be 0 (phase edges only) or from 0.5 to 3600 seconds, was "
          + serverIntervalS);
    }
    return new PhaseCheck.Limits(maxErrorPct, maxOutagePct);
  }
}
