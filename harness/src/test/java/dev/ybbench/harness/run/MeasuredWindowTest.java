package dev.ybbench.harness.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.metrics.Timeseries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeasuredWindowTest {
  @TempDir
  Path dir;

  /**
   * The workers move to the window's metrics while the phase begins, at the instant its snapshot
   * counts the server's statements: what ends before that is the warm-up's on both sides, what ends
   * after it the window's.
   */
  @Test
  void theWorkersSwitchAtTheInstantTheServerIsCounted() throws Exception {
    try (Timeseries ts = new Timeseries(dir.resolve("timeseries.csv"))) {
      List<String> seen = new ArrayList<>();
      AtomicReference<MeasuredWindow> w = new AtomicReference<>();
      AtomicReference<Metrics> workers = new AtomicReference<>();
      MeasuredWindow window = new MeasuredWindow("run", true, "warmup", dir, ts, counting -> {
        seen.add("connected, recording the " + name(w.get(), w.get().recording()));
        counting.run();
        seen.add("counted, recording the " + name(w.get(), w.get().recording()));
      });
      w.set(window);
      workers.set(window.recording());
      assertSame(window.warmup(), workers.get());
      PhaseRecorder recorder = window.open(5, workers::set);
      assertEquals(List.of("connected, recording the warm-up", "counted, recording the window"), seen);
      assertSame(window.window(), workers.get());
      assertSame(recorder, window.recorder());
      assertNotNull(window.warmupResult(), "the warm-up's result is kept");
      assertSame(recorder, window.open(6, m -> seen.add("switched again")), "a window opens once");
      assertEquals(2, seen.size());
      recorder.close();
    }
  }

  /**
   * The warm-up's seconds end where the window's begin, though the phase's first snapshot of the
   * server goes on after that instant: no second of the warm-up is read over time it no longer had,
   * and no row of no operations follows it.
   */
  @Test
  void theWarmupsLastSecondEndsWhereTheWindowBegins() throws Exception {
    Path csv = dir.resolve("timeseries.csv");
    AtomicReference<MeasuredWindow> w = new AtomicReference<>();
    try (Timeseries ts = new Timeseries(csv)) {
      MeasuredWindow window = new MeasuredWindow("run", true, "warmup", dir, ts, counting -> {
        counting.run();
        record(w.get().window(), 50);
        sleep(1_200); // the rest of the snapshot, and server.json: the warm-up's ticker runs meanwhile
      });
      w.set(window);
      record(window.warmup(), 100);
      sleep(1_500); // a tick of the warm-up's (on a busy machine, perhaps none yet), and part of a second
      record(window.warmup(), 30);
      PhaseRecorder recorder = window.open(1, m -> {});
      double switched = (recorder.startNanos() - window.warmupRecorder().startNanos()) / 1e9;
      recorder.close();
      assertEquals(130, window.warmupResult().successes());
      List<double[]> rows = Files.readAllLines(csv).stream().filter(l -> l.startsWith("warmup,"))
          .map(l -> l.split(",")).map(f -> new double[] {Double.parseDouble(f[1]), Double.parseDouble(f[2])})
          .toList();
      assertEquals(switched, rows.get(rows.size() - 1)[0], 0.001, "the last row ends at the switch");
      double from = 0;
      double operations = 0;
      for (double[] row : rows) {
        assertTrue(row[1] > 0, "a second the warm-up had operations in, each at its own rate: " + row[1]);
        operations += row[1] * (row[0] - from); // a row's rate is over its own length
        from = row[0];
      }
      assertEquals(130, operations, 1);
    }
  }

  @Test
  void aPhaseThatNeverCountsCannotOpenItsWindow() throws Exception {
    try (Timeseries ts = new Timeseries(dir.resolve("timeseries.csv"))) {
      MeasuredWindow window = new MeasuredWindow("run", true, "warmup", dir, ts, counting -> {});
      assertThrows(IllegalStateException.class, () -> window.open(5, m -> {}));
      assertNull(window.recorder());
      window.warmupRecorder().close();
    }
  }

  private static void record(Metrics m, int successes) {
    for (int i = 0; i < successes; i++) {
      m.operation("READ").success(100);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String name(MeasuredWindow w, Metrics m) {
    return m == w.warmup() ? "warm-up" : m == w.window() ? "window" : "?";
  }
}
