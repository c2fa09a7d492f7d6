package dev.ybbench.harness.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * When the client could not reach the server, as its threads saw it: an outage opens at the
 * first attempt that found the server unreachable (connection refused or lost) and closes at the
 * next operation that succeeded on any thread: a cluster that lost one node of three still
 * answers, and only the time nobody got an answer counts. The summary reports the intervals, and a
 * run whose window was mostly outage does not stand for what was asked.
 *
 * <p>Cheap on the hot path: {@link #reachable()} reads one volatile while the server is up.
 */
public final class Outages {
  /** One outage, in {@link System#nanoTime()} terms. */
  public record Interval(long startNanos, long endNanos) {
    public double seconds() {
      return (endNanos - startNanos) / 1e9;
    }
  }

  private final List<Interval> closed = new ArrayList<>();
  private volatile long openSince = -1;

  /** An attempt found the server unreachable at {@code nanos}. */
  public synchronized void unreachable(long nanos) {
    if (openSince < 0) {
      openSince = nanos;
    }
  }

  /** An operation succeeded now, on any thread: the server is back, if it was gone. */
  public void reachable() {
    if (openSince < 0) {
      return; // the hot path: called on every success
    }
    long nanos = System.nanoTime();
    synchronized (this) {
      if (openSince >= 0) {
        closed.add(new Interval(openSince, Math.max(nanos, openSince)));
        openSince = -1;
      }
    }
  }

  /** Seconds the server has been unreachable so far, or 0 while it is up. */
  public double downForSeconds(long nowNanos) {
    long since = openSince;
    return since < 0 ? 0 : (nowNanos - since) / 1e9;
  }

  /** Every outage up to {@code nowNanos}, an open one ending there. */
  public synchronized List<Interval> intervals(long nowNanos) {
    List<Interval> out = new ArrayList<>(closed);
    if (openSince >= 0) {
      out.add(new Interval(openSince, Math.max(nowNanos, openSince)));
    }
    return out;
  }
}
