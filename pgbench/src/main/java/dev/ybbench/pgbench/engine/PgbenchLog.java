package dev.ybbench.pgbench.engine;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * pgbench's per-transaction log ({@code -l}: a file per thread, {@code PREFIX.PID} and
 * {@code PREFIX.PID.N}), read into what the results need: per script, each second's latency
 * histogram, its successes, failures by kind, skipped transactions and retries. A line is
 * {@code client transaction time script epoch_s us [schedule_lag] [retries]}: {@code time} in µs,
 * or {@code failed} / {@code serialization} / {@code deadlock} / {@code skipped} (ysql_bench:
 * {@code in_failed_tx}); the lag is there under {@code -R}, the retries when more than one try is
 * allowed. pgbench times a transaction from when it was scheduled ({@code -R}) or began, so
 * {@code time} is the latency from the intended start under a rate, and {@code time − lag} from
 * the actual one. A transaction belongs to the second it completed in, counted from {@code
 * originMs}. pgbench writes the files through stdio buffers: a run it did not end itself leaves a
 * last line cut short, which is left out.
 */
public final class PgbenchLog {
  /** One script's transactions. */
  public static final class Script {
    /** Each second's latency (µs, from the intended start under a rate), by the second since the origin. */
    public final TreeMap<Long, Histogram> intended = new TreeMap<>();
    /** The same from the actual start, under a rate only. */
    public final TreeMap<Long, Histogram> actual = new TreeMap<>();
    /** Failed transactions (after their tries) by second, and by kind. */
    public final TreeMap<Long, Long> failedBySecond = new TreeMap<>();
    public final Map<String, Long> failures = new TreeMap<>();
    public final TreeMap<Long, Long> retriesBySecond = new TreeMap<>();
    public long successes;
    public long skipped;
    public long retries;
    /** Transactions that succeeded or failed after more than one try. */
    public long retried;

    private void add(long second, String time, long lagUs, long tries) {
      if (time.equals("skipped")) {
        skipped++;
        return;
      }
      retries += tries;
      retried += tries > 0 ? 1 : 0;
      if (tries > 0) {
        retriesBySecond.merge(second, tries, Long::sum);
      }
      if (Character.isDigit(time.charAt(0))) {
        long us = Math.max(1, Long.parseLong(time));
        intended.computeIfAbsent(second, s -> new Histogram(3)).recordValue(us);
        if (lagUs >= 0) {
          actual.computeIfAbsent(second, s -> new Histogram(3)).recordValue(Math.max(1, us - lagUs));
        }
        successes++;
      } else {
        failures.merge(time, 1L, Long::sum);
        failedBySecond.merge(second, 1L, Long::sum);
      }
    }
  }

  private final List<Script> scripts = new ArrayList<>();
  private long cut;
  private long lastMillis;

  PgbenchLog(int scripts) {
    for (int i = 0; i < scripts; i++) {
      this.scripts.add(new Script());
    }
  }

  /**
   * Reads every file of {@code prefix} in {@code dir}.
   *
   * @param scripts  how many scripts ran (numbered from 0 in the log)
   * @param rate     whether it ran under {@code -R}: each line then has the schedule lag
   * @param originMs when the phase began (epoch ms): second 0 starts there
   */
  public static PgbenchLog read(Path dir, String prefix, int scripts, boolean rate, long originMs) throws IOException {
    PgbenchLog log = new PgbenchLog(scripts);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, prefix + ".*")) {
      for (Path f : files) {
        try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
          for (String line; (line = in.readLine()) != null; ) {
            log.line(line, rate, originMs);
          }
        }
      }
    }
    return log;
  }

  /** Reads one line; a line it cannot read (the last, cut short) is counted in {@link #cut}. */
  void line(String line, boolean rate, long originMs) {
    String[] f = line.strip().split(" ");
    int expected = 6 + (rate ? 1 : 0);
    if (f.length < expected || f.length > expected + 1 || f[2].isEmpty()) {
      cut++;
      return;
    }
    try {
      int script = Integer.parseInt(f[3]);
      long millis = Long.parseLong(f[4]) * 1000 + Long.parseLong(f[5]) / 1000;
      long lag = rate ? Long.parseLong(f[6]) : -1;
      long tries = f.length > expected ? Long.parseLong(f[expected]) : 0;
      if (script < 0 || script >= scripts.size() || (!Character.isDigit(f[2].charAt(0))
          && !f[2].matches("[a-z_]+"))) {
        cut++;
        return;
      }
      lastMillis = Math.max(lastMillis, millis);
      scripts.get(script).add(Math.max(0, (millis - originMs) / 1000), f[2], lag, tries);
    } catch (NumberFormatException e) {
      cut++;
    }
  }

  public List<Script> scripts() {
    return scripts;
  }

  /** Lines left out: cut short when pgbench was ended. */
  public long cut() {
    return cut;
  }

  /** When the last transaction completed (epoch ms), 0 without any. */
  public long lastMillis() {
    return lastMillis;
  }

  /** Every script's successes. */
  public long successes() {
    return scripts.stream().mapToLong(s -> s.successes).sum();
  }
}
