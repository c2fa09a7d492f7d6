package dev.ybbench.sysbench.core;

import dev.ybbench.harness.ysql.CopyRows;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * sysbench's prepare, done by ybbench: each table created, its rows written by COPY (ids 1 …
 * table_size, k by sysbench's distribution, c and pad from its templates), its id sequence moved
 * past them, then its index on k; {@code threads} tables at a time, as sysbench prepares one table
 * per thread. Prints what sysbench's prepare prints.
 */
public final class SysbenchLoader {
  /** Rows per COPY, each its own transaction: a long load holds no giant transaction open. */
  static final int BATCH_ROWS = 5000;

  private final SysbenchSchema schema;
  private final long rows;
  private final SysbenchRandom.Distribution distribution;
  private final long seed;
  private final Consumer<String> log;

  /**
   * @param rows rows per table: table_size, or none for oltp_insert without auto_inc (its prepare
   *             leaves the tables empty, since its unique ids would collide with loaded ones)
   * @param seed --rand-seed (0: from the clock, as sysbench)
   */
  public SysbenchLoader(SysbenchSchema schema, long rows, SysbenchRandom.Distribution distribution, long seed,
      Consumer<String> log) {
    this.schema = schema;
    this.rows = rows;
    this.distribution = distribution;
    this.seed = seed == 0 ? System.nanoTime() : seed;
    this.log = log;
  }

  /**
   * Drops and creates every table, loads it and indexes it, then marks sbtest1 with the tables'
   * shape; returns the rows written. Stops between two batches once {@code stop} says so, unmarked.
   */
  public long load(YsqlEndpoint endpoint, int threads, BooleanSupplier stop) throws SQLException,
      InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, schema.tables())), r -> {
      Thread t = new Thread(r, "sysbench-prepare");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<Long>> tables = new ArrayList<>();
      for (int n = 1; n <= schema.tables(); n++) {
        int table = n;
        tables.add(pool.submit(() -> table(endpoint, table, stop)));
      }
      long written = 0;
      for (Future<Long> f : tables) {
        written += f.get();
      }
      if (!stop.getAsBoolean()) {
        try (Connection c = endpoint.connect(); Statement s = c.createStatement()) {
          s.execute("COMMENT ON TABLE " + SysbenchSchema.table(1) + " IS '" + schema.shape(rows) + "'");
        }
      }
      return written;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SQLException s) {
        throw s;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  private long table(YsqlEndpoint endpoint, int n, BooleanSupplier stop) throws SQLException {
    String table = SysbenchSchema.table(n);
    try (Connection c = endpoint.connect(); Statement s = c.createStatement()) {
      s.execute(schema.dropTable(n));
      log.accept("Creating table '" + table + "'...");
      s.execute(schema.createTable(n));
      for (String ddl : schema.afterCreate(n)) {
        s.execute(ddl);
      }
      if (rows > 0) {
        log.accept("Inserting " + rows + " records into '" + table + "'");
      }
      SplittableRandom random = new SplittableRandom(seed + n);
      SysbenchRandom values = new SysbenchRandom(distribution, random::nextDouble);
      CopyRows batch = new CopyRows();
      String copy = "COPY " + table + " (id, k, c, pad) FROM STDIN";
      for (long id = 1; id <= rows; id++) {
        batch.value(id).value(values.next(1, schema.tableSize())).value(values.string(SysbenchRandom.C_TEMPLATE))
            .value(values.string(SysbenchRandom.PAD_TEMPLATE)).endRow();
        if (batch.rows() == BATCH_ROWS || id == rows) {
          if (stop.getAsBoolean()) {
            return id - batch.rows();
          }
          batch.send(c, copy);
          batch.clear();
        }
      }
      if (schema.autoInc()) {
        s.execute(schema.continueSequence(n));
      }
      if (schema.secondaryIndex()) {
        log.accept("Creating a secondary index on '" + table + "'...");
        s.execute(schema.createIndex(n));
      }
      return rows;
    }
  }
}
