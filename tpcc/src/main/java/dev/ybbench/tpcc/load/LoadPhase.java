package dev.ybbench.tpcc.load;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.tpcc.core.TpccDatabase;
import dev.ybbench.tpcc.core.TpccFigures;
import dev.ybbench.tpcc.core.TpccRandom;
import dev.ybbench.tpcc.core.WarehouseRange;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The initial population of a client's warehouses (clause 4.3.3.1): ITEM once, by the client
 * that has warehouse 1, and the warehouses one per loader thread at a time, each recorded in the
 * run's checkpoint once it is whole, with a progress line every 10 s and the population check of
 * the client's warehouses after.
 */
public final class LoadPhase {
  /** C constants of the initial population; a run draws its own with the delta of clause 2.1.6.1. */
  public static final TpccRandom.Constants LOAD_CONSTANTS = new TpccRandom.Constants(157, 913, 4107);

  private LoadPhase() {}

  /**
   * Loads the warehouses of {@code checkpoint}'s range it does not record (all of them, unless
   * the load resumes another), recording each as it is loaded whole; then checks the range's
   * population and returns the phase's rows, rate and population check (a failed one fails the
   * run).
   */
  public static PhaseResult run(TpccDatabase db, WarehouseCheckpoint checkpoint, int threads,
      BooleanSupplier interrupted, Consumer<String> log) throws Exception {
    WarehouseRange range = checkpoint.range();
    List<Integer> warehouses = new ArrayList<>();
    for (int w = range.first(); w <= range.last(); w++) {
      if (!checkpoint.isLoaded(w)) {
        warehouses.add(w);
      }
    }
    boolean items = !checkpoint.itemsLoaded();
    threads = Math.max(1, Math.min(threads, warehouses.size()));
    long expectedRows = TpccLoader.rows(warehouses.size(), items);
    log.accept(String.format(Locale.ROOT, "Loading warehouses %s (%d rows) with %d threads",
        warehouses.size() == range.count() ? range : range + ", those not loaded whole: " + (warehouses.size() > 10
            ? warehouses.size() : warehouses.toString().replaceAll("[\\[\\]]", "")), expectedRows, threads));
    LongAdder rows = new LongAdder();
    AtomicInteger next = new AtomicInteger();
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    List<Future<?>> tasks = new ArrayList<>();
    if (items) {
      tasks.add(pool.submit(() -> {
        try (Connection c = db.connect(true)) {
          checkpoint.items(new TpccLoader(new TpccRandom(0, LOAD_CONSTANTS), rows, interrupted).loadItems(c));
        } catch (BulkWriter.Stopped stopped) {
          // Ctrl-C: what was written stays, the run is marked interrupted
        }
        return null;
      }));
    }
    for (int i = 0; i < threads; i++) {
      long seed = (i + 1) * 7919L + System.nanoTime();
      tasks.add(pool.submit(() -> {
        TpccLoader loader = new TpccLoader(new TpccRandom(seed, LOAD_CONSTANTS), rows, interrupted);
        try (Connection c = db.connect(true)) {
          for (int n = next.getAndIncrement(); n < warehouses.size() && !interrupted.getAsBoolean();
              n = next.getAndIncrement()) {
            int w = warehouses.get(n);
            checkpoint.warehouse(w, loader.loadWarehouse(c, w));
          }
        } catch (BulkWriter.Stopped stopped) {
          // Ctrl-C between two batches of a warehouse
        }
        return null;
      }));
    }
    pool.shutdown();
    while (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
      double s = (System.nanoTime() - start) / 1e9;
      double done = rows.sum();
      double rate = done / s;
      log.accept(String.format(Locale.ROOT, "[load] %.0f s, %.1f%% %d/%d rows, %.0f rows/s, ETA %.0f s", s,
          100 * done / expectedRows, rows.sum(), expectedRows, rate, Math.max(0, (expectedRows - done) / rate)));
    }
    for (Future<?> f : tasks) {
      try {
        f.get();
      } catch (ExecutionException e) {
        throw new UserError("Loading failed: " + e.getCause().getMessage());
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    List<String> problems = interrupted.getAsBoolean() ? List.of()
        : PopulationCheck.run(db, range, checkpoint.total());
    String check = problems.isEmpty() ? PhaseResult.PASS : String.join("; ", problems);
    log.accept(String.format(Locale.ROOT, "Loaded %d rows in %.1f s (%.0f rows/s); population check: %s",
        rows.sum(), seconds, rows.sum() / seconds, check));
    return PhaseResult.ofRows(rows.sum(), seconds, "population", check);
  }
}
