package dev.ybbench.pgbench.core;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.harness.ysql.TableSplit;
import java.util.ArrayList;
import java.util.List;

/**
 * pgbench's four tables as ybbench creates them on YugabyteDB, where PostgreSQL's pgbench -i would
 * make PostgreSQL's (a fill factor, COPY FREEZE, keys added after the load): pgbench's columns,
 * the primary key declared with the table, as ysql_bench declares it, and sharded by the dialect —
 * hashed (YSQL's default) or ranged ({@code --layout range}) — and pre-split into {@code tablets}
 * (a range key at values spaced evenly over its rows, as sysbench's tables). pgbench_history has no
 * key: YSQL hashes its rows by their hidden row id, so it splits by count in either layout.
 *
 * @param prefix  the tables' prefix: pgbench_
 * @param keys    -I's p: the primary keys (declared with the tables: YSQL adds none after)
 * @param tablets YugabyteDB: tablets per table (0: the server's default)
 */
public record PgbenchSchema(SqlDialect dialect, String prefix, int scale, boolean range, int tablets, boolean keys) {
  /** pgbench's rows per unit of scale. */
  public static final int BRANCHES = 1;
  public static final int TELLERS = 10;
  public static final int ACCOUNTS = 100_000;
  /** From this scale, pgbench's aid is a bigint (its SCALE_32BIT_THRESHOLD). */
  static final int BIGINT_SCALE = 20_000;

  public PgbenchSchema {
    if (tablets < 0) {
      throw new UserError("--tablets must be at least 1, was " + tablets);
    }
  }

  public String branches() {
    return prefix + "branches";
  }

  public String tellers() {
    return prefix + "tellers";
  }

  public String accounts() {
    return prefix + "accounts";
  }

  public String history() {
    return prefix + "history";
  }

  public long rows(String table) {
    return table.equals(branches()) ? (long) scale * BRANCHES : table.equals(tellers()) ? (long) scale * TELLERS
        : table.equals(accounts()) ? (long) scale * ACCOUNTS : 0;
  }

  /** pgbench's DROP of the four tables, as its step d. */
  public String dropTables() {
    return "DROP TABLE IF EXISTS " + String.join(", ", List.of(accounts(), branches(), history(), tellers()));
  }

  /** pgbench's CREATE TABLE statements (step t), each table's key with it when {@link #keys}. */
  public List<String> createTables() {
    return List.of(
        create(history(), List.of("tid int", "bid int", "aid " + aidType(), "delta int", "mtime timestamp",
            "filler char(22)"), null),
        create(tellers(), List.of("tid int not null", "bid int", "tbalance int", "filler char(84)"), "tid"),
        create(accounts(), List.of("aid " + aidType() + " not null", "bid int", "abalance int", "filler char(84)"),
            "aid"),
        create(branches(), List.of("bid int not null", "bbalance int", "filler char(88)"), "bid"));
  }

  private String aidType() {
    return scale >= BIGINT_SCALE ? "bigint" : "int";
  }

  private String create(String table, List<String> columns, String key) {
    List<String> elements = new ArrayList<>(columns);
    if (keys && key != null) {
      elements.add(dialect.primaryKey(List.of(key), range ? 0 : 1));
    }
    return dialect.createTable(table, elements, split(table, key != null && keys));
  }

  /**
   * A hashed table splits by count; a range key at 1 + rows × i / tablets, i = 1 … tablets − 1,
   * those above its first row (a table of fewer rows than tablets takes fewer).
   */
  TableSplit split(String table, boolean keyed) {
    if (tablets < 2 || !range || !keyed) {
      return TableSplit.into(tablets < 2 ? 0 : tablets);
    }
    long rows = rows(table);
    List<Long> at = new ArrayList<>();
    for (int i = 1; i < tablets; i++) {
      long v = 1 + Math.floorDiv(rows * i, tablets);
      if (v > 1 && v <= rows && (at.isEmpty() || at.get(at.size() - 1) < v)) {
        at.add(v);
      }
    }
    return TableSplit.atNumbers(at);
  }

  /** pgbench's foreign keys (step f), as it names them. */
  public List<String> foreignKeys() {
    return List.of(
        foreignKey(tellers(), "bid", branches()),
        foreignKey(accounts(), "bid", branches()),
        foreignKey(history(), "bid", branches()),
        foreignKey(history(), "tid", tellers()),
        foreignKey(history(), "aid", accounts()));
  }

  private static String foreignKey(String table, String column, String references) {
    return "ALTER TABLE " + table + " ADD CONSTRAINT " + table + "_" + column + "_fkey FOREIGN KEY (" + column
        + ") REFERENCES " + references;
  }

  /** pgbench's server-side generation (step G): each table's rows from generate_series, as pgbench writes them. */
  public List<String> generateOnServer() {
    return List.of(
        "INSERT INTO " + branches() + " (bid, bbalance) SELECT bid, 0 FROM generate_series(1, " + scale + ") AS bid",
        "INSERT INTO " + tellers() + " (tid, bid, tbalance) SELECT tid, (tid - 1) / " + TELLERS + " + 1, 0 FROM "
            + "generate_series(1, " + rows(tellers()) + ") AS tid",
        "INSERT INTO " + accounts() + " (aid, bid, abalance, filler) SELECT aid, (aid - 1) / " + ACCOUNTS
            + " + 1, 0, '' FROM generate_series(1, " + rows(accounts()) + ") AS aid");
  }
}
