package dev.ybbench.harness.metrics;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One latency series (an operation type's, from one start) recorded by any number of threads into
 * a few single-writer HdrHistogram recorders: as many slots as twice the client's cores, since no
 * more threads than cores record at one moment. A thread claims its home slot (its thread number
 * modulo the slots) with one uncontended compare-and-set, records without locks, and lets it go;
 * a slot that another thread holds (it was descheduled mid-record) sends it to the next.
 *
 * <p>Why not one recorder per thread: each holds two ~190 KB histograms (three with the one the
 * reporter recycles), so memory grows with threads × operation types. Why not one shared
 * Recorder: its writers contend on one phaser counter (docs/performance.md has both figures).
 * Slots are created on first use, so a
 * single-threaded phase holds one. The reporter swaps each slot's interval into a histogram it
 * keeps for the next swap: nothing is allocated per second.
 */
final class RecorderPool {
  /** Latencies above an hour are clamped; three significant digits, as YCSB's hdrhistogram uses. */
  static final long MAX_MICROS = 3_600_000_000L;
  /** Slots padded apart in {@link #claims}, so that two cores' claims do not share a cache line. */
  private static final int PAD = 16;
  private static final AtomicInteger THREADS = new AtomicInteger();
  /** Each thread's number, the same in every pool, so that its home slot is the same everywhere. */
  private static final ThreadLocal<Integer> HOME = ThreadLocal.withInitial(THREADS::getAndIncrement);

  private final int slots;
  private final AtomicReferenceArray<SingleWriterRecorder> recorders;
  private final AtomicIntegerArray claims;
  /** The reporter's: each slot's previous interval, handed back to be filled with the next. */
  private final Histogram[] recycled;

  RecorderPool() {
    this(2 * Runtime.getRuntime().availableProcessors());
  }

  RecorderPool(int slots) {
    this.slots = slots;
    this.recorders = new AtomicReferenceArray<>(slots);
    this.claims = new AtomicIntegerArray(slots * PAD);
    this.recycled = new Histogram[slots];
  }

  /** This thread's home slot in every pool. */
  static int home() {
    return HOME.get();
  }

  void record(int home, long micros) {
    long v = Math.min(Math.max(micros, 0), MAX_MICROS);
    int first = Math.floorMod(home, slots);
    for (int i = first; ; i = i + 1 == slots ? 0 : i + 1) {
      if (claims.compareAndSet(i * PAD, 0, 1)) {
        try {
          recorder(i).recordValue(v);
        } finally {
          claims.set(i * PAD, 0);
        }
        return;
      }
      if ((i + 1 == slots ? 0 : i + 1) == first) {
        Thread.onSpinWait(); // every slot held: as many threads as slots were descheduled mid-record
      }
    }
  }

  private SingleWriterRecorder recorder(int i) {
    SingleWriterRecorder r = recorders.get(i);
    if (r == null) {
      r = new SingleWriterRecorder(MAX_MICROS, 3);
      recorders.set(i, r); // only the claimant of slot i gets here
    }
    return r;
  }

  /** True once any value was recorded (or any thread touched a slot). */
  boolean used() {
    for (int i = 0; i < slots; i++) {
      if (recorders.get(i) != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Everything recorded since the previous call, added to {@code into} (which is reset first), with
   * its start and end time stamps the slots' earliest and latest. The reporter's thread only.
   */
  void interval(Histogram into) {
    into.reset();
    long start = Long.MAX_VALUE;
    long end = 0;
    for (int i = 0; i < slots; i++) {
      SingleWriterRecorder r = recorders.get(i);
      if (r == null) {
        continue;
      }
      Histogram h = r.getIntervalHistogram(recycled[i]);
      recycled[i] = h;
      if (h.getTotalCount() > 0) {
        into.add(h);
      }
      start = Math.min(start, h.getStartTimeStamp());
      end = Math.max(end, h.getEndTimeStamp());
    }
    long now = System.currentTimeMillis();
    into.setStartTimeStamp(start == Long.MAX_VALUE ? now : start);
    into.setEndTimeStamp(end == 0 ? now : end);
  }

  /** A histogram of the pool's range and precision, to be filled by {@link #interval}. */
  static Histogram histogram() {
    return new Histogram(MAX_MICROS, 3);
  }
}
