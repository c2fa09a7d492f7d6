package dev.ybbench.ycsb.schema;

import dev.ybbench.harness.UserError;
import java.util.ArrayList;
import java.util.List;

/** The YCSB table's DDL and DML text for one dialect. Pure text: unit-tested exactly. */
public final class SqlSchema {
  private final TableSpec spec;
  private final SqlDialect dialect;

  public SqlSchema(TableSpec spec, SqlDialect dialect) {
    this.spec = spec;
    this.dialect = dialect;
    if (spec.tablets() > 0 && dialect == SqlDialect.YUGABYTEDB && spec.layout() == KeyLayout.RANGE) {
      // YSQL pre-splits range-sharded tables only at explicit values (SPLIT AT VALUES).
      throw new UserError("--tablets needs a hash or hash-range layout; a range layout cannot be split by count");
    }
  }

  public TableSpec spec() {
    return spec;
  }

  public String dropTable() {
    return "DROP TABLE IF EXISTS " + spec.table();
  }

  public String createTable() {
    List<String> columns = new ArrayList<>();
    if (spec.layout() == KeyLayout.HASH_RANGE) {
      columns.add(TableSpec.KEY1 + " BIGINT");
      columns.add(TableSpec.KEY2 + " BIGINT");
    } else {
      columns.add(TableSpec.KEY + " VARCHAR(255)");
    }
    for (String f : spec.fields()) {
      columns.add(f + " TEXT");
    }
    columns.add("PRIMARY KEY (" + primaryKey() + ")");
    String ddl = "CREATE TABLE " + spec.table() + " (" + String.join(", ", columns) + ")";
    if (dialect == SqlDialect.YUGABYTEDB && spec.tablets() > 0) {
      ddl += " SPLIT INTO " + spec.tablets() + " TABLETS";
    }
    return ddl;
  }

  private String primaryKey() {
    if (dialect == SqlDialect.POSTGRESQL) {
      return String.join(", ", spec.keyColumns());
    }
    return switch (spec.layout()) {
      case HASH -> TableSpec.KEY + " HASH";
      case RANGE -> TableSpec.KEY + " ASC";
      case HASH_RANGE -> TableSpec.KEY1 + " HASH, " + TableSpec.KEY2 + " ASC";
    };
  }

  /** WHERE clause matching one row by its key column(s), one parameter per key column. */
  private String keyMatch() {
    List<String> parts = new ArrayList<>();
    for (String k : spec.keyColumns()) {
      parts.add(k + " = ?");
    }
    return String.join(" AND ", parts);
  }

  private static String columnList(List<String> fields) {
    return fields.isEmpty() ? "*" : String.join(", ", fields);
  }

  public String read(List<String> fields) {
    return "SELECT " + columnList(fields) + " FROM " + spec.table() + " WHERE " + keyMatch();
  }

  /**
   * A short scan from a start key. Over hash-range it stays inside the start key's thread and
   * walks its posts in order; over one key column it orders by the key.
   */
  public String scan(List<String> fields) {
    if (spec.layout() == KeyLayout.HASH_RANGE) {
      return "SELECT " + columnList(fields) + " FROM " + spec.table() + " WHERE " + TableSpec.KEY1 + " = ? AND "
          + TableSpec.KEY2 + " >= ? ORDER BY " + TableSpec.KEY2 + " LIMIT ?";
    }
    return "SELECT " + columnList(fields) + " FROM " + spec.table() + " WHERE " + TableSpec.KEY + " >= ? ORDER BY "
        + TableSpec.KEY + " LIMIT ?";
  }

  public String update(List<String> fields) {
    List<String> sets = new ArrayList<>();
    for (String f : fields) {
      sets.add(f + " = ?");
    }
    return "UPDATE " + spec.table() + " SET " + String.join(", ", sets) + " WHERE " + keyMatch();
  }

  /** An insert of all key columns and fields, in {@link TableSpec#keyColumns()} then field order. */
  public String insert() {
    List<String> cols = new ArrayList<>(spec.keyColumns());
    cols.addAll(spec.fields());
    return "INSERT INTO " + spec.table() + " (" + String.join(", ", cols) + ") VALUES ("
        + String.join(", ", java.util.Collections.nCopies(cols.size(), "?")) + ")";
  }

  public String delete() {
    return "DELETE FROM " + spec.table() + " WHERE " + keyMatch();
  }
}
