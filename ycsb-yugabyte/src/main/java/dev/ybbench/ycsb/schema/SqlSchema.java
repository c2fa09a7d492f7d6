package dev.ybbench.ycsb.schema;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.ysql.SqlDialect;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The YCSB table over SQL: YugabyteDB YSQL or PostgreSQL DDL, and SQL scans. */
public final class SqlSchema extends TableStatements {
  public static final String TABLETS_NEED_HASH = "--tablets needs a hash or hash-range layout; a range layout is "
      + "split at key values (--split-at)";
  public static final String SPLIT_AT_NEEDS_RANGE = "--split-at needs --layout range; a hashed key is split by "
      + "count (--tablets)";

  private final SqlDialect dialect;

  public SqlSchema(TableSpec spec, SqlDialect dialect) {
    super(spec);
    this.dialect = dialect;
    // YSQL pre-splits a hashed key by count and a range key only at values (SPLIT AT VALUES).
    if (spec.tablets() > 0 && spec.layout() == KeyLayout.RANGE) {
      throw new UserError(TABLETS_NEED_HASH);
    }
    if (!spec.split().at().isEmpty() && spec.layout() != KeyLayout.RANGE) {
      throw new UserError(SPLIT_AT_NEEDS_RANGE);
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
      for (String r : spec.rangeColumns()) {
        columns.add(r + " TEXT");
      }
    }
    for (String f : spec.fields()) {
      columns.add(f + " TEXT");
    }
    columns.add(dialect.primaryKey(spec.keyColumns(), spec.layout().hashedColumns()));
    return dialect.createTable(table(), columns, spec.split());
  }

  /**
   * The index on the value columns {@value TableSpec#INDEX} names, as yb-sample-apps'
   * SqlSecondaryIndex creates it ({@code CREATE INDEX IF NOT EXISTS <table>_index ON <table>(v)}),
   * or empty. Non-unique; YugabyteDB hashes its first column, as it does any index's by default.
   */
  public Optional<String> createIndex() {
    if (spec.indexed().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("CREATE INDEX IF NOT EXISTS " + table() + "_index ON " + table() + " ("
        + String.join(", ", spec.indexed()) + ")");
  }

  /** A read by an indexed value: every key column and field of the rows whose {@code column} holds it. */
  public String readByValue(String column) {
    List<String> cols = new ArrayList<>(spec.keyColumns());
    cols.addAll(spec.fields());
    return "SELECT " + String.join(", ", cols) + " FROM " + table() + " WHERE " + column + " = ?";
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
