package dev.ybbench.tpcc.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.merge.ResumedLoad;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.tpcc.core.WarehouseRange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A TPC-C load's progress, kept in its run directory ({@link ResumedLoad#CHECKPOINT}) so that
 * {@code --resume} can finish a load that was killed without writing a row twice: which of the
 * client's warehouses are loaded whole, with the rows each wrote, and ITEM's rows once loaded.
 * A warehouse is recorded only after the last batch of its last table was committed, so one not
 * recorded is in doubt: some of its tables may hold rows, and a resume deletes them and loads
 * the warehouse again ({@link LoadResume}).
 */
public final class WarehouseCheckpoint {
  private final Path file;
  private final WarehouseRange range;
  private final TreeMap<Integer, Long> loaded;
  /** ITEM's rows once loaded by this client (the one with warehouse 1); null before. */
  private Long items;
  /** Rows of {@link #loaded} and {@link #items} that the runs this one resumes wrote. */
  private final long inherited;
  private final ObjectNode resumedFrom;

  /**
   * @param loaded      the warehouses loaded whole before this run, with their rows
   * @param resumedFrom what the run it resumes did, for the record (null for a first load)
   */
  private WarehouseCheckpoint(Path dir, WarehouseRange range, Map<Integer, Long> loaded, Long items,
      ObjectNode resumedFrom) {
    this.file = dir.resolve(ResumedLoad.CHECKPOINT);
    this.range = range;
    this.loaded = new TreeMap<>(loaded);
    this.items = items;
    this.inherited = total();
    this.resumedFrom = resumedFrom;
  }

  /** A first load of {@code range}, its file written before the first row is. */
  public static WarehouseCheckpoint start(Path dir, WarehouseRange range) {
    return of(dir, range, Map.of(), null, null);
  }

  /** A load that goes on from {@code loaded}, its file written before the first row is. */
  static WarehouseCheckpoint of(Path dir, WarehouseRange range, Map<Integer, Long> loaded, Long items,
      ObjectNode resumedFrom) {
    WarehouseCheckpoint c = new WarehouseCheckpoint(dir, range, loaded, items, resumedFrom);
    c.save();
    return c;
  }

  WarehouseRange range() {
    return range;
  }

  synchronized boolean isLoaded(int warehouse) {
    return loaded.containsKey(warehouse);
  }

  synchronized boolean itemsLoaded() {
    return items != null || !range.loadsItems();
  }

  /** Warehouse {@code w} is in the tables whole: {@code rows} rows in all. */
  synchronized void warehouse(int w, long rows) {
    loaded.put(w, rows);
    save();
  }

  synchronized void items(long rows) {
    items = rows;
    save();
  }

  /** Rows the loads recorded here wrote, this run's and those it resumes. */
  synchronized long total() {
    return loaded.values().stream().mapToLong(Long::longValue).sum() + (items == null ? 0 : items);
  }

  /** Rows the runs this one resumes wrote. */
  long inherited() {
    return inherited;
  }

  private boolean complete() {
    return loaded.size() == range.count() && itemsLoaded();
  }

  /**
   * Writes the file atomically: a crash of this process leaves the old one or the new one. A
   * crash of the whole machine may leave an older file, whose warehouses are then deleted and
   * loaded again: the cost is time, never a row twice.
   */
  private void save() {
    ObjectNode n = RunDirectory.JSON.createObjectNode();
    n.put("first", range.first()).put("warehouses", range.count()).put("total", range.total());
    ObjectNode w = n.putObject("loaded");
    loaded.forEach((k, v) -> w.put(Integer.toString(k), v));
    if (items != null) {
      n.put("items", items);
    }
    n.put("inherited", inherited).put("complete", complete());
    if (resumedFrom != null) {
      n.set("resumed_from", resumedFrom);
    }
    Path tmp = file.resolveSibling(ResumedLoad.CHECKPOINT + ".tmp");
    try {
      Files.write(tmp, RunDirectory.JSON.writeValueAsBytes(n));
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the load checkpoint " + file, e);
    }
  }

  /** What an earlier load's file says. */
  public record Saved(WarehouseRange range, Map<Integer, Long> loaded, Long items, long inherited, boolean complete,
      JsonNode resumedFrom) {
    static Saved read(Path runDir) throws IOException {
      JsonNode n = RunDirectory.JSON.readTree(runDir.resolve(ResumedLoad.CHECKPOINT).toFile());
      if (!n.has("warehouses") || !n.has("loaded")) {
        return null; // another benchmark's load
      }
      Map<Integer, Long> loaded = new TreeMap<>();
      n.get("loaded").fields().forEachRemaining(e -> loaded.put(Integer.parseInt(e.getKey()), e.getValue().asLong()));
      return new Saved(new WarehouseRange(n.get("first").asInt(), n.get("warehouses").asInt(), n.get("total").asInt()),
          loaded, n.hasNonNull("items") ? n.get("items").asLong() : null, n.path("inherited").asLong(),
          n.path("complete").asBoolean(), n.get("resumed_from"));
    }

    /** The warehouses of the range not loaded whole: each may hold part of its rows. */
    List<Integer> doubtful() {
      List<Integer> out = new ArrayList<>();
      for (int w = range.first(); w <= range.last(); w++) {
        if (!loaded.containsKey(w)) {
          out.add(w);
        }
      }
      return out;
    }

    /** Whether ITEM, this range's to load, may hold part of its rows. */
    boolean itemsInDoubt() {
      return range.loadsItems() && items == null;
    }

    /** Rows these runs wrote, the resumed ones' included. */
    long total() {
      return loaded.values().stream().mapToLong(Long::longValue).sum() + (items == null ? 0 : items);
    }
  }
}
