package dev.ybbench.harness.server;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.results.NodeRates;
import dev.ybbench.harness.results.RunDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * Reads the server's view at a phase's start and end, and every interval in between into
 * {@code server-timeseries.csv}: per node, reads and writes per second, server-side latency and
 * CPU and the most sampled wait events, for the chart of the server's ops/s per node beside the
 * client's throughput; and what the phase's sessions wait on ({@link WaitSampler}) over its
 * window, given to its closing snapshot. A final
 * stretch shorter than half an interval is left out of the file (its rate, over a fraction of an
 * interval while the phase winds down, would read as a drop); the phase's totals cover it.
 */
public final class ServerSampler {

  private final ServerView view;
  private final Consumer<String> log;
  private final Path file;
  private final long intervalNanos;
  private final long waitIntervalMillis;
  private Ticker ticker;
  private WaitSampler waits;
  private String phase;
  private ServerView.Snapshot first;
  private ServerView.Snapshot last;

  /**
   * @param intervalSeconds    seconds between samples within a phase; 0 reads the phase's edges only
   * @param waitIntervalMillis milliseconds between looks at what the sessions wait on, where the harness
   *                           looks (PostgreSQL); 0 records no wait profile
   * @param log                where a note goes when the view cannot be read
   */
  public ServerSampler(ServerView view, Path runDirectory, double intervalSeconds, long waitIntervalMillis,
      Consumer<String> log) {
    this.view = view;
    this.waitIntervalMillis = waitIntervalMillis;
    this.log = log;
    this.file = runDirectory.resolve(RunDirectory.SERVER_TIMESERIES);
    this.intervalNanos = (long) (intervalSeconds * 1e9);
  }

  public ServerView view() {
    return view;
  }

  /**
   * The phase's starting snapshot (null when the server's view is not available); sampling starts.
   *
   * @param counting run just before the snapshot reads the counts the audit starts from (see
   *                 {@link ServerView#snapshot(ServerView.Moment, Runnable)})
   */
  public ServerView.Snapshot begin(String phaseName, Runnable counting) {
    stop();
    ServerView.Snapshot s = read(ServerView.Moment.PHASE_START, counting);
    synchronized (this) {
      phase = phaseName;
      first = s;
      last = s;
      waits = s == null || waitIntervalMillis <= 0 ? null : view.waits(waitIntervalMillis);
    }
    if (waits != null) {
      waits.begin();
    }
    if (s != null && !s.nodes().isEmpty() && intervalNanos > 0) {
      ticker = new Ticker("server-sampler", this::sample, intervalNanos, intervalNanos);
    }
    return s;
  }

  /** The phase's closing snapshot, once its sessions are gone, with its wait profile; sampling stops. */
  public ServerView.Snapshot end() {
    stopTicker();
    ServerView.Snapshot s = read(ServerView.Moment.PHASE_END, () -> {});
    WaitSampler w;
    synchronized (this) {
      if (s != null && last != null && s.takenNanos() - last.takenNanos() >= intervalNanos / 2 && intervalNanos > 0) {
        write(s);
      }
      w = waits;
      waits = null;
      phase = null;
      first = null;
      last = null;
    }
    if (w != null) { // after the closing snapshot: its statements name the samples'
      WaitProfile profile = w.end();
      s = s == null ? null : s.withWaits(profile);
    }
    return s;
  }

  /** The view's snapshot; a view that breaks costs the run its server figures, never the run. */
  private ServerView.Snapshot read(ServerView.Moment moment, Runnable counting) {
    try {
      return view.snapshot(moment, counting);
    } catch (RuntimeException e) {
      log.accept("note: the server's view could not be read (" + ErrorText.firstLine(e) + ")");
      return null;
    }
  }

  private void sample() {
    try {
      ServerView.Snapshot s = view.snapshot(ServerView.Moment.DURING);
      synchronized (this) {
        if (s != null && phase != null) {
          write(s);
        }
      }
    } catch (RuntimeException e) {
      // A sample that cannot be read or written is a gap in the chart; the phase's totals are read at its end.
    }
  }

  private void write(ServerView.Snapshot s) {
    double elapsed = (s.takenNanos() - first.takenNanos()) / 1e9;
    StringBuilder rows = new StringBuilder();
    for (NodeRates r : ServerView.nodeRates(last, s, (s.takenNanos() - last.takenNanos()) / 1e9)) {
      String top = waits == null ? "" : WaitProfile.top(waits.between(r.node(), last.takenNanos(), s.takenNanos()), 3);
      rows.append(r.csv(phase, elapsed, top)).append('\n');
    }
    last = s;
    try {
      if (!Files.exists(file)) {
        Files.writeString(file, NodeRates.CSV_HEADER + "\n", StandardCharsets.UTF_8);
      }
      Files.writeString(file, rows, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stops sampling: the run is over, however its phases ended. */
  public void stop() {
    stopTicker();
    WaitSampler w;
    synchronized (this) {
      w = waits;
      waits = null;
    }
    if (w != null) {
      w.end();
    }
  }

  private void stopTicker() {
    if (ticker != null) {
      ticker.stop();
      ticker = null;
    }
  }
}
