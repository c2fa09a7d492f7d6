package dev.ybbench.harness.server;

import java.util.Map;

/**
 * Samples what a phase's sessions wait on during its measured window ({@link WaitProfile}):
 * begun as the window opens, ended as it closes, read in between for the server's timeseries.
 */
public interface WaitSampler {
  /** The window opens. */
  void begin();

  /**
   * The events sampled on {@code node} (as server-timeseries.csv names it) in {@code (fromNanos,
   * toNanos]} ({@link System#nanoTime()}), weighted, for its line of the file; empty when none.
   */
  Map<String, Double> between(String node, long fromNanos, long toNanos);

  /** The window closes: the profile, its samples given to the statements the server's view names. */
  WaitProfile end();
}
