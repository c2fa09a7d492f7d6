package dev.ybbench.ycsb.schema;

import dev.ybbench.harness.UserError;
import java.util.ArrayList;
import java.util.List;

/**
 * The YCSB table over CQL: a keyspace with a replication factor, the table per layout, and CQL
 * scans. A CQL partition key is always hashed, so the one-column layouts are "hash" only; the
 * hash-range layout is a partition key plus an ascending clustering column, and a key-value
 * table's range columns cluster after its key.
 */
public final class CqlSchema extends TableStatements {
  private final CqlDialect dialect;
  private final String keyspace;
  private final int replicationFactor;
  private final boolean transactions;

  /** Refused before anything starts, and again here for any other way in. */
  public static final String RANGE_NEEDS_YSQL = "The range layout needs YSQL: a CQL partition key is always hashed; "
      + "use hash or hash-range";
  public static final String SPLIT_AT_NEEDS_YSQL = "--split-at needs YSQL: a CQL partition key is always hashed; "
      + "pre-split a YCQL table by count (--tablets)";

  public CqlSchema(TableSpec spec, CqlDialect dialect, String keyspace, int replicationFactor, boolean transactions) {
    super(spec);
    if (!spec.split().at().isEmpty()) {
      throw new UserError(SPLIT_AT_NEEDS_YSQL);
    }
    if (spec.layout() == KeyLayout.RANGE) {
      throw new UserError(RANGE_NEEDS_YSQL);
    }
    if (!spec.indexed().isEmpty()) {
      throw new UserError(TableSpec.INDEX + " needs YSQL: ybbench indexes a YSQL table's values (SqlSecondaryIndex's); "
          + "leave it out for YCQL");
    }
    if (!keyspace.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new UserError("Keyspace name '" + keyspace + "' is not a plain CQL identifier");
    }
    this.dialect = dialect;
    this.keyspace = keyspace;
    this.replicationFactor = replicationFactor;
    this.transactions = transactions;
  }

  @Override
  protected String table() {
    return keyspace + "." + spec.table();
  }

  public String createKeyspace() {
    return "CREATE KEYSPACE IF NOT EXISTS " + keyspace
        + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': " + replicationFactor + "}";
  }

  @Override
  public String createTable() {
    List<String> columns = new ArrayList<>();
    String key;
    if (spec.layout() == KeyLayout.HASH_RANGE) {
      columns.add(TableSpec.KEY1 + " bigint");
      columns.add(TableSpec.KEY2 + " bigint");
      key = "(" + TableSpec.KEY1 + "), " + TableSpec.KEY2;
    } else {
      // The key is the partition key; range columns (CassandraRangeKeyValue's) cluster after it.
      for (String k : spec.keyColumns()) {
        columns.add(k + " varchar");
      }
      key = spec.rangeColumns().isEmpty() ? spec.keyColumn()
          : "(" + spec.keyColumn() + "), " + String.join(", ", spec.rangeColumns());
    }
    for (String f : spec.fields()) {
      columns.add(f + (spec.values() == TableSpec.ValueType.BLOB ? " blob" : " varchar"));
    }
    columns.add("PRIMARY KEY (" + key + ")");
    List<String> options = new ArrayList<>();
    if (spec.layout() == KeyLayout.HASH_RANGE) {
      options.add("CLUSTERING ORDER BY (" + TableSpec.KEY2 + " ASC)");
    }
    if (dialect == CqlDialect.YUGABYTEDB && spec.tablets() > 0) {
      options.add("tablets = " + spec.tablets());
    }
    if (dialect == CqlDialect.YUGABYTEDB && transactions) {
      options.add("transactions = { 'enabled' : true }");
    }
    String ddl = "CREATE TABLE " + table() + " (" + String.join(", ", columns) + ")";
    return options.isEmpty() ? ddl : ddl + " WITH " + String.join(" AND ", options);
  }

  /**
   * Over hash-range: the start key's partition from its post on, in clustering order. Over a
   * hashed key: rows in token order from the start key's token, as YCSB's Cassandra binding does.
   */
  @Override
  public String scan(List<String> fields) {
    if (spec.layout() == KeyLayout.HASH_RANGE) {
      return "SELECT " + columnList(fields) + " FROM " + table() + " WHERE " + TableSpec.KEY1 + " = ? AND "
          + TableSpec.KEY2 + " >= ? LIMIT ?";
    }
    return "SELECT " + columnList(fields) + " FROM " + table() + " WHERE token(" + spec.keyColumn()
        + ") >= token(?) LIMIT ?";
  }
}
