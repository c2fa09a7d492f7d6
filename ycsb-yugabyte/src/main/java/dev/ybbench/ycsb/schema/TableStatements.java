package dev.ybbench.ycsb.schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The YCSB table's row statements, common to SQL and CQL (they differ only in scans and DDL,
 * which the subclasses write). Pure text: unit-tested exactly.
 */
public abstract class TableStatements {
  protected final TableSpec spec;

  protected TableStatements(TableSpec spec) {
    this.spec = spec;
  }

  public TableSpec spec() {
    return spec;
  }

  /** The table's name as statements use it (CQL qualifies it with the keyspace). */
  protected abstract String table();

  public abstract String createTable();

  /** A short scan from a start key (hash-range: within the start key's thread, in post order). */
  public abstract String scan(List<String> fields);

  public String dropTable() {
    return "DROP TABLE IF EXISTS " + table();
  }

  /** WHERE clause matching one row by its key column(s), one parameter per key column. */
  protected String keyMatch() {
    List<String> parts = new ArrayList<>();
    for (String k : spec.keyColumns()) {
      parts.add(k + " = ?");
    }
    return String.join(" AND ", parts);
  }

  protected static String columnList(List<String> fields) {
    return fields.isEmpty() ? "*" : String.join(", ", fields);
  }

  public String read(List<String> fields) {
    return "SELECT " + columnList(fields) + " FROM " + table() + " WHERE " + keyMatch();
  }

  public String update(List<String> fields) {
    List<String> sets = new ArrayList<>();
    for (String f : fields) {
      sets.add(f + " = ?");
    }
    return "UPDATE " + table() + " SET " + String.join(", ", sets) + " WHERE " + keyMatch();
  }

  /** An insert of all key columns and fields, in {@link TableSpec#keyColumns()} then field order. */
  public String insert() {
    List<String> cols = new ArrayList<>(spec.keyColumns());
    cols.addAll(spec.fields());
    return "INSERT INTO " + table() + " (" + String.join(", ", cols) + ") VALUES ("
        + String.join(", ", Collections.nCopies(cols.size(), "?")) + ")";
  }

  public String delete() {
    return "DELETE FROM " + table() + " WHERE " + keyMatch();
  }
}
