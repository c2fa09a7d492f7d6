package dev.ybbench.ycsb.client;

import dev.ybbench.harness.ErrorText;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Client threads of a phase that could not start (their binding or workload state failed) or
 * that failed later (a binding or workload throwing). The first cause is kept for the run's
 * one-line reason; the threads end quietly instead of printing a stack trace each.
 */
public final class ClientThreadFailures implements Thread.UncaughtExceptionHandler {
  /** Ends a client thread whose binding failed to start. */
  public static final class Failed extends RuntimeException {
    Failed(Throwable cause) {
      super(cause.getMessage(), cause, false, false);
    }
  }

  private final AtomicInteger notStarted = new AtomicInteger();
  private final AtomicInteger failedLater = new AtomicInteger();
  private final AtomicReference<String> first = new AtomicReference<>();

  /** Records a thread's failure to start and returns what ends it. */
  public Failed failed(Throwable cause) {
    keep(cause);
    notStarted.incrementAndGet();
    return new Failed(cause);
  }

  /** Records a thread that failed after it started (its cleanup, or an exception out of the workload). */
  public void failedLater(Throwable cause) {
    keep(cause);
    failedLater.incrementAndGet();
  }

  private void keep(Throwable cause) {
    first.compareAndSet(null, ErrorText.firstLine(cause));
  }

  public int count() {
    return notStarted.get() + failedLater.get();
  }

  /** "2 of 8 client threads could not start: …", or "… failed: …" when all of them started. */
  public String reason(int threads) {
    return count() + " of " + threads + " client threads " + (notStarted.get() > 0 ? "could not start" : "failed")
        + ": " + first.get();
  }

  @Override
  public void uncaughtException(Thread t, Throwable e) {
    if (!(e instanceof Failed)) {
      failedLater(e); // the phase must end, not wait for this thread
    }
  }
}
