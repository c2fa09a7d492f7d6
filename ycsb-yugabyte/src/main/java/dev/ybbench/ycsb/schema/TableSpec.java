package dev.ybbench.ycsb.schema;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * The YCSB table as the harness creates it: YCSB's {@code table} and {@code fieldcount}, a key
 * layout, and an optional pre-split into a number of tablets (YugabyteDB only; 0 = server default).
 */
public record TableSpec(String table, int fieldCount, KeyLayout layout, int tablets) {
  public static final String KEY = "ycsb_key";
  public static final String KEY1 = "ycsb_key1";
  public static final String KEY2 = "ycsb_key2";

  public TableSpec {
    if (!table.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException("table name '" + table + "' is not a plain SQL identifier");
    }
    if (fieldCount < 1) {
      throw new IllegalArgumentException("fieldcount must be at least 1, was " + fieldCount);
    }
  }

  /** The names for each field count, built once: the bindings ask for them with every row they load. */
  private static final Map<Integer, List<String>> FIELDS = new ConcurrentHashMap<>();

  /** field0 … field{n-1}, YCSB's own field names (an unmodifiable list). */
  public List<String> fields() {
    return FIELDS.computeIfAbsent(fieldCount, n -> IntStream.range(0, n).mapToObj(i -> "field" + i).toList());
  }

  /** The key columns in primary-key order. */
  public List<String> keyColumns() {
    return layout == KeyLayout.HASH_RANGE ? List.of(KEY1, KEY2) : List.of(KEY);
  }
}
