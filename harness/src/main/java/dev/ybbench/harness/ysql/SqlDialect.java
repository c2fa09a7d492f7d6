package dev.ybbench.harness.ysql;

import dev.ybbench.harness.ServerInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL servers the YSQL benchmarks talk to. They take the same logical table; only the DDL
 * that says how a key is sharded differs, and it is written here and nowhere else.
 */
public enum SqlDialect {
  /**
   * YugabyteDB YSQL: the leading key column(s) HASH, which spreads rows over tablets by their
   * hash; the rest ASC, which keeps one hash value's rows together in key order; and a
   * pre-split ({@link TableSplit}).
   */
  YUGABYTEDB,
  /** PostgreSQL (the embedded default): the same key as a plain column list, one node, no split. */
  POSTGRESQL;

  /** The dialect of the server that answered. */
  public static SqlDialect of(ServerInfo server) {
    return server.isYugabyte() ? YUGABYTEDB : POSTGRESQL;
  }

  /**
   * A primary-key or index column list.
   *
   * @param columns the key columns in order
   * @param hashed  how many leading columns YugabyteDB hashes (0: all range-sharded ascending);
   *                several are written as one hash group, {@code (a, b) HASH}, because YSQL
   *                hashes a key's leading columns together or not at all
   */
  public String keyColumns(List<String> columns, int hashed) {
    if (hashed < 0 || hashed > columns.size()) {
      throw new IllegalArgumentException("cannot hash " + hashed + " of the key columns " + columns);
    }
    if (this == POSTGRESQL) {
      return String.join(", ", columns);
    }
    List<String> parts = new ArrayList<>();
    if (hashed == 1) {
      parts.add(columns.get(0) + " HASH");
    } else if (hashed > 1) {
      parts.add("(" + String.join(", ", columns.subList(0, hashed)) + ") HASH");
    }
    for (String c : columns.subList(hashed, columns.size())) {
      parts.add(c + " ASC");
    }
    return String.join(", ", parts);
  }

  /** {@code PRIMARY KEY (…)} over {@link #keyColumns(List, int)}. */
  public String primaryKey(List<String> columns, int hashed) {
    return "PRIMARY KEY (" + keyColumns(columns, hashed) + ")";
  }

  /**
   * {@code CREATE TABLE name (elements)}, pre-split on YugabyteDB as {@code split} says. A split
   * by count needs a hashed key and a split at values a range key: callers refuse the other
   * combinations before here, where they can name the flag.
   *
   * @param elements column definitions and table constraints, in order
   */
  public String createTable(String name, List<String> elements, TableSplit split) {
    String ddl = "CREATE TABLE " + name + " (" + String.join(", ", elements) + ")";
    return this == YUGABYTEDB ? ddl + split.clause() : ddl;
  }

  /** {@code CREATE INDEX name ON table (columns)}, its leading {@code hashed} columns hashed on YugabyteDB. */
  public String createIndex(String name, String table, List<String> columns, int hashed) {
    return "CREATE INDEX " + name + " ON " + table + " (" + keyColumns(columns, hashed) + ")";
  }
}
