package dev.ybbench.pgbench.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What pgbench printed, read line by line as it comes: its progress lines ({@code -P}, one a
 * second as ybbench asks) and its final report, in the three forms it takes — PostgreSQL 11 and
 * ysql_bench's (tps including and excluding connections), 14's (without initial connection time),
 * 15's (failed, retried and skipped transactions) — and the errors it ends with.
 */
public final class PgbenchReport {
  /** One progress line: {@code progress: 5.0 s, 1234.5 tps, lat 1.234 ms stddev 0.456[, 0 failed] …}. */
  public record Progress(double elapsedS, double tps, double latencyMs, long failed, long skipped, long retried) {}

  /**
   * One command of a script as {@code -r} reports it: its average latency, the transactions that
   * failed on it (after their tries) and the tries it made retry; −1 where pgbench does not count
   * them (before 15, and ysql_bench).
   */
  public record Command(double latencyMs, long failures, long retries, String text) {}

  /** The final report's figures; a count it did not print is −1. */
  public record Totals(long processed, long failed, long serialization, long deadlock, long retried, long retries,
      long skipped, long late, double tps, double latencyMs) {}

  private static final Pattern PROGRESS = Pattern.compile("^progress: ([0-9.]+) s, ([0-9.]+) tps, lat ([0-9.]+|nan) "
      + "ms stddev ([0-9.]+|nan)(.*)$");
  private static final Pattern FAILED_SINCE = Pattern.compile(", (\\d+) failed");
  private static final Pattern SKIPPED_SINCE = Pattern.compile(", (\\d+) skipped");
  private static final Pattern RETRIED_SINCE = Pattern.compile(", (\\d+) retried");
  private static final Pattern PROCESSED = Pattern.compile("^number of transactions actually processed: (\\d+)");
  private static final Pattern TPS = Pattern.compile("^tps = ([0-9.]+) \\((without initial connection time|"
      + "excluding connections establishing|including reconnection times)\\)");
  private static final Pattern LATENCY = Pattern.compile("^latency average = ([0-9.]+) ms");
  private static final Pattern COUNT = Pattern.compile("^(number of failed transactions|number of errors|number of "
      + "serialization failures|number of deadlock failures|number of transactions retried|number of retried|total "
      + "number of retries|number of retries|number of transactions skipped): (\\d+)");
  private static final Pattern LATE = Pattern.compile("^number of transactions above the [0-9.]+ ms latency limit: "
      + "(\\d+)");

  private static final Pattern SCRIPT = Pattern.compile("^SQL script (\\d+): ");
  /** The head of -r's block: its columns are the latency, then the failures and the retries where counted. */
  private static final Pattern COMMANDS = Pattern.compile("^(?: - )?statement latencies in milliseconds"
      + "( and failures|, failures and retries)?:$");
  private static final Pattern COMMAND = Pattern.compile("^ +(-?[0-9.]+|nan)((?: +\\d+){0,2})  (.*)$");

  private final List<Progress> progress = new ArrayList<>();
  /** -r's commands by script (from 0): the only script's when one ran. */
  private final Map<Integer, List<Command>> commands = new TreeMap<>();
  private int script;
  /** The counts after the latency in the -r block being read, or −1 outside one. */
  private int commandCounts = -1;
  private boolean perCommand;
  private final List<String> errors = new ArrayList<>();
  private long processed = -1;
  private long failed = -1;
  private long serialization = -1;
  private long deadlock = -1;
  private long retried = -1;
  private long retries = -1;
  private long skipped = -1;
  private long late = -1;
  private double tps = -1;
  private double latencyMs = -1;
  private boolean aborted;

  /** Reads one line; returns it as a progress line, or null when it is not one. */
  public Progress accept(String line) {
    perCommand = false;
    Matcher m = COMMANDS.matcher(line);
    if (m.matches()) {
      commandCounts = m.group(1) == null ? 0 : m.group(1).equals(" and failures") ? 1 : 2;
      commands.put(script, new ArrayList<>());
      perCommand = true;
      return null;
    }
    if (commandCounts >= 0) {
      if ((m = COMMAND.matcher(line)).matches()) {
        String[] counts = m.group(2).strip().isEmpty() ? new String[0] : m.group(2).strip().split(" +");
        if (counts.length == commandCounts) {
          commands.get(script).add(new Command(m.group(1).equals("nan") ? Double.NaN
              : Double.parseDouble(m.group(1)), counts.length > 0 ? Long.parseLong(counts[0]) : -1,
              counts.length > 1 ? Long.parseLong(counts[1]) : -1, m.group(3)));
          perCommand = true;
          return null;
        }
      }
      commandCounts = -1; // the block ended
    }
    if ((m = SCRIPT.matcher(line)).find()) {
      script = Integer.parseInt(m.group(1)) - 1;
    }
    m = PROGRESS.matcher(line);
    if (m.matches()) {
      String rest = m.group(5);
      Progress p = new Progress(Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)),
          m.group(3).equals("nan") ? Double.NaN : Double.parseDouble(m.group(3)), count(FAILED_SINCE, rest),
          count(SKIPPED_SINCE, rest), count(RETRIED_SINCE, rest));
      progress.add(p);
      return p;
    }
    if ((m = PROCESSED.matcher(line)).find()) {
      processed = Long.parseLong(m.group(1));
    } else if ((m = TPS.matcher(line)).find()) {
      // PostgreSQL 11–13 print two; the one without connecting is pgbench's own figure since 14.
      if (tps < 0 || !m.group(2).startsWith("including connections")) {
        tps = Double.parseDouble(m.group(1));
      }
    } else if ((m = LATENCY.matcher(line)).find()) {
      latencyMs = Double.parseDouble(m.group(1));
    } else if ((m = LATE.matcher(line)).find()) {
      late = Long.parseLong(m.group(1));
    } else if ((m = COUNT.matcher(line)).find()) {
      long n = Long.parseLong(m.group(2));
      switch (m.group(1)) {
        case "number of failed transactions", "number of errors" -> failed = n;
        case "number of serialization failures" -> serialization = n;
        case "number of deadlock failures" -> deadlock = n;
        case "number of transactions retried", "number of retried" -> retried = n;
        case "total number of retries", "number of retries" -> retries = n;
        default -> skipped = n;
      }
    } else if (line.matches("^(pgbench|ysql_bench): (error|fatal): .*")) {
      if (line.contains("Run was aborted")) {
        aborted = true;
      } else {
        errors.add(line.replaceFirst("^(pgbench|ysql_bench): (error|fatal): ", ""));
      }
    }
    return null;
  }

  private static long count(Pattern p, String rest) {
    Matcher m = p.matcher(rest);
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  /** Whether the line read last belonged to -r's report of the commands. */
  public boolean perCommand() {
    return perCommand;
  }

  /** -r's commands of script {@code i} (from 0), in order; null when it printed none. */
  public List<Command> commands(int i) {
    return commands.get(i);
  }

  public List<Progress> progress() {
    return progress;
  }

  /** pgbench's error lines, without their prefix, in order. */
  public List<String> errors() {
    return errors;
  }

  /** Whether it said a client aborted, its results incomplete ("Run was aborted"). */
  public boolean aborted() {
    return aborted;
  }

  /** The final report, or null when pgbench printed none (it was ended, or failed before running). */
  public Totals totals() {
    if (processed < 0 || tps < 0) {
      return null;
    }
    return new Totals(processed, failed, serialization, deadlock, retried, retries, skipped, late, tps, latencyMs);
  }
}
