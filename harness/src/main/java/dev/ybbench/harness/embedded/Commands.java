package dev.ybbench.harness.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The short commands that prepare, start and stop a server (id, chown, initdb, pg_ctl), run to
 * their end with their output. Ctrl-C interrupts the thread that starts a server: the command
 * then runs to its end (a pg_ctl start killed half-way leaves a postmaster starting with nobody
 * to stop it), except one that may be killed ({@link #runKillable}: initdb, a few seconds, more
 * on a busy machine).
 */
final class Commands {
  private Commands() {}

  record Result(int exitCode, String output) {
    static final String INTERRUPTED = "interrupted";
  }

  /** Runs the command to its end, an interrupt or not (the interrupt is kept for the caller). */
  static Result run(ProcessBuilder pb, Duration timeout) {
    return run(pb, timeout, false);
  }

  /**
   * Runs the command; an interrupt kills it and its children, and waits until they are gone
   * (initdb's bootstrap backend, which would go on writing the data directory the caller then
   * removes).
   */
  static Result runKillable(ProcessBuilder pb, Duration timeout) {
    return run(pb, timeout, true);
  }

  private static Result run(ProcessBuilder pb, Duration timeout, boolean killable) {
    Process p;
    try {
      p = pb.redirectErrorStream(true).start();
    } catch (IOException e) {
      return new Result(-1, e.getMessage());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // Read beside the wait: a read of the pipe cannot be interrupted, a wait for the process can.
    Thread reader = new Thread(() -> {
      try (InputStream in = p.getInputStream()) {
        in.transferTo(out);
      } catch (IOException ignored) {
        // the process was killed
      }
    }, "command-output");
    reader.setDaemon(true);
    reader.start();
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean interrupted = false;
    try {
      while (true) {
        try {
          if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            p.destroyForcibly();
            return new Result(-1, "timed out: " + String.join(" ", pb.command()));
          }
          reader.join(TimeUnit.SECONDS.toMillis(5));
          return new Result(p.exitValue(), out.toString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
          interrupted = true; // kept for the caller, whichever way this ends
          if (killable) {
            List<ProcessHandle> killed = new ArrayList<>(p.descendants().toList());
            killed.add(p.toHandle());
            killed.forEach(ProcessHandle::destroyForcibly);
            killed.forEach(h -> awaitGone(h, Duration.ofSeconds(2)));
            return new Result(-1, Result.INTERRUPTED);
          }
          // otherwise waited for all the same
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Waits until a process has ended, at most {@code max}. A server is not this JVM's child (pg_ctl
   * started it), and the JDK waits for such a process by polling every 300 ms and more; nor is it
   * reaped at once, as its new parent (init, or a container's first process) reaps when it will.
   * So: polled every 10 ms, ended once gone or a zombie (which holds no port, file or memory).
   */
  static void awaitGone(ProcessHandle process, Duration max) {
    long deadline = System.nanoTime() + max.toNanos();
    boolean interrupted = false;
    while (running(process) && System.nanoTime() < deadline) {
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        interrupted = true; // a stop in progress is finished first
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Whether the process still runs: not gone and not a zombie waiting to be reaped. */
  static boolean running(ProcessHandle process) {
    return process.isAlive() && !zombie(process.pid());
  }

  private static boolean zombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // "pid (comm) S …": the state follows the last ')' (comm may hold any character).
      int end = stat.lastIndexOf(')');
      return end < 0 || end + 2 >= stat.length() || stat.charAt(end + 2) == 'Z';
    } catch (IOException e) {
      return true; // gone
    }
  }
}
