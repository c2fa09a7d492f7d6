package dev.ybbench.harness.retry;

import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with jitter between attempts: attempt 1 waits up to base, attempt 2 up to
 * 2×base, … capped at max, each wait drawn from [half, full] so that conflicting clients spread out
 * instead of colliding again in step.
 */
public record Backoff(long baseMillis, long maxMillis) {
  /** The longest wait before retry {@code attempt} (1-based). */
  public long ceilingMillis(int attempt) {
    int shift = Math.min(Math.max(attempt - 1, 0), 30);
    return Math.min(maxMillis, baseMillis << shift);
  }

  public long delayMillis(int attempt) {
    return delayMillis(attempt, ThreadLocalRandom.current());
  }

  public long delayMillis(int attempt, RandomGenerator random) {
    long ceiling = ceilingMillis(attempt);
    long half = ceiling / 2;
    return half + random.nextLong(ceiling - half + 1);
  }
}
