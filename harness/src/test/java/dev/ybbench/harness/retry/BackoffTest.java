package dev.ybbench.harness.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.LongUnaryOperator;
import java.util.random.RandomGenerator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BackoffTest {
  /** Draws the top of every range. */
  static final RandomGenerator TOP = drawing(bound -> bound - 1);
  /** Draws the bottom of every range. */
  static final RandomGenerator BOTTOM = drawing(bound -> 0);

  private static RandomGenerator drawing(LongUnaryOperator pick) {
    return new RandomGenerator() {
      @Override
      public long nextLong() {
        throw new UnsupportedOperationException();
      }

      @Override
      public long nextLong(long bound) {
        return pick.applyAsLong(bound);
      }
    };
  }

  private static List<Long> ceilings(Backoff b, int attempts) {
    return IntStream.rangeClosed(1, attempts).mapToObj(b::ceilingMillis).toList();
  }

  @Test
  void conflictBackoffDoublesFrom5MsUpTo1S() {
    assertEquals(List.of(5L, 10L, 20L, 40L, 80L, 160L, 320L, 640L, 1000L, 1000L),
        ceilings(RetryPolicy.CONFLICTS, 10));
    assertEquals(1000, RetryPolicy.CONFLICTS.ceilingMillis(60));
  }

  @Test
  void outagePauseDoublesFrom100MsUpTo2S() {
    assertEquals(List.of(100L, 200L, 400L, 800L, 1600L, 2000L, 2000L), ceilings(RetryPolicy.OUTAGE, 7));
  }

  @Test
  void aConflictDelayIsDrawnFromZeroToItsCeiling() {
    Backoff b = RetryPolicy.CONFLICTS;
    assertEquals(5, b.delayMillis(1, TOP));
    assertEquals(0, b.delayMillis(1, BOTTOM));
    assertEquals(20, b.delayMillis(3, TOP));
    assertEquals(0, b.delayMillis(3, BOTTOM));
    assertEquals(1000, b.delayMillis(12, TOP));
    long sum = 0;
    for (int i = 0; i < 10_000; i++) {
      long d = b.delayMillis(3);
      assertTrue(d >= 0 && d <= 20, "delay " + d + " outside [0, 20]");
      sum += d;
    }
    assertEquals(10.0, sum / 10_000.0, 0.5, "uniform over [0, 20]");
  }

  @Test
  void anOutageDelayIsDrawnFromHalfToAllOfItsCeiling() {
    Backoff b = new Backoff(5, 100, false);
    assertEquals(5, b.delayMillis(1, TOP));
    assertEquals(2, b.delayMillis(1, BOTTOM));
    assertEquals(20, b.delayMillis(3, TOP));
    assertEquals(10, b.delayMillis(3, BOTTOM));
    assertEquals(100, b.delayMillis(9, TOP));
    assertEquals(50, b.delayMillis(9, BOTTOM));
    for (int i = 0; i < 1000; i++) {
      long d = b.delayMillis(3);
      assertTrue(d >= 10 && d <= 20, "delay " + d + " outside [10, 20]");
    }
  }
}
