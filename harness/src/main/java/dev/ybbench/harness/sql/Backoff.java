package dev.ybbench.harness.sql;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with jitter between attempts: attempt 1 waits up to base, attempt 2 up to
 * 2×base, … capped at max, each wait drawn from [half, full] so that conflicting clients spread out
 * instead of colliding again in step.
 */
public record Backoff(long baseMillis, long maxMillis) {
  public static final Backoff DEFAULT = new Backoff(5, 1000);

  /** The longest wait before retry {@code attempt} (1-based). */
  public long ceilingMillis(int attempt) {
    int shift = Math.min(Math.max(attempt - 1, 0), 30);
    return Math.min(maxMillis, baseMillis << shift);
  }

  public long delayMillis(int attempt) {
    long ceiling = ceilingMillis(attempt);
    return ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);
  }

  /** Sleeps before retry {@code attempt}; false if interrupted (stop retrying). */
  public boolean pause(int attempt) {
    try {
      Thread.sleep(delayMillis(attempt));
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
