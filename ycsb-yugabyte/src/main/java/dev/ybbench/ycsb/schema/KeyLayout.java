package dev.ybbench.ycsb.schema;

import dev.ybbench.harness.UserError;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How the YCSB key becomes a primary key. One description, rendered per dialect by
 * {@link SqlSchema} through {@link dev.ybbench.harness.ysql.SqlDialect} (and the CQL schema for
 * YCQL).
 */
public enum KeyLayout {
  /** One key column, hash-sharded: YugabyteDB's default, spreads point operations evenly. */
  HASH("hash", 1),
  /** One key column, range-sharded ascending: keeps neighbouring keys together for scans. */
  RANGE("range", 0),
  /**
   * Two key columns for Workload E: key1 (a "thread") hash-sharded, key2 (a "post" in it)
   * ascending, so a short scan reads one thread's posts in order from one tablet instead of
   * visiting every tablet. See {@link HashRangeKey} for how a YCSB key maps to the pair.
   */
  HASH_RANGE("hash-range", 1);

  private final String flag;
  private final int hashedColumns;

  KeyLayout(String flag, int hashedColumns) {
    this.flag = flag;
    this.hashedColumns = hashedColumns;
  }

  public String flag() {
    return flag;
  }

  /** How many leading key columns YugabyteDB hashes; the rest are range-sharded ascending. */
  public int hashedColumns() {
    return hashedColumns;
  }

  public static KeyLayout fromFlag(String value) {
    for (KeyLayout l : values()) {
      if (l.flag.equalsIgnoreCase(value.strip())) {
        return l;
      }
    }
    throw new UserError("Unknown layout '" + value + "'; use one of "
        + Arrays.stream(values()).map(KeyLayout::flag).collect(Collectors.joining(", ")));
  }
}
