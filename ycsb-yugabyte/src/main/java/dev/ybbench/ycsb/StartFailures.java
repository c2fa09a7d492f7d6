package dev.ybbench.ycsb;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Client threads of a phase whose binding could not start. The first cause is kept for the run's
 * one-line reason; the threads end quietly instead of printing a stack trace each.
 */
final class StartFailures implements Thread.UncaughtExceptionHandler {
  /** Ends a client thread whose binding failed to start. */
  static final class Failed extends RuntimeException {
    Failed(Throwable cause) {
      super(cause.getMessage(), cause, false, false);
    }
  }

  private final AtomicInteger count = new AtomicInteger();
  private final AtomicReference<String> first = new AtomicReference<>();

  /** Records a binding's failure to start and returns what ends its thread. */
  Failed failed(Throwable cause) {
    String msg = cause.getMessage() == null ? cause.toString() : cause.getMessage();
    first.compareAndSet(null, msg.strip().split("\n")[0]);
    count.incrementAndGet();
    return new Failed(cause);
  }

  int count() {
    return count.get();
  }

  String first() {
    return first.get();
  }

  @Override
  public void uncaughtException(Thread t, Throwable e) {
    if (!(e instanceof Failed)) {
      failed(e); // a binding bug in the middle of a run: the phase must end, not wait for this thread
    }
  }
}
