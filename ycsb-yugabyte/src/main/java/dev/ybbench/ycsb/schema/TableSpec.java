package dev.ybbench.ycsb.schema;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.ysql.TableSplit;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;

/**
 * The benchmark table as the harness creates it: its name, key column and value columns, a key
 * layout, and an optional pre-split (YugabyteDB only): into a number of tablets, or at key
 * values for a range key. Two shapes: YCSB's ({@code ycsb_key VARCHAR(255)} and YCSB's {@code fieldcount} text
 * fields named by {@code fieldnameprefix}), and a key-value table of the sample apps' (a text key
 * and named value columns, text or binary), chosen by {@value #COLUMNS}. A key-value table may
 * have range columns after its key that hold the key again (CassandraRangeKeyValue's {@code ((k),
 * r1, r2, r3)}, {@value #RANGE_COLUMNS}) and an index on its value columns (SqlSecondaryIndex's,
 * {@value #INDEX}).
 *
 * @param rangeColumns the key's copies after it in the primary key, each holding the row's key
 * @param indexed      the value columns of the table's one secondary index, or none
 */
public record TableSpec(String table, String keyColumn, List<String> rangeColumns, List<String> fields,
    ValueType values, KeyLayout layout, TableSplit split, List<String> indexed) {
  public static final String KEY = "ycsb_key";
  public static final String KEY1 = "ycsb_key1";
  public static final String KEY2 = "ycsb_key2";
  /** A key-value table's columns, key first ({@code k,v}); without it the table is YCSB's. */
  public static final String COLUMNS = "yb.columns";
  /** YugabyteDB: the tablets to pre-split a hashed key into (--tablets). */
  public static final String TABLETS = "yb.tablets";
  /** YugabyteDB YSQL: the key values to pre-split a range key at, comma-separated (--split-at). */
  public static final String SPLIT_AT = "yb.split_at";
  /** A key-value table's values: text (default) or blob (binary, as CassandraKeyValue's). */
  public static final String VALUE_TYPE = "yb.value_type";
  /** A key-value table's range columns after its key, each holding the key ({@code r1,r2,r3}). */
  public static final String RANGE_COLUMNS = "yb.range_columns";
  /** A key-value table's value columns to index, in one index named {@code <table>_index}. */
  public static final String INDEX = "yb.index";

  /** What the value columns hold. */
  public enum ValueType { TEXT, BLOB }

  private static final String IDENTIFIER = "[A-Za-z_][A-Za-z0-9_]*";

  public TableSpec {
    if (!table.matches(IDENTIFIER)) {
      throw new UserError("table name '" + table + "' is not a plain SQL identifier");
    }
    for (List<String> names : List.of(rangeColumns, fields)) {
      for (String c : names) {
        if (!c.matches(IDENTIFIER)) {
          throw new UserError("column name '" + c + "' is not a plain SQL identifier");
        }
      }
    }
    if (fields.isEmpty()) {
      throw new UserError("the table needs at least one value column (fieldcount at least 1)");
    }
    for (String c : indexed) {
      if (!fields.contains(c)) {
        throw new UserError(INDEX + "=" + String.join(",", indexed) + ": " + c + " is not one of the value columns "
            + String.join(", ", fields));
      }
    }
    if (layout == KeyLayout.HASH_RANGE && !rangeColumns.isEmpty()) {
      throw new UserError(RANGE_COLUMNS + " are a key-value table's; the hash-range layout has its own two columns");
    }
    rangeColumns = List.copyOf(rangeColumns);
    fields = List.copyOf(fields);
    indexed = List.copyOf(indexed);
  }

  /** YCSB's table with its default field names: field0 … field{n-1}. */
  public TableSpec(String table, int fieldCount, KeyLayout layout, int tablets) {
    this(table, KEY, List.of(), fieldNames("field", fieldCount), ValueType.TEXT, layout, TableSplit.into(tablets),
        List.of());
  }

  /** The pre-split the properties ask for: {@value #TABLETS}, or {@value #SPLIT_AT}'s values. */
  public static TableSplit split(Properties p) {
    String at = p.getProperty(SPLIT_AT, "").strip();
    if (!at.isEmpty()) {
      return splitAt(at, SPLIT_AT);
    }
    String tablets = p.getProperty(TABLETS, "0").strip();
    try {
      return TableSplit.into(Integer.parseInt(tablets));
    } catch (IllegalArgumentException e) {
      throw new UserError(TABLETS + "=" + tablets + " is not a number of tablets");
    }
  }

  /**
   * A split at the comma-separated keys of {@code --split-at} or {@value #SPLIT_AT}.
   *
   * @param what the flag or property that gave them, for the error
   */
  public static TableSplit splitAt(String keys, String what) {
    return TableSplit.atText(List.of(keys.strip().split("\\s*,\\s*")), what);
  }

  /** YugabyteDB: the tablets to pre-split into, or 0. */
  public int tablets() {
    return split.tablets();
  }

  /** The table the properties describe: YCSB's ({@code table}, {@code fieldcount}, {@code fieldnameprefix}) or {@value #COLUMNS}'. */
  public static TableSpec from(Properties p, int fieldCount, KeyLayout layout) {
    TableSplit split = split(p);
    String table = p.getProperty("table", "usertable").strip();
    String columns = p.getProperty(COLUMNS);
    ValueType values = switch (p.getProperty(VALUE_TYPE, "text").strip().toLowerCase(java.util.Locale.ROOT)) {
      case "text" -> ValueType.TEXT;
      case "blob" -> ValueType.BLOB;
      default -> throw new UserError(VALUE_TYPE + "=" + p.getProperty(VALUE_TYPE) + " is not text or blob");
    };
    List<String> range = names(p, RANGE_COLUMNS);
    List<String> indexed = names(p, INDEX);
    if (columns == null) {
      if (values != ValueType.TEXT) {
        throw new UserError(VALUE_TYPE + " applies to a key-value table (" + COLUMNS + "); YCSB's fields are text");
      }
      if (!range.isEmpty() || !indexed.isEmpty()) {
        throw new UserError((range.isEmpty() ? INDEX : RANGE_COLUMNS) + " applies to a key-value table (" + COLUMNS
            + "), not to YCSB's");
      }
      String prefix = p.getProperty("fieldnameprefix", "field").strip();
      if (!(prefix + "0").matches(IDENTIFIER)) {
        throw new UserError("fieldnameprefix=" + prefix + " does not make plain SQL column names");
      }
      return new TableSpec(table, KEY, List.of(), fieldNames(prefix, fieldCount), values, layout, split, List.of());
    }
    List<String> names = List.of(columns.strip().split("\\s*,\\s*"));
    if (names.size() < 2 || !names.get(0).matches(IDENTIFIER)) {
      throw new UserError(COLUMNS + "=" + columns + " names a key column then at least one value column, e.g. k,v");
    }
    if (layout == KeyLayout.HASH_RANGE) {
      throw new UserError("a key-value table (" + COLUMNS + ") has one key column; the hash-range layout is YCSB's");
    }
    return new TableSpec(table, names.get(0), range, names.subList(1, names.size()), values, layout, split, indexed);
  }

  /** A comma-separated list of column names, or none when the property is absent or blank. */
  public static List<String> names(Properties p, String property) {
    String v = p.getProperty(property, "").strip();
    return v.isEmpty() ? List.of() : List.of(v.split("\\s*,\\s*"));
  }

  /** The names for each prefix and field count, built once: the bindings ask for them with every row they load. */
  private static final Map<String, List<String>> FIELDS = new ConcurrentHashMap<>();

  private static List<String> fieldNames(String prefix, int n) {
    if (n < 1) {
      throw new UserError("fieldcount must be at least 1, was " + n);
    }
    return FIELDS.computeIfAbsent(prefix + "\u0000" + n, k -> IntStream.range(0, n).mapToObj(i -> prefix + i).toList());
  }

  /** Whether this is YCSB's table (its key column), rather than a key-value table of the sample apps'. */
  public boolean ycsbShape() {
    return keyColumn.equals(KEY);
  }

  /** The key column(s) in primary-key order: the hash-range pair, or the key and its range columns. */
  public List<String> keyColumns() {
    if (layout == KeyLayout.HASH_RANGE) {
      return List.of(KEY1, KEY2);
    }
    if (rangeColumns.isEmpty()) {
      return List.of(keyColumn);
    }
    List<String> all = new java.util.ArrayList<>(1 + rangeColumns.size());
    all.add(keyColumn);
    all.addAll(rangeColumns);
    return all;
  }

  /**
   * How many times a key is bound where a statement matches a whole key outside the hash-range
   * layout: once for the key, once more for each range column holding it.
   */
  public int keyCopies() {
    return 1 + rangeColumns.size();
  }

  /** Whether a result column is a key column rather than a value. */
  public boolean isKey(String column) {
    if (column.equalsIgnoreCase(keyColumn) || column.equalsIgnoreCase(KEY1) || column.equalsIgnoreCase(KEY2)) {
      return true;
    }
    for (String r : rangeColumns) {
      if (r.equalsIgnoreCase(column)) {
        return true;
      }
    }
    return false;
  }
}
