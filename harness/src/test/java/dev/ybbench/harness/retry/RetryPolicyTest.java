package dev.ybbench.harness.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationEvents;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/** The policy on a fake clock that sleeps by moving its hands, with jitter drawn at the top. */
class RetryPolicyTest {
  private static final Failure CONFLICT = new Failure("sqlstate-40001", true, false, true);
  private static final Failure FATAL = new Failure("sqlstate-23505", false, false, false);
  /** SQL's lost connection: the transaction's fate is unknown, so it is not sent again. */
  private static final Failure CONNECTION = new Failure("connection", false, true, false);
  /** CQL's: an idempotent write that may go to another node. */
  private static final Failure NO_NODE = new Failure("no-node", true, true, false);

  static final class Failed extends Exception {
    final Failure failure;

    Failed(Failure failure) {
      super(failure.errorClass());
      this.failure = failure;
    }
  }

  static final class FakeClock implements RetryPolicy.Clock {
    long nanos = 5_000_000_000L;
    final List<Long> sleeps = new ArrayList<>();
    Runnable afterSleep = () -> { };

    @Override
    public long nanoTime() {
      return nanos;
    }

    @Override
    public void sleep(long millis) {
      sleeps.add(millis);
      nanos += millis * 1_000_000;
      afterSleep.run();
    }

    long millis() {
      return nanos / 1_000_000 - 5000;
    }
  }

  static final class RecordedEvents implements OperationEvents {
    final List<String> seen = new ArrayList<>();

    @Override
    public void retried(String operation, String errorClass) {
      seen.add("retried " + operation + " " + errorClass);
    }

    @Override
    public void lost(String operation, String errorClass, int count) {
      seen.add("lost " + operation + " " + errorClass + " " + count);
    }

    @Override
    public void unreachable(String operation, String errorClass) {
      seen.add("unreachable " + operation + " " + errorClass);
    }

    @Override
    public void reachable() {
      seen.add("reachable");
    }
  }

  /** Fails with the given failures in turn, then succeeds; remembers when each attempt began. */
  final class Script implements RetryPolicy.Attempt<String, Failed> {
    final Iterator<Failure> failures;
    final List<Failed> thrown = new ArrayList<>();
    final List<Long> startedAt = new ArrayList<>();

    Script(Failure... failures) {
      this.failures = List.of(failures).iterator();
    }

    @Override
    public String run() throws Failed {
      startedAt.add(clock.millis());
      if (failures.hasNext()) {
        Failed f = new Failed(failures.next());
        thrown.add(f);
        throw f;
      }
      return "ok";
    }
  }

  private final FakeClock clock = new FakeClock();
  private final RecordedEvents events = new RecordedEvents();
  private boolean stop;

  private RetryPolicy<Failed> policy(int maxRetries) {
    BooleanSupplier stopRequested = () -> stop;
    return RetryPolicy.of(Failed.class, f -> f.failure, maxRetries, () -> events)
        .stopWhen(stopRequested)
        .withTiming(clock, BackoffTest.TOP);
  }

  private static Failure[] times(int n, Failure f) {
    Failure[] all = new Failure[n];
    java.util.Arrays.fill(all, f);
    return all;
  }

  @Test
  void conflictsAreRetriedAfterABackoffAndEachRetryIsReported() throws Exception {
    Script script = new Script(CONFLICT, CONFLICT, CONFLICT);
    assertEquals("ok", policy(3).call("UPDATE", script));
    assertEquals(List.of("retried UPDATE sqlstate-40001", "retried UPDATE sqlstate-40001",
        "retried UPDATE sqlstate-40001", "reachable"), events.seen);
    assertEquals(List.of(5L, 10L, 20L), clock.sleeps);
    assertEquals(List.of(0L, 5L, 15L, 35L), script.startedAt);
  }

  @Test
  void aFatalErrorIsNotRetried() {
    Script script = new Script(FATAL);
    Failed thrown = assertThrows(Failed.class, () -> policy(3).call("INSERT", script));
    assertSame(script.thrown.get(0), thrown);
    assertEquals(List.of(), events.seen);
    assertEquals(List.of(), clock.sleeps);
  }

  @Test
  void whenRetriesRunOutTheLastErrorIsThrown() {
    Script script = new Script(times(5, CONFLICT));
    Failed thrown = assertThrows(Failed.class, () -> policy(3).call("READ", script));
    assertEquals(4, script.thrown.size(), "the first attempt and 3 retries");
    assertSame(script.thrown.get(3), thrown);
    assertEquals(3, events.seen.size());
  }

  @Test
  void anotherExceptionPassesThroughUntouched() {
    IllegalStateException bug = new IllegalStateException("bug");
    RetryPolicy.Attempt<String, Failed> attempt = () -> {
      throw bug;
    };
    assertSame(bug, assertThrows(IllegalStateException.class, () -> policy(3).call("READ", attempt)));
    assertEquals(List.of(), events.seen);
  }

