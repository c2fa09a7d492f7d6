package dev.ybbench.ycsb.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.merge.ResumedLoad;
import dev.ybbench.harness.results.RunDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;
import dev.ybbench.ycsb.workload.KeyDraws;
import site.ycsb.generator.NumberGenerator;

/**
 * A load's progress, kept in its run directory ({@value #FILE}) so that {@code --resume} can
 * continue a load that crashed or was stopped without inserting a key twice or leaving one out.
 *
 * <p>It hands out the load's key numbers itself (in place of YCSB's counter) and hears, for each,
 * when its insert is settled: written, or lost after its retries. So at every moment it knows
 * that all keys below {@code next} are settled except the {@code pending} ones (handed out, in a
 * batch or in flight), and that no key at or above {@code reserved} was handed out: a key past
 * {@code reserved} is drawn only after a file raising it is written. A crash therefore leaves
 * only the pending keys and those in [next, reserved) in doubt (a reservation is twice the keys
 * the threads may hold in batches or in flight, at least 1,000); a resume looks those up in the
 * table and inserts the missing ones, then goes on from {@code reserved}.
 */
public final class LoadCheckpoint implements KeyDraws {
  public static final String FILE = ResumedLoad.CHECKPOINT;

  private final Path file;
  private final long start;
  private final long end;
  private final long reserveAhead;
  private LongFunction<String> keyName;
  /** Keys to insert before the counter's: the doubtful keys a resume found missing (pending too). */
  private final ArrayDeque<Long> redo;
  /**
   * Handed out and not yet settled, by key name: put under the lock of {@link #draw} (so a save
   * that reads {@code next} sees every key below it), removed as inserts settle — on the
   * workload's threads and, for asynchronous writes, the driver's — without it once written.
   */
  private final Map<String, Long> pending = new ConcurrentHashMap<>();
  private final ObjectNode resumedFrom;
  private long next;
  private long reserved;
  /** Keys handed out so far; those neither pending nor lost are written (counted so, not one by one). */
  private long drawnCount;
  private long lost;
  private long lastSave;
  /** The key number this thread drew last and its name, so the workload does not build the name again. */
  private final ThreadLocal<Drawn> drawn = ThreadLocal.withInitial(Drawn::new);

  private static final class Drawn {
    long keynum = -1;
    String name;
  }

  /**
   * @param start        this client's first key to load
   * @param end          one past its last
   * @param next         the counter's first key (start, or where a resumed load goes on)
   * @param redo         keys below {@code next} to insert first
   * @param reserveAhead keys handed out per write of the file
   * @param resumedFrom  what the earlier part did, for the record (null for a first load)
   */
  public LoadCheckpoint(Path dir, long start, long end, long next, List<Long> redo, int reserveAhead,
      ObjectNode resumedFrom) {
    this.file = dir.resolve(FILE);
    this.start = start;
    this.end = end;
    this.next = next;
    this.reserved = next;
    this.reserveAhead = reserveAhead;
    this.redo = new ArrayDeque<>(redo);
    this.resumedFrom = resumedFrom;
    save();
  }

  /** How many keys this load will hand out. */
  public long toInsert() {
    return redo.size() + (end - next);
  }

  /**
   * The key numbers the workload's doInsert draws, from here instead of its counter; {@code
   * keyName} is the workload's name for a key number, the name its insert is settled by.
   */
  @Override
  public synchronized NumberGenerator keys(LongFunction<String> name) {
    keyName = name;
    return new NumberGenerator() {
      @Override
      public Long nextValue() {
        long k = draw();
        setLastValue(k);
        return k;
      }

      @Override
      public double mean() {
        throw new UnsupportedOperationException();
      }
    };
  }

  private synchronized long draw() {
    Long again = redo.poll();
    long k;
    if (again != null) {
      k = again;
    } else {
      if (next >= reserved) {
        reserved = Math.min(end, next + reserveAhead);
        save(); // never hand out a key beyond what the file says may have been
      }
      k = next++;
    }
    drawnCount++;
    Drawn d = drawn.get();
    d.keynum = k;
    d.name = keyName.apply(k);
    pending.put(d.name, k);
    return k;
  }

  /** The name of {@code keynum} if it is the key this thread drew last, else null. */
  @Override
  public String drawnName(long keynum) {
    Drawn d = drawn.get();
    return d.keynum == keynum ? d.name : null;
  }

  /**
   * The insert of {@code key} was written, or lost after its retries. A write settles without the
   * lock (it only leaves {@link #pending}, and a save counts what left it as written); a loss, rare,
   * takes it, so that a save never sees the key gone but not yet counted as lost.
   */
  public void settled(String key, boolean wasWritten) {
    if (wasWritten) {
      pending.remove(key);
      return;
    }
    synchronized (this) {
      if (pending.remove(key) != null) {
        lost++;
      }
    }
  }

  /** Writes the file if a second has passed since it was last written. */
  public synchronized void saveEverySecond() {
    if (System.nanoTime() - lastSave >= 1_000_000_000L) {
      save();
    }
  }

  /**
   * Writes the file atomically: a crash of this process leaves the old one or the new one. It is
   * not forced to disk (a sync per reservation would stall the load), so a crash of the whole
   * machine may leave an older file, whose keys in doubt then miss some that were written: their
   * second insert fails as a duplicate and is counted as an error, never a second row.
   */
  public synchronized void save() {
    ObjectNode n = RunDirectory.JSON.createObjectNode();
    n.put("start", start).put("end", end).put("next", next).put("reserved", reserved);
    TreeSet<Long> doubtful = new TreeSet<>(pending.values());
    long written = drawnCount - doubtful.size() - lost; // a key that leaves pending while it is read: written
    doubtful.addAll(redo);
    n.putArray("pending").addAll(doubtful.stream().map(k -> RunDirectory.JSON.getNodeFactory().numberNode(k)).toList());
    n.put("written", written).put("lost", lost).put("complete", next == end && doubtful.isEmpty());
    if (resumedFrom != null) {
      n.set("resumed_from", resumedFrom);
    }
    Path tmp = file.resolveSibling(FILE + ".tmp");
    try {
      Files.write(tmp, RunDirectory.JSON.writeValueAsBytes(n));
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the load checkpoint " + file, e);
    }
    lastSave = System.nanoTime();
  }

  /** What an earlier load's file says: its slice, progress, and the keys in doubt. */
  public record Saved(long start, long end, long next, long reserved, List<Long> pending, long written, long lost,
      boolean complete, JsonNode resumedFrom) {
    static Saved read(Path runDir) throws IOException {
      JsonNode n = RunDirectory.JSON.readTree(runDir.resolve(FILE).toFile());
      List<Long> pending = new ArrayList<>();
      n.get("pending").forEach(k -> pending.add(k.asLong()));
      return new Saved(n.get("start").asLong(), n.get("end").asLong(), n.get("next").asLong(),
          n.get("reserved").asLong(), pending, n.get("written").asLong(), n.get("lost").asLong(),
          n.get("complete").asBoolean(), n.get("resumed_from"));
    }

    /** The keys whose insert may or may not have reached the table, in order. */
    List<Long> doubtful() {
      TreeSet<Long> keys = new TreeSet<>(pending);
      for (long k = next; k < reserved; k++) {
        keys.add(k);
      }
      return new ArrayList<>(keys);
    }
  }
}
