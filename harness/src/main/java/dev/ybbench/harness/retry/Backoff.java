package dev.ybbench.harness.retry;

import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with jitter between attempts: attempt 1 waits up to base, attempt 2 up to
 * 2×base, … capped at max. Each wait is drawn from [0, ceiling] ("full jitter") or from [half,
 * ceiling], so that conflicting clients spread out instead of colliding again in step. Full
 * jitter suits conflicts: the first retry often goes at once, as the other transaction is
 * usually done, and the clients that keep losing spread over the whole range (measured on
 * TPC-C's Delivery alone, in docs/performance.md). Half jitter suits an outage: no thread comes back
 * sooner than half its pause.
 */
public record Backoff(long baseMillis, long maxMillis, boolean fullJitter) {
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
    long floor = fullJitter ? 0 : ceiling / 2;
    return floor + random.nextLong(ceiling - floor + 1);
  }
}
