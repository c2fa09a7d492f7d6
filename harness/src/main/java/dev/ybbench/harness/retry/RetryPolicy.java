package dev.ybbench.harness.retry;

import dev.ybbench.harness.metrics.OperationEvents;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * How a client thread retries, the same for every binding and the TPC-C terminal. One instance
 * per thread: it remembers whether this thread last found the server unreachable.
 *
 * <p>A retryable failure (a conflict, a read restart; over CQL also a timeout) is tried again up
 * to {@code maxRetries} times after a {@link #CONFLICTS} backoff, each retry reported as
 * {@link OperationEvents#retried}. What still fails is thrown to the caller, which counts it as an
 * error of its class; a failed attempt is never a success.
 *
 * <p>An attempt that finds the server unreachable is reported as
 * {@link OperationEvents#unreachable}, and the thread then waits an {@link #OUTAGE} pause, growing
 * with each such attempt in a row, before it tries the server again, in this operation or a later
 * one: without it a stopped server fails each thread's operations as fast as they can be sent,
 * thousands a second. The first success afterwards reports {@link OperationEvents#reachable} and
 * resets the pause. Every pause ends early on an interrupt or a stop request.
 */
public final class RetryPolicy<E extends Exception> {
  /** Between attempts that lost a race: the other transaction is usually done within milliseconds. */
  public static final Backoff CONFLICTS = new Backoff(5, 1000, true);
  /**
   * While the server is unreachable: a few attempts a second per thread at first, then one every
   * 2 s at most, so that a thread is never long away from seeing a stop request.
   */
  public static final Backoff OUTAGE = new Backoff(100, 2000, false);
  /** How often a pause looks at the stop request. */
  static final long STOP_CHECK_MILLIS = 100;

  /** One attempt of an operation. */
  @FunctionalInterface
  public interface Attempt<T, E extends Exception> {
    T run() throws E;
  }

  /** Time as the policy sees it. */
  interface Clock {
    Clock SYSTEM = new Clock() {
      @Override
      public long nanoTime() {
        return System.nanoTime();
      }

      @Override
      public void sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
      }
    };

    long nanoTime();

    void sleep(long millis) throws InterruptedException;
  }

  private final Class<E> errorType;
  private final Classifier<E> classifier;
  private final int maxRetries;
  private final Supplier<? extends OperationEvents> events;
  private final BooleanSupplier stopRequested;
  private final Clock clock;
  /** Null for the calling thread's own: asynchronous failures are reported from driver threads. */
  private final RandomGenerator random;
  /** Attempts in a row that found the server unreachable; changed under the lock. */
  private volatile int unreachableInARow;
  /** When this thread may try the server again. */
  private volatile long notBeforeNanos;

  private RetryPolicy(Class<E> errorType, Classifier<E> classifier, int maxRetries,
      Supplier<? extends OperationEvents> events, BooleanSupplier stopRequested, Clock clock,
      RandomGenerator random) {
    this.errorType = errorType;
    this.classifier = classifier;
    this.maxRetries = maxRetries;
    this.events = events;
    this.stopRequested = stopRequested;
    this.clock = clock;
    this.random = random;
    this.notBeforeNanos = clock.nanoTime();
  }

  /**
   * @param errorType  what the API's calls throw
   * @param maxRetries further attempts after the first, for a retryable failure
   * @param events     where retries and reachability are reported, asked at each report
   */
  public static <E extends Exception> RetryPolicy<E> of(Class<E> errorType, Classifier<E> classifier,
      int maxRetries, Supplier<? extends OperationEvents> events) {
    return new RetryPolicy<>(errorType, classifier, maxRetries, events, () -> false, Clock.SYSTEM, null);
  }

  /** The same policy, not retrying and cutting pauses short once {@code stopRequested} is true. */
  public RetryPolicy<E> stopWhen(BooleanSupplier stopRequested) {
    return new RetryPolicy<>(errorType, classifier, maxRetries, events, stopRequested, clock, random);
  }

  RetryPolicy<E> withTiming(Clock clock, RandomGenerator random) {
    return new RetryPolicy<>(errorType, classifier, maxRetries, events, stopRequested, clock, random);
  }

  /** Runs the operation's attempts until one succeeds or a failure ends it; throws that failure. */
  public <T> T call(String operation, Attempt<T, E> attempt) throws E {
    Attempts<E> attempts = null; // made at the first failure: a success allocates nothing here
    while (true) {
      awaitTurn();
      E error;
      try {
        T result = attempt.run();
        succeeded();
        return result;
      } catch (Exception e) {
        error = own(e);
      }
      if (attempts == null) {
        attempts = begin(operation);
      }
      Decision next = attempts.failed(error);
      if (!next.retry()) {
        if (next.failure().unreachable()) {
          // Waited here rather than before the next operation, so that it never counts in the
          // latency of a later success.
          awaitTurn();
        }
        throw error;
      }
      if (!pause(next.delayMillis())) {
        throw error;
      }
    }
  }

  /** A new operation whose attempts the caller runs itself (asynchronous requests). */
  public Attempts<E> begin(String operation) {
    return new Attempts<>(this, operation);
  }

  /**
   * An attempt succeeded: the server is reachable. Says so on every success, not only on this
   * thread's first after an outage: the server answered, so whatever outage another thread opened
   * is over (one node of several lost is not the server unreachable).
   */
  public void succeeded() {
    events.get().reachable();
    if (unreachableInARow == 0) {
      return; // one volatile read while the server is up
    }
    synchronized (this) {
      if (unreachableInARow > 0) {
        unreachableInARow = 0;
        notBeforeNanos = clock.nanoTime();
      }
    }
  }

  /**
   * Waits while this thread must leave an unreachable server alone; false if a stop request or an
   * interrupt cut the wait short.
   */
  public boolean awaitTurn() {
    return unreachableInARow == 0 || pauseUntil(notBeforeNanos);
  }

  Decision decide(Attempts<E> attempts, E error) {
    int attempt = ++attempts.failed;
    Failure failure = classifier.classify(error);
    boolean retry = failure.retryable() && attempt <= maxRetries && !stopRequested.getAsBoolean();
    long delay;
    if (failure.unreachable()) {
      delay = unreachable(attempts.operation, failure.errorClass());
      // One operation waits on an unreachable server for about one longest pause in all: a YCSB
      // thread sees a stop request only between operations.
      attempts.waitedOnOutageMillis += delay;
      retry &= attempts.waitedOnOutageMillis <= OUTAGE.maxMillis();
    } else {
      delay = CONFLICTS.delayMillis(attempt, random());
    }
    if (retry) {
      events.get().retried(attempts.operation, failure.errorClass());
    }
    return new Decision(failure, retry, delay);
  }

  private synchronized long unreachable(String operation, String errorClass) {
    int inARow = unreachableInARow + 1;
    unreachableInARow = inARow;
    long delay = OUTAGE.delayMillis(inARow, random());
    long until = clock.nanoTime() + delay * 1_000_000;
    if (until - notBeforeNanos > 0) {
      notBeforeNanos = until;
    }
    events.get().unreachable(operation, errorClass);
    return delay;
  }

  private boolean pause(long millis) {
    return pauseUntil(clock.nanoTime() + millis * 1_000_000);
  }

  private boolean pauseUntil(long untilNanos) {
    try {
      while (!stopRequested.getAsBoolean()) {
        long left = untilNanos - clock.nanoTime();
        if (left <= 0) {
          return true;
        }
        clock.sleep(Math.min(STOP_CHECK_MILLIS, (left + 999_999) / 1_000_000));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return false;
  }

  private RandomGenerator random() {
    return random != null ? random : ThreadLocalRandom.current();
  }

  private E own(Exception e) {
    if (errorType.isInstance(e)) {
      return errorType.cast(e);
    }
    if (e instanceof RuntimeException r) {
      throw r;
    }
    throw new IllegalStateException("an attempt threw " + e, e); // Attempt declares only E
  }
}
