package dev.ybbench.pgbench.core;

import dev.ybbench.harness.ysql.CopyRows;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * pgbench -i done by ybbench, for YugabyteDB: -I's steps in their order over {@link
 * PgbenchSchema}'s tables, printing what pgbench -i prints. The client-side generation (g) writes
 * pgbench's rows by COPY in batches, each its own transaction, so that a large scale holds no giant
 * transaction open; the server-side one (G) runs pgbench's INSERT … SELECT. The primary keys (p)
 * are declared when the tables are created; vacuum (v) is ANALYZE, YSQL ignoring VACUUM.
 */
public final class PgbenchLoader {
  /** Rows per COPY, each its own transaction. */
  static final int BATCH_ROWS = 5000;
  /** pgbench's default steps. */
  public static final String DEFAULT_STEPS = "dtgvp";

  private final PgbenchSchema schema;
  private final String steps;
  private final boolean quiet;
  private final Consumer<String> log;

  /**
   * @param steps -I's steps (validated: d, t, g, G, v, p, f and spaces), with -n's v already removed
   * @param quiet -q: a progress line every 5 s rather than every 100,000 rows
   */
  public PgbenchLoader(PgbenchSchema schema, String steps, boolean quiet, Consumer<String> log) {
    this.schema = schema;
    this.steps = steps;
    this.quiet = quiet;
    this.log = log;
  }

  /** Runs the steps; returns the rows written. Stops between two batches once {@code stop} says so. */
  public long load(YsqlEndpoint endpoint, BooleanSupplier stop) throws SQLException {
    long start = System.nanoTime();
    long written = 0;
    List<String> timings = new ArrayList<>();
    try (Connection c = endpoint.connect(); Statement s = c.createStatement()) {
      for (char step : steps.toCharArray()) {
        if (stop.getAsBoolean()) {
          break;
        }
        long t = System.nanoTime();
        String what;
        switch (step) {
          case 'd' -> {
            log.accept("dropping old tables...");
            s.execute(schema.dropTables());
            what = "drop tables";
          }
          case 't' -> {
            log.accept("creating tables" + (schema.keys() ? " with their primary keys" : "") + "...");
            for (String ddl : schema.createTables()) {
              s.execute(ddl);
            }
            what = "create tables";
          }
          case 'g' -> {
            log.accept("generating data (client-side)...");
            written += clientSide(c, stop);
            what = "client-side generate";
          }
          case 'G' -> {
            log.accept("generating data (server-side)...");
            for (String insert : schema.generateOnServer()) {
              written += s.executeUpdate(insert);
            }
            what = "server-side generate";
          }
          case 'v' -> {
            log.accept("vacuuming...");
            for (String table : List.of(schema.branches(), schema.tellers(), schema.accounts(), schema.history())) {
              s.execute("ANALYZE " + table);
            }
            what = "vacuum";
          }
          case 'p' -> {
            continue; // declared with the tables (t)
          }
          case 'f' -> {
            log.accept("creating foreign keys...");
            for (String ddl : schema.foreignKeys()) {
              s.execute(ddl);
            }
            what = "foreign keys";
          }
          default -> {
            continue; // a space
          }
        }
        timings.add(String.format(Locale.ROOT, "%s %.2f s", what, seconds(t)));
      }
    }
    log.accept(String.format(Locale.ROOT, "done in %.2f s (%s).", seconds(start), String.join(", ", timings)));
    return written;
  }

  /** pgbench's rows by COPY: branches and tellers, then accounts with a progress line. */
  private long clientSide(Connection c, BooleanSupplier stop) throws SQLException {
    long written = 0;
    CopyRows batch = new CopyRows();
    long branches = schema.rows(schema.branches());
    for (long bid = 1; bid <= branches; bid++) { // pgbench's initBranch and initTeller: a NULL filler
      batch.value(bid).value(0).value(null).endRow();
    }
    written += send(c, batch, "COPY " + schema.branches() + " (bid, bbalance, filler) FROM STDIN");
    long tellers = schema.rows(schema.tellers());
    for (long tid = 1; tid <= tellers; tid++) {
      batch.value(tid).value((tid - 1) / PgbenchSchema.TELLERS + 1).value(0).value(null).endRow();
    }
    written += send(c, batch, "COPY " + schema.tellers() + " (tid, bid, tbalance, filler) FROM STDIN");
    long accounts = schema.rows(schema.accounts());
    String copy = "COPY " + schema.accounts() + " (aid, bid, abalance, filler) FROM STDIN";
    long start = System.nanoTime();
    long shown = start;
    for (long aid = 1; aid <= accounts; aid++) {
      batch.value(aid).value((aid - 1) / PgbenchSchema.ACCOUNTS + 1).value(0).value("").endRow(); // a blank filler
      if (batch.rows() == BATCH_ROWS || aid == accounts) {
        if (stop.getAsBoolean()) {
          return written;
        }
        written += send(c, batch, copy);
        long now = System.nanoTime();
        if (quiet ? now - shown >= 5_000_000_000L || aid == accounts : aid % PgbenchSchema.ACCOUNTS == 0
            || aid == accounts) {
          shown = now;
          double elapsed = (now - start) / 1e9;
          log.accept(String.format(Locale.ROOT, "%d of %d tuples (%d%%) done (elapsed %.2f s, remaining %.2f s)",
              aid, accounts, aid * 100 / accounts, elapsed, elapsed * (accounts - aid) / aid));
        }
      }
    }
    return written;
  }

  private static long send(Connection c, CopyRows batch, String copy) throws SQLException {
    long n = batch.rows();
    if (n > 0) {
      batch.send(c, copy);
      batch.clear();
    }
    return n;
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