  @Test
  void anUnreachableServerIsLeftAloneForAGrowingPauseUntilASuccess() throws Exception {
    RetryPolicy<Failed> p = policy(10);
    Script script = new Script(CONNECTION, CONNECTION, CONNECTION);
    for (int i = 0; i < 3; i++) {
      assertThrows(Failed.class, () -> p.call("READ", script));
    }
    assertEquals("ok", p.call("READ", script));
    assertEquals("ok", p.call("READ", script));
    // Not retried within an operation, but each next attempt waits 100, 200, 400 ms.
    assertEquals(List.of(0L, 100L, 300L, 700L, 700L), script.startedAt);
    assertEquals(List.of("unreachable READ connection", "unreachable READ connection",
        "unreachable READ connection", "reachable", "reachable"), events.seen, "every success says so");

    Script again = new Script(CONNECTION);
    assertThrows(Failed.class, () -> p.call("READ", again));
    assertEquals(800, clock.millis(), "a success starts the pause over at 100 ms");
  }

  @Test
  void aRetryableUnreachableErrorIsRetriedForAboutOneLongestPausePerOperation() {
    RetryPolicy<Failed> p = policy(10);
    Script script = new Script(times(20, NO_NODE));
    assertThrows(Failed.class, () -> p.call("UPDATE", script));
    // 100 + 200 + 400 + 800 ms waited; the next 1600 would pass 2 s, so the operation ends after it.
    assertEquals(List.of(0L, 100L, 300L, 700L, 1500L), script.startedAt);
    assertEquals(3100, clock.millis());
    assertEquals(5, events.seen.stream().filter(e -> e.equals("unreachable UPDATE no-node")).count());
    assertEquals(4, events.seen.stream().filter(e -> e.equals("retried UPDATE no-node")).count());

    assertThrows(Failed.class, () -> p.call("UPDATE", script));
    assertEquals(List.of(0L, 100L, 300L, 700L, 1500L, 3100L, 5100L), script.startedAt);
    assertEquals(7100, clock.millis());
  }

  @Test
  void anotherThreadsSuccessEndsTheOutage() throws Exception {
    // One node of three lost: the thread that was talking to it finds the server unreachable and
    // pauses, while another thread's next operation is answered. The server was not gone.
    Metrics phase = new Metrics();
    RetryPolicy<Failed> lost = RetryPolicy.of(Failed.class, f -> f.failure, 10, () -> phase).withTiming(clock, BackoffTest.TOP);
    RetryPolicy<Failed> other = RetryPolicy.of(Failed.class, f -> f.failure, 10, () -> phase).withTiming(clock, BackoffTest.TOP);
    assertThrows(Failed.class, () -> lost.call("READ", new Script(CONNECTION)));
    assertEquals(1, phase.outages().intervals(Long.MAX_VALUE).size(), "the outage opened");
    assertEquals("ok", other.call("READ", new Script()));
    assertEquals(0, phase.outages().downForSeconds(Long.MAX_VALUE), "another thread's success closed it");
    assertEquals(1, phase.outages().intervals(Long.MAX_VALUE).size());
  }

  @Test
  void anAsynchronousFailureDelaysTheThreadsNextAttempt() {
    RetryPolicy<Failed> p = policy(10);
    Decision d = p.begin("INSERT").failed(new Failed(NO_NODE));
    assertEquals(new Decision(NO_NODE, true, 100), d);
    assertEquals(List.of("unreachable INSERT no-node", "retried INSERT no-node"), events.seen);
    assertTrue(p.awaitTurn());
    assertEquals(100, clock.millis());
    p.succeeded();
    p.succeeded();
    assertEquals(List.of("unreachable INSERT no-node", "retried INSERT no-node", "reachable", "reachable"), events.seen);
    assertTrue(p.awaitTurn());
    assertEquals(100, clock.millis());
  }

  @Test
  void aStopRequestCutsAPauseShortAndEndsRetrying() {
    RetryPolicy<Failed> p = policy(10);
    Script down = new Script(times(4, CONNECTION));
    for (int i = 0; i < 3; i++) {
      assertThrows(Failed.class, () -> p.call("READ", down));
    }
    assertEquals(700, clock.millis());
    clock.afterSleep = () -> stop = true;
    assertThrows(Failed.class, () -> p.call("READ", down));
    assertEquals(800, clock.millis(), "the 800 ms pause ends at the first look at the stop request");

    Script conflict = new Script(CONFLICT, CONFLICT);
    assertThrows(Failed.class, () -> p.call("UPDATE", conflict));
    assertEquals(1, conflict.thrown.size(), "not retried once stopping");
  }

  @Test
  void anInterruptEndsThePauseAtOnce() {
    RetryPolicy<Failed> p = RetryPolicy.of(Failed.class, f -> f.failure, 10, () -> events);
    Script script = new Script(times(20, NO_NODE));
    long start = System.nanoTime();
    Thread.currentThread().interrupt();
    try {
      assertThrows(Failed.class, () -> p.call("READ", script));
    } finally {
      assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
    }
    assertEquals(1, script.thrown.size());
    assertTrue(System.nanoTime() - start < 50_000_000L);
  }
}
