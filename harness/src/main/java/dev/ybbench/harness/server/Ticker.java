package dev.ybbench.harness.server;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** A daemon thread running a reading of the server at a fixed rate, until stopped. */
final class Ticker {
  private final ScheduledExecutorService executor;

  /** Runs {@code task} every {@code periodNanos}, the first after {@code delayNanos}, on a thread named {@code name}. */
  Ticker(String name, Runnable task, long delayNanos, long periodNanos) {
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
    executor.scheduleAtFixedRate(task, delayNanos, periodNanos, TimeUnit.NANOSECONDS);
  }

  /** Stops it, waiting (10 s at most) for a reading under way to end. */
  void stop() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
