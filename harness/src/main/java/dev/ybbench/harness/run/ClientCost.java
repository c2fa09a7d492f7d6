package dev.ybbench.harness.run;

import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.server.ProcessCpu;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What the client process itself spent on a phase's measured window: its CPU (the JVM's process
 * CPU time: every thread, the JIT compiler and the garbage collector too; and a client it ran as
 * a process of its own and waited for, sysbench), that per operation,
 * how busy it kept its cores, and its peak resident memory. A client that keeps its cores busy
 * measures itself, not the server: above {@link PhaseResult.ClientSide#BUSY_WARNING_PCT} the run
 * says so.
 */
final class ClientCost {
  private final long cpuNanos;
  private final long wallNanos;

  private ClientCost(long cpuNanos, long wallNanos) {
    this.cpuNanos = cpuNanos;
    this.wallNanos = wallNanos;
  }

  /** The window starts now. */
  static ClientCost start() {
    return new ClientCost(cpuNanos(), System.nanoTime());
  }

  /** The window from {@link #start()} to now, over {@code operations} (a load measured in rows: its rows). */
  PhaseResult.ClientSide end(long operations) {
    double cpuS = (cpuNanos() - cpuNanos) / 1e9;
    double wallS = Math.max((System.nanoTime() - wallNanos) / 1e9, 1e-9);
    int cores = Runtime.getRuntime().availableProcessors();
    return PhaseResult.ClientSide.of(cpuS, operations, cores, 100 * cpuS / (wallS * cores), peakRssBytes());
  }

  /** The warning for a client that kept its cores busier than the bottleneck share, or null. */
  static String warning(String phase, PhaseResult.ClientSide client) {
    if (client.busyPct() <= PhaseResult.ClientSide.BUSY_WARNING_PCT) {
      return null;
    }
    return String.format(Locale.ROOT, "warning: the client used %.0f %% of its %d cores during %s: the client may be "
        + "the bottleneck: add clients or threads elsewhere", client.busyPct(), client.cores(), phase);
  }

  /** The process's CPU time so far, user and system, with its children's that have ended. */
  static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime() + ProcessCpu.exitedChildrenNanos(ProcessHandle.current().pid());
  }

  /**
   * The process's peak resident set so far (Linux's VmHWM, what {@code /usr/bin/time -v} reports
   * as its maximum resident set size), or null where /proc/self/status cannot tell.
   */
  static Long peakRssBytes() {
    try {
      return peakRssBytes(Files.readString(Path.of("/proc/self/status")));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  static Long peakRssBytes(String status) {
    for (String line : status.split("\n")) {
      if (line.startsWith("VmHWM:")) {
        String[] f = line.substring("VmHWM:".length()).trim().split("\\s+");
        return Long.parseLong(f[0]) * 1024; // the kernel writes kB
      }
    }
    return null;
  }
}
