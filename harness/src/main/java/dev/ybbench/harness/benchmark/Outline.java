package dev.ybbench.harness.benchmark;

import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.run.RunOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What every benchmark's dry run says first, in the same words, before its own settings: what it
 * connects to and how, the tables it will create, drop or truncate and when, the connections it
 * opens, the HTTP endpoints it reads and serves, each phase's time and the run's, and the command
 * that runs it. A benchmark fills it from its plan; the {@link Runner} prints it.
 *
 * @param target      the server: the embedded one, or the hosts given
 * @param tls         how the connection is secured, e.g. "off", "sslmode=verify-full"
 * @param database    the database (or keyspace) and who connects, e.g. "ycsb as postgres"
 * @param tables      what is done to which tables and when, one entry each
 * @param connections how many connections, over how many nodes
 * @param reads       the HTTP endpoints read during the run, or how the server is read without one
 * @param phases      in order, each with its time where it can be known before the run
 * @param command     the run as a shell command, or null for the command line as given
 */
public record Outline(String target, String tls, String database, List<String> tables, String connections,
    List<String> reads, List<Phase> phases, String command) {

  public Outline {
    java.util.Objects.requireNonNull(target);
    java.util.Objects.requireNonNull(tls);
    java.util.Objects.requireNonNull(database);
    java.util.Objects.requireNonNull(connections);
    tables = List.copyOf(tables);
    reads = List.copyOf(reads);
    phases = List.copyOf(phases);
  }

  /**
   * A phase as planned.
   *
   * @param name     as run.json and the console name it
   * @param what     what it does, e.g. "100000 records", "oltp_read_only"
   * @param seconds  how long it takes, or null where only the run can tell (a load at full speed)
   * @param estimate where only the run can tell, what an earlier run suggests ({@link LastLoad}), or null
   */
  public record Phase(String name, String what, Double seconds, String estimate) {
    public Phase(String name, String what, Double seconds) {
      this(name, what, seconds, null);
    }

    public static Phase timed(String name, String what, double seconds) {
      return new Phase(name, what, seconds);
    }

    public static Phase untimed(String name, String what) {
      return new Phase(name, what, null);
    }

    /** A phase only the run can time, with what an earlier run suggests. */
    public static Phase estimated(String name, String what, String estimate) {
      return new Phase(name, what, null, estimate);
    }

    /** Its time as a plan says it: "60 s", "time unknown until it runs; about 20 s at …". */
    public String time() {
      return seconds == null ? "time unknown until it runs" + (estimate == null ? "" : "; " + estimate)
          : Outline.seconds(seconds);
    }

    String line() {
      return "phase." + name + ": " + (what == null || what.isEmpty() ? "" : what + " ") + "(" + time() + ")";
    }
  }

  /**
   * The run as a shell command: {@code ./SCRIPT ARGS}, words quoted for a shell, --dry-run left
   * out and a password as ***.
   */
  public static String command(String script, List<String> args) {
    List<String> kept = args.stream().filter(a -> !a.equals("--dry-run")).toList();
    return ("./" + script + " " + ShellWords.join(RunInfo.redactCommand(kept, Console::clean))).strip();
  }

  /**
   * The plan's first lines, after "Plan (nothing started):": this outline, then where the results
   * go and when the run fails ({@code run}'s options).
   *
   * @param script the benchmark's script, for the command when the benchmark gives none
   * @param args   the command line as parsed
   */
  List<String> lines(RunOptions run, String script, List<String> args) {
    List<String> out = new ArrayList<>();
    out.add("target: " + target + ", TLS " + tls);
    out.add("database: " + database);
    tables.forEach(t -> out.add("schema: " + t));
    out.add("connections: " + connections);
    out.add("reads: " + (reads.isEmpty() ? "no HTTP endpoint" : String.join("; ", reads)));
    out.add("serves: " + (run.prometheusPort == null ? "nothing (--prometheus-port serves the run's counters)"
        : "http://HOST:" + (run.prometheusPort == 0 ? "PORT" : run.prometheusPort) + "/metrics for Prometheus"
            + (run.prometheusPort == 0 ? " (any free port, printed as it starts)" : "")));
    phases.forEach(p -> out.add(p.line()));
    out.add("wall_time: " + wallTime());
    out.add("command: " + (command != null ? command : command(script, args)));
    out.add("label: " + (run.label == null ? "none" : run.label));
    out.add("results: " + (run.resultsDir == null ? "results/" : run.resultsDir.toString()));
    if (run.history != null) {
      out.add("history: " + RunInfo.redactInline(run.history) + " (the run recorded as it ends)");
      if (run.confirm != null) {
        out.add("confirm: judged against the history as it ends; while a regression or undecided, run again up to "
            + run.confirm + " more time" + (run.confirm == 1 ? "" : "s") + " (compare.sh --history --confirm)");
      }
    }
    out.add("limits: errors " + run.maxErrorPct + " %, aborts " + run.maxAbortPct + " %, outage "
        + run.maxOutagePct + " %, server readings every " + run.serverIntervalS + " s, "
        + (run.waitIntervalMs == 0 ? "no wait profile" : "waits sampled every " + run.waitIntervalMs + " ms"));
    return out;
  }

  /** The time of the phases whose time is known before the run, added up. */
  public double knownSeconds() {
    return phases.stream().filter(p -> p.seconds() != null).mapToDouble(Phase::seconds).sum();
  }

  /** The phases whose time only the run can tell (a load at full speed). */
  public List<String> untimed() {
    return phases.stream().filter(p -> p.seconds() == null).map(Phase::name).toList();
  }

  /** The phases' time added up, with what it leaves out. */
  String wallTime() {
    double known = knownSeconds();
    List<String> unknown = untimed();
    if (unknown.isEmpty()) {
      return seconds(known) + " of phases, beside the server's start and the tables' setup";
    }
    return (known > 0 ? "at least " + seconds(known) + ", plus " : "") + "the time of the "
        + String.join(" and the ", unknown) + ", which only the run can tell";
  }

  /** A size for a plan, in decimal units as df -H prints them: "950 kB", "12.9 MB", "122 MB", "10.7 GB". */
  public static String bytes(long b) {
    String[] units = {"B", "kB", "MB", "GB", "TB"};
    double v = b;
    int u = 0;
    while (v >= 1000 && u < units.length - 1) {
      v /= 1000;
      u++;
    }
    return String.format(Locale.ROOT, u > 0 && v < 100 ? "%.1f %s" : "%.0f %s", v, units[u]);
  }

  /** "90 s", "1 h 02 min 05 s". */
  public static String seconds(double s) {
    long whole = Math.round(s);
    if (whole < 120) {
      return String.format(Locale.ROOT, "%d s", whole);
    }
    if (whole < 3600) {
      return String.format(Locale.ROOT, "%d min %02d s", whole / 60, whole % 60);
    }
    return String.format(Locale.ROOT, "%d h %02d min %02d s", whole / 3600, whole % 3600 / 60, whole % 60);
  }
}
