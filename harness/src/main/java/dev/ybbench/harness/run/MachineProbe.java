package dev.ybbench.harness.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A cheap probe of the client machine, taken as every run ends: how much of a fixed piece of work
 * all its cores do at once (a neighbour that takes one core shows, as a probe of one core would
 * not), and the round trip of one byte over loopback TCP. A night's run that is slower
 * than its history while the probe is slower too may be the machine's dip rather than the
 * build's, which one run against a history cannot tell (compare.sh names it). The figures mean
 * something only against the same machine's: they are no benchmark of it.
 */
public final class MachineProbe {
  /**
   * Each part's time; {@code -Dybbench.probe.ms} shortens it (the tests, which make hundreds of
   * runs) or, at 0, leaves the probe out (the benchmark scripts that measure the client's CPU).
   */
  static final long PART_MS = Long.getLong("ybbench.probe.ms", 1000);

  private MachineProbe() {}

  /**
   * The probe as run.json records it: {@code cpu_units_per_s} (a unit: 4,096 steps of a
   * xorshift generator folded into a hash; all {@code cpu_threads} threads' together, one a
   * core), {@code loopback_rtt_us} (the median round trip),
   * {@code loopback_round_trips} (null where it could not run: no loopback); null when left out.
   */
  public static Map<String, Object> take() {
    if (PART_MS <= 0) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    int threads = Runtime.getRuntime().availableProcessors();
    double cpu = cpuUnitsPerSecond(PART_MS, threads);
    m.put("cpu_units_per_s", Double.isNaN(cpu) ? null : Math.round(cpu));
    m.put("cpu_threads", threads);
    double[] rtt = loopback(PART_MS);
    m.put("loopback_rtt_us", rtt == null ? null : Math.round(rtt[0] * 10) / 10.0);
    m.put("loopback_round_trips", rtt == null ? null : (long) rtt[1]);
    m.put("seconds_each", PART_MS / 1000.0);
    return m;
  }

  /** Work units {@code threads} threads do per second together. */
  static double cpuUnitsPerSecond(long ms, int threads) {
    double[] each = new double[threads];
    Thread[] started = new Thread[threads];
    for (int i = 0; i < threads; i++) {
      int t = i;
      started[i] = new Thread(() -> each[t] = cpuUnitsPerSecond(ms), "probe-cpu-" + i);
      started[i].start();
    }
    double sum = 0;
    for (int i = 0; i < threads; i++) {
      try {
        started[i].join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Double.NaN;
      }
      sum += each[i];
    }
    return sum;
  }

  /** Work units one thread does per second. */
  static double cpuUnitsPerSecond(long ms) {
    long end = System.nanoTime() + ms * 1_000_000;
    long start = System.nanoTime();
    long units = 0;
    long x = 88172645463325252L;
    long hash = 0;
    long now;
    do {
      for (int i = 0; i < 4096; i++) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        hash = (hash ^ x) * 0x100000001b3L;
      }
      units++;
      now = System.nanoTime();
    } while (now < end);
    sink = hash;
    return units / ((now - start) / 1e9);
  }

  /** Keeps the work from being optimized away. */
  private static volatile long sink;

  /** {median round trip in µs, round trips}, or null without loopback. */
  static double[] loopback(long ms) {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread echo = new Thread(() -> {
        try (Socket s = server.accept(); InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
          s.setTcpNoDelay(true);
          int b;
          while ((b = in.read()) >= 0) {
            out.write(b);
          }
        } catch (IOException e) {
          // the probe ended
        }
      }, "probe-echo");
      echo.setDaemon(true);
      echo.start();
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
        s.setTcpNoDelay(true);
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream();
        long[] trips = new long[1 << 16];
        int n = 0;
        long end = System.nanoTime() + ms * 1_000_000;
        while (System.nanoTime() < end) {
          long t0 = System.nanoTime();
          out.write(1);
          if (in.read() < 0) {
            return null;
          }
          trips[n % trips.length] = System.nanoTime() - t0;
          n++;
        }
        long[] kept = Arrays.copyOf(trips, Math.min(n, trips.length));
        Arrays.sort(kept);
        return kept.length == 0 ? null : new double[] {kept[kept.length / 2] / 1000.0, n};
      }
    } catch (IOException e) {
      return null;
    }
  }
}
