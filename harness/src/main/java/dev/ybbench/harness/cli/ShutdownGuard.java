package dev.ybbench.harness.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * Ctrl-C for an entry point: the shutdown hook asks the work to stop, then waits while the main
 * thread writes what was measured (marked interrupted) and stops the embedded server; only if
 * that takes longer than the grace period does it stop the server itself.
 */
public final class ShutdownGuard {
  /** The exit code after Ctrl-C, as a shell reports a process ended by SIGINT. */
  public static final int EXIT_INTERRUPTED = 130;
  /** Said at once on Ctrl-C (or SIGTERM), before the stop, which may take a few seconds. */
  public static final String STOPPING = "Stopping: interrupted";

  private final CountDownLatch finished = new CountDownLatch(1);
  private final Runnable stopWork;
  private final Runnable lastResort;
  private final Duration grace;
  private volatile boolean interrupted;

  /**
   * @param stopWork   asks the running work to end early
   * @param lastResort stops servers if the main thread has not finished within {@code grace}
   */
  public ShutdownGuard(Runnable stopWork, Runnable lastResort, Duration grace) {
    this.stopWork = stopWork;
    this.lastResort = lastResort;
    this.grace = grace;
  }

  /** True once Ctrl-C (or another termination signal) has arrived. */
  public boolean interrupted() {
    return interrupted;
  }

  /** The main thread is done: results written, servers stopped. */
  public void finished() {
    finished.countDown();
  }

  /**
   * Runs {@code body} as the process's main and exits with its code; after Ctrl-C the JVM is
   * already exiting, so this returns and lets the hook finish.
   */
  public void runMain(IntSupplier body) {
    Thread hook = new Thread(this::onShutdown, "ybbench-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    int rc = body.getAsInt();
    if (!interrupted) {
      Runtime.getRuntime().removeShutdownHook(hook);
      System.exit(rc);
    }
  }

  private void onShutdown() {
    if (finished.getCount() == 0) {
      return;
    }
    interrupted = true;
    stopWork.run();
    try {
      if (!finished.await(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        lastResort.run();
      }
    } catch (InterruptedException ignored) {
      // exiting anyway
    }
  }
}
