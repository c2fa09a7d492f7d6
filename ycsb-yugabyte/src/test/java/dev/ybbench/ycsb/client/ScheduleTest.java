package dev.ybbench.ycsb.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A thread's target schedule, and its restart as the measured window opens. */
class ScheduleTest {
  @Test
  void operationsAreDueOneIntervalApartFromTheThreadsOffset() {
    ClientLoop.Schedule s = new ClientLoop.Schedule(5_000_000, 1_000_000, 100_000_000);
    assertEquals(101_000_000, s.intended(0, 0));
    assertEquals(106_000_000, s.intended(1, 0));
    assertEquals(151_000_000, s.intended(10, 0));
  }

  @Test
  void aRestartDropsTheBacklogAndKeepsTheOffset() {
    ClientLoop.Schedule s = new ClientLoop.Schedule(5_000_000, 1_000_000, 100_000_000);
    assertEquals(151_000_000, s.intended(10, 0));
    // The warm-up ends at 2 s with operation 11 due long ago (at 156 ms): it is due now, not caught up.
    assertEquals(2_001_000_000, s.intended(11, 2_000_000_000));
    assertEquals(2_006_000_000, s.intended(12, 2_000_000_000));
    assertEquals(2_051_000_000, s.intended(21, 2_000_000_000));
  }
}
