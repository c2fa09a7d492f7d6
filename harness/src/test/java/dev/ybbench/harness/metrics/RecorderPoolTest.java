package dev.ybbench.harness.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RecorderPoolTest {
  @Test
  void moreThreadsThanSlotsLoseNoValue() throws Exception {
    RecorderPool pool = new RecorderPool(2);
    int threads = 8;
    int each = 50_000;
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int value = 100 + t;
      Thread th = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        int home = RecorderPool.home();
        for (int i = 0; i < each; i++) {
          pool.record(home, value);
        }
      });
      th.start();
      ts.add(th);
    }
    Histogram total = RecorderPool.histogram();
    Histogram interval = RecorderPool.histogram();
    go.countDown();
    // The reporter takes intervals while the threads record, as it does once a second.
    while (ts.stream().anyMatch(Thread::isAlive)) {
      pool.interval(interval);
      total.add(interval);
      Thread.sleep(1);
    }
    for (Thread th : ts) {
      th.join();
    }
    pool.interval(interval);
    total.add(interval);
    assertEquals((long) threads * each, total.getTotalCount());
    for (int t = 0; t < threads; t++) {
      assertEquals(each, total.getCountAtValue(100 + t), "thread " + t + "'s values, each counted once");
    }
  }

  @Test
  void slotsAreCreatedWhenUsedAndIntervalsReuseTheirHistograms() {
    RecorderPool pool = new RecorderPool(4);
    assertFalse(pool.used());
    Histogram into = RecorderPool.histogram();
    pool.interval(into);
    assertEquals(0, into.getTotalCount());
    pool.record(RecorderPool.home(), 250);
    pool.record(RecorderPool.home(), -5); // a clock step back: clamped to 0, still counted
    pool.record(RecorderPool.home(), Long.MAX_VALUE); // clamped to an hour
    assertTrue(pool.used());
    Histogram again = into;
    pool.interval(into);
    assertSame(again, into);
    assertEquals(3, into.getTotalCount());
    assertEquals(0, into.getMinValue());
    assertTrue(into.valuesAreEquivalent(RecorderPool.MAX_MICROS, into.getMaxValue()), "max " + into.getMaxValue());
    pool.interval(into);
    assertEquals(0, into.getTotalCount(), "an interval holds only what came after the previous one");
  }
}
