package dev.ybbench.pgbench.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * last line cut short (without its newline), which is left out.
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

  /** Receives each transaction as its line is read, for a live view. */
  public interface Sink {
    /**
     * @param time  its latency in µs (from the intended start under a rate), or how it ended:
     *              failed, serialization, deadlock, skipped …
     * @param lagUs its schedule lag under a rate, else −1
     * @param tries its tries beyond the first
     */
    void transaction(int script, String time, long lagUs, long tries);
  }

  /**
   * Follows the files of {@code prefix} in {@code dir} as pgbench writes them: each {@link #pass}
   * reads their whole new lines (pgbench flushes its stdio buffers every few kilobytes, so a line
   * arrives a buffer at a time), {@link #finish} the rest once pgbench has ended. One reading, so
   * what a live view counted is what the results count.
   */
  public static final class Follower {
    private final Path dir;
    private final String prefix;
    private final boolean rate;
    private final long originMs;
    private final PgbenchLog log;
    private final Sink sink;
    /** Per file: the bytes read so far, and those after its last newline. */
    private final Map<Path, long[]> positions = new TreeMap<>();
    private final Map<Path, ByteArrayOutputStream> partial = new TreeMap<>();

    /**
     * @param scripts  how many scripts ran (numbered from 0 in the log)
     * @param rate     whether it ran under {@code -R}: each line then has the schedule lag
     * @param originMs when the phase began (epoch ms): second 0 starts there
     * @param sink     also receives each transaction, or null
     */
    public Follower(Path dir, String prefix, int scripts, boolean rate, long originMs, Sink sink) {
      this.dir = dir;
      this.prefix = prefix;
      this.rate = rate;
      this.originMs = originMs;
      this.log = new PgbenchLog(scripts);
      this.sink = sink;
    }

    /** Reads the lines written since the last pass. */
    public synchronized void pass() throws IOException {
      try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, prefix + ".*")) {
        for (Path f : files) {
          read(f);
        }
      }
    }

    /**
     * Reads the rest once pgbench has ended: a last line without its newline (pgbench was ended
     * as it wrote) is counted as cut.
     */
    public synchronized PgbenchLog finish() throws IOException {
      pass();
      for (ByteArrayOutputStream rest : partial.values()) {
        if (rest.size() > 0) {
          log.cut++;
        }
      }
      partial.clear();
      return log;
    }

    private void read(Path f) throws IOException {
      long[] position = positions.computeIfAbsent(f, k -> new long[1]);
      ByteArrayOutputStream line = partial.computeIfAbsent(f, k -> new ByteArrayOutputStream());
      try (FileChannel in = FileChannel.open(f, StandardOpenOption.READ)) {
        in.position(position[0]);
        ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        for (int n; (n = in.read(buf)) > 0; buf.clear()) {
          position[0] += n;
          byte[] bytes = buf.array();
          int start = 0;
          for (int i = 0; i < n; i++) {
            if (bytes[i] == '\n') {
              line.write(bytes, start, i - start);
              log.line(line.toString(StandardCharsets.UTF_8), rate, originMs, sink);
              line.reset();
              start = i + 1;
            }
          }
          line.write(bytes, start, n - start); // a line the next read completes
        }
      }
    }
  }

  /** Reads one line; a line it cannot read (the last, cut short) is counted in {@link #cut}. */
  void line(String line, boolean rate, long originMs) {
    line(line, rate, originMs, null);
  }

  private void line(String line, boolean rate, long originMs, Sink sink) {
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
      if (sink != null) {
        sink.transaction(script, f[2], lag, tries);
      }
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
