package dev.ybbench.harness.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of a server process and its children from /proc, so that server CPU per operation
 * stands next to the client's. The parent's cutime/cstime hold the children that have already
 * exited (PostgreSQL's postmaster waits for its backends), the live ones are read one by one.
 */
public final class ProcessCpu {
  /** Linux's USER_HZ; /proc/PID/stat counts in these ticks on every mainstream architecture. */
  static final long TICKS_PER_SECOND = 100;

  private ProcessCpu() {}

  /** CPU nanoseconds of {@code pid} and every descendant, or null where /proc cannot tell. */
  public static Long nanos(long pid) {
    ProcessHandle root = ProcessHandle.of(pid).orElse(null);
    if (root == null) {
      return null;
    }
    long ticks = ticks(pid, true);
    if (ticks < 0) {
      return null;
    }
    for (ProcessHandle child : root.descendants().toList()) {
      ticks += Math.max(0, ticks(child.pid(), false));
    }
    return ticks * (1_000_000_000L / TICKS_PER_SECOND);
  }

  /** CPU nanoseconds of the children of {@code pid} that have exited and been waited for; 0 where /proc cannot tell. */
  public static long exitedChildrenNanos(long pid) {
    long all = ticks(pid, true);
    long own = ticks(pid, false);
    return all < 0 || own < 0 ? 0 : (all - own) * (1_000_000_000L / TICKS_PER_SECOND);
  }

  /** utime + stime (+ cutime + cstime), from the fields after the command name in /proc/PID/stat. */
  static long ticks(long pid, boolean withExitedChildren) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return ticks(stat, withExitedChildren);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  static long ticks(String stat, boolean withExitedChildren) {
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long t = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime: fields 14 and 15
    if (withExitedChildren) {
      t += Long.parseLong(f[13]) + Long.parseLong(f[14]); // cutime, cstime: fields 16 and 17
    }
    return t;
  }
}
