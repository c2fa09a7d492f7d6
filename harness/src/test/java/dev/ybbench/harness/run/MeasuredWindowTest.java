package dev.ybbench.harness.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.metrics.Timeseries;
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

  @Test
  void aPhaseThatNeverCountsCannotOpenItsWindow() throws Exception {
    try (Timeseries ts = new Timeseries(dir.resolve("timeseries.csv"))) {
      MeasuredWindow window = new MeasuredWindow("run", true, "warmup", dir, ts, counting -> {});
      assertThrows(IllegalStateException.class, () -> window.open(5, m -> {}));
      assertNull(window.recorder());
      window.warmupRecorder().close();
    }
  }

  private static String name(MeasuredWindow w, Metrics m) {
    return m == w.warmup() ? "warm-up" : m == w.window() ? "window" : "?";
  }
}
