package dev.ybbench.ycsb.schema;

import dev.ybbench.harness.UserError;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How the YCSB key becomes a primary key. One description, rendered per dialect by
 * {@link SqlSchema} (and the CQL schema for YCQL).
 */
public enum KeyLayout {
  /** One key column, hash-sharded: YugabyteDB's default, spreads point operations evenly. */
  HASH("hash"),
  /** One key column, range-sharded ascending: keeps neighbouring keys together for scans. */
  RANGE("range"),
  /**
   * Two key columns for Workload E: key1 (a "thread") hash-sharded, key2 (a "post" in it)
   * ascending, so a short scan reads one thread's posts in order from one tablet instead of
   * visiting every tablet. See {@link HashRangeKey} for how a YCSB key maps to the pair.
   */
  HASH_RANGE("hash-range");

  private final String flag;

  KeyLayout(String flag) {
    this.flag = flag;
  }

  public String flag() {
    return flag;
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
