package dev.ybbench.ycsb.schema;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.ysql.SqlDialect;
import java.util.ArrayList;
import java.util.List;

/** The YCSB table over SQL: YugabyteDB YSQL or PostgreSQL DDL, and SQL scans. */
public final class SqlSchema extends TableStatements {
  private final SqlDialect dialect;

  public SqlSchema(TableSpec spec, SqlDialect dialect) {
    super(spec);
    this.dialect = dialect;
    if (spec.tablets() > 0 && dialect == SqlDialect.YUGABYTEDB && spec.layout() == KeyLayout.RANGE) {
      // YSQL pre-splits range-sharded tables only at explicit values (SPLIT AT VALUES).
      throw new UserError("--tablets needs a hash or hash-range layout; a range layout cannot be split by count");
    }
  }

  @Override
  protected String table() {
    return spec.table();
  }

  @Override
  public String createTable() {
    List<String> columns = new ArrayList<>();
    if (spec.layout() == KeyLayout.HASH_RANGE) {
      columns.add(TableSpec.KEY1 + " BIGINT");
      columns.add(TableSpec.KEY2 + " BIGINT");
    } else {
      // YCSB's key is VARCHAR(255), as its JDBC binding's README creates it; the sample apps' is text.
      columns.add(spec.keyColumn() + (spec.ycsbShape() ? " VARCHAR(255)" : " TEXT"));
    }
    for (String f : spec.fields()) {
      columns.add(f + " TEXT");
    }
    columns.add(dialect.primaryKey(spec.keyColumns(), spec.layout().hashedColumns()));
    return dialect.createTable(table(), columns, spec.tablets());
  }

  /** COPY of all key columns and fields from the client, in the order of {@link #insert()}. */
  public String copy() {
    List<String> cols = new ArrayList<>(spec.keyColumns());
    cols.addAll(spec.fields());
    return "COPY " + table() + " (" + String.join(", ", cols) + ") FROM STDIN";
  }

  /** Over hash-range the scan stays inside the start key's thread; over one key column it orders by the key. */
  @Override
  public String scan(List<String> fields) {
    if (spec.layout() == KeyLayout.HASH_RANGE) {
      return "SELECT " + columnList(fields) + " FROM " + table() + " WHERE " + TableSpec.KEY1 + " = ? AND "
          + TableSpec.KEY2 + " >= ? ORDER BY " + TableSpec.KEY2 + " LIMIT ?";
    }
    return "SELECT " + columnList(fields) + " FROM " + table() + " WHERE " + spec.keyColumn() + " >= ? ORDER BY "
        + spec.keyColumn() + " LIMIT ?";
  }
}
