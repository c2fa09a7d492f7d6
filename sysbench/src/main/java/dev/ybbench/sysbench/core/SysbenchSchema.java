package dev.ybbench.sysbench.core;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.harness.ysql.TableSplit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * sysbench's tables sbtest1 … sbtestN as ybbench creates them: oltp_common.lua's columns and
 * defaults for pgsql, the key sharded by the dialect — hashed (YSQL's default, as
 * yugabyte/sysbench creates it) or ranged ({@code --layout range}, its --range_key_partitioning),
 * pre-split on YugabyteDB into {@code tablets} (a range key at ids spaced evenly, as its
 * --num_table_splits does) — and the secondary index k_N on k, created after the load as
 * sysbench's prepare does.
 *
 * @param tablets     YugabyteDB: tablets per table (0: the server's default)
 * @param serialCache the id sequence's CACHE (0: the server's default), yugabyte/sysbench's
 *                    --serial_cache_size: on YugabyteDB each new value not cached asks the catalog
 */
public record SysbenchSchema(SqlDialect dialect, boolean range, int tables, long tableSize, int tablets,
    boolean autoInc, boolean secondaryIndex, int serialCache) {
  /** The first and last ids; oltp_common.lua's ids are INTEGER. */
  public static final long MAX_TABLE_SIZE = Integer.MAX_VALUE;

  public SysbenchSchema {
    if (tables < 1) {
      throw new UserError("--tables must be at least 1, was " + tables);
    }
    if (tableSize < 0 || tableSize > MAX_TABLE_SIZE) {
      throw new UserError("--table-size must be 0 … " + MAX_TABLE_SIZE + " (sysbench's ids are INTEGER), was "
          + tableSize);
    }
    if (tablets < 0) {
      throw new UserError("--tablets must be at least 1, was " + tablets);
    }
    if (range && tablets > 1 && tableSize < tablets) {
      throw new UserError("--tablets " + tablets + " splits the ids 1 … " + tableSize + " of a range key: give at "
          + "most --table-size tablets");
    }
  }

  public static String table(int n) {
    return "sbtest" + n;
  }

  public List<String> tableNames() {
    return IntStream.rangeClosed(1, tables).mapToObj(SysbenchSchema::table).toList();
  }

  public String createTable(int n) {
    List<String> columns = new ArrayList<>();
    columns.add("id " + (autoInc ? "SERIAL" : "INTEGER NOT NULL"));
    columns.add("k INTEGER DEFAULT '0' NOT NULL");
    columns.add("c CHAR(120) DEFAULT '' NOT NULL");
    columns.add("pad CHAR(60) DEFAULT '' NOT NULL");
    columns.add(dialect.primaryKey(List.of("id"), range ? 0 : 1));
    return dialect.createTable(table(n), columns, split());
  }

  /** A hashed key splits by count; a range key at ids table_size × i / tablets, i = 1 … tablets − 1. */
  TableSplit split() {
    if (tablets < 2 || !range) {
      return TableSplit.into(range ? 0 : tablets);
    }
    List<Long> at = new ArrayList<>();
    for (int i = 1; i < tablets; i++) {
      at.add(Math.floorDiv(tableSize * i, tablets));
    }
    return TableSplit.atNumbers(at);
  }

  /** The statements that follow CREATE TABLE: the id sequence's cache, when asked. */
  public List<String> afterCreate(int n) {
    return autoInc && serialCache > 0 ? List.of("ALTER SEQUENCE " + table(n) + "_id_seq CACHE " + serialCache)
        : List.of();
  }

  /** k_N on k, sharded like the key. */
  public String createIndex(int n) {
    return dialect.createIndex("k_" + n, table(n), List.of("k"), range ? 0 : 1);
  }

  /**
   * After a load that wrote ids 1 … table_size itself, the id sequence continues from the last
   * (sysbench's prepare inserts through it, so it is there already); oltp_insert's new rows take
   * their ids from it.
   */
  public String continueSequence(int n) {
    return "SELECT setval(pg_get_serial_sequence('" + table(n) + "', 'id'), " + Math.max(1, tableSize) + ", "
        + (tableSize > 0) + ")";
  }

  public String dropTable(int n) {
    return "DROP TABLE IF EXISTS " + table(n);
  }

  /** What the tables hold, written on sbtest1 once loaded, so a later run knows whether it may use them. */
  public String shape(long rows) {
    return "ybbench sysbench tables=" + tables + " rows=" + rows + " layout=" + (range ? "range" : "hash")
        + " tablets=" + tablets + " auto_inc=" + (autoInc ? "on" : "off") + " create_secondary="
        + (secondaryIndex ? "on" : "off");
  }
}
