package dev.ybbench.ycsb.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact CQL text per dialect and layout. */
class CqlSchemaTest {
  private static CqlSchema schema(CqlDialect d, KeyLayout layout, int tablets, boolean transactions) {
    return new CqlSchema(new TableSpec("usertable", 2, layout, tablets), d, "ycsb", 3, transactions);
  }

  @Test
  void keyspaceCarriesTheReplicationFactor() {
    assertEquals("CREATE KEYSPACE IF NOT EXISTS ycsb WITH replication = "
        + "{'class': 'SimpleStrategy', 'replication_factor': 3}",
        schema(CqlDialect.CASSANDRA, KeyLayout.HASH, 0, false).createKeyspace());
  }

  @Test
  void theSampleAppsKeyValueTableHasBinaryValues() {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("table", "cassandrakeyvalue");
    p.setProperty(TableSpec.COLUMNS, "k,v");
    p.setProperty(TableSpec.VALUE_TYPE, "blob");
    CqlSchema kv = new CqlSchema(TableSpec.from(p, 10, KeyLayout.HASH), CqlDialect.YUGABYTEDB, "ybdemo_keyspace",
        1, false);
    assertEquals("CREATE TABLE ybdemo_keyspace.cassandrakeyvalue (k varchar, v blob, PRIMARY KEY (k))",
        kv.createTable());
    assertEquals("SELECT * FROM ybdemo_keyspace.cassandrakeyvalue WHERE k = ?", kv.read(List.of()));
  }

  /**
   * CassandraRangeKeyValue's table as the app creates it; every statement matches the whole key,
   * the key bound four times.
   */
  @Test
  void rangeColumnsClusterAfterTheKey() {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("table", "cassandrarangekeyvalue");
    p.setProperty(TableSpec.COLUMNS, "k,v");
    p.setProperty(TableSpec.RANGE_COLUMNS, "r1, r2,r3");
    p.setProperty(TableSpec.VALUE_TYPE, "blob");
    CqlSchema kv = new CqlSchema(TableSpec.from(p, 10, KeyLayout.HASH), CqlDialect.YUGABYTEDB, "ybdemo_keyspace",
        1, false);
    assertEquals("CREATE TABLE ybdemo_keyspace.cassandrarangekeyvalue (k varchar, r1 varchar, r2 varchar, "
        + "r3 varchar, v blob, PRIMARY KEY ((k), r1, r2, r3))", kv.createTable());
    assertEquals("INSERT INTO ybdemo_keyspace.cassandrarangekeyvalue (k, r1, r2, r3, v) VALUES (?, ?, ?, ?, ?)",
        kv.insert());
    assertEquals("SELECT v FROM ybdemo_keyspace.cassandrarangekeyvalue WHERE k = ? AND r1 = ? AND r2 = ? AND r3 = ?",
        kv.read(List.of("v")));
    assertEquals("UPDATE ybdemo_keyspace.cassandrarangekeyvalue SET v = ? WHERE k = ? AND r1 = ? AND r2 = ? "
        + "AND r3 = ?", kv.update(List.of("v")));
    assertEquals(4, kv.spec().keyCopies());
    assertTrue(kv.spec().isKey("R2"), "a range column is a key column, not a value");
    p.setProperty(TableSpec.INDEX, "v");
    UserError e = assertThrows(UserError.class, () -> new CqlSchema(TableSpec.from(p, 10, KeyLayout.HASH),
        CqlDialect.YUGABYTEDB, "ybdemo_keyspace", 1, false));
    assertEquals("yb.index needs YSQL: ybbench indexes a YSQL table's values (SqlSecondaryIndex's); leave it out for "
        + "YCQL", e.getMessage());
  }

  @Test
  void hashLayoutIsAPartitionKey() {
    String plain = "CREATE TABLE ycsb.usertable (ycsb_key varchar, field0 varchar, field1 varchar, "
        + "PRIMARY KEY (ycsb_key))";
    assertEquals(plain, schema(CqlDialect.CASSANDRA, KeyLayout.HASH, 0, false).createTable());
    assertEquals(plain, schema(CqlDialect.YUGABYTEDB, KeyLayout.HASH, 0, false).createTable());
    // Cassandra has no tablets or YCQL transactions: the options are left out, not sent.
    assertEquals(plain, schema(CqlDialect.CASSANDRA, KeyLayout.HASH, 12, true).createTable());
  }

  @Test
  void yugabyteExtrasAreTableOptions() {
    assertEquals("CREATE TABLE ycsb.usertable (ycsb_key varchar, field0 varchar, field1 varchar, "
        + "PRIMARY KEY (ycsb_key)) WITH tablets = 12",
        schema(CqlDialect.YUGABYTEDB, KeyLayout.HASH, 12, false).createTable());
    assertEquals("CREATE TABLE ycsb.usertable (ycsb_key varchar, field0 varchar, field1 varchar, "
        + "PRIMARY KEY (ycsb_key)) WITH tablets = 12 AND transactions = { 'enabled' : true }",
        schema(CqlDialect.YUGABYTEDB, KeyLayout.HASH, 12, true).createTable());
  }

  @Test
  void hashRangeLayoutIsAPartitionWithAscendingPosts() {
    assertEquals("CREATE TABLE ycsb.usertable (ycsb_key1 bigint, ycsb_key2 bigint, field0 varchar, "
        + "field1 varchar, PRIMARY KEY ((ycsb_key1), ycsb_key2)) WITH CLUSTERING ORDER BY (ycsb_key2 ASC)",
        schema(CqlDialect.CASSANDRA, KeyLayout.HASH_RANGE, 0, false).createTable());
    assertEquals("CREATE TABLE ycsb.usertable (ycsb_key1 bigint, ycsb_key2 bigint, field0 varchar, "
        + "field1 varchar, PRIMARY KEY ((ycsb_key1), ycsb_key2)) WITH CLUSTERING ORDER BY (ycsb_key2 ASC) "
        + "AND tablets = 3", schema(CqlDialect.YUGABYTEDB, KeyLayout.HASH_RANGE, 3, false).createTable());
  }

  @Test
  void rangeLayoutIsRefusedOverCql() {
    UserError e = assertThrows(UserError.class, () -> schema(CqlDialect.CASSANDRA, KeyLayout.RANGE, 0, false));
    assertEquals("The range layout needs YSQL: a CQL partition key is always hashed; use hash or hash-range",
        e.getMessage());
    java.util.Properties p = new java.util.Properties();
    p.setProperty(TableSpec.SPLIT_AT, "user10,user14");
    e = assertThrows(UserError.class, () -> new CqlSchema(TableSpec.from(p, 2, KeyLayout.HASH),
        CqlDialect.YUGABYTEDB, "ycsb", 3, false));
    assertEquals("--split-at needs YSQL: a CQL partition key is always hashed; pre-split a YCQL table by count "
        + "(--tablets)", e.getMessage());
  }

  @Test
  void rowStatements() {
    CqlSchema hash = schema(CqlDialect.CASSANDRA, KeyLayout.HASH, 0, false);
    assertEquals("SELECT * FROM ycsb.usertable WHERE ycsb_key = ?", hash.read(List.of()));
    assertEquals("SELECT * FROM ycsb.usertable WHERE token(ycsb_key) >= token(?) LIMIT ?", hash.scan(List.of()));
    assertEquals("UPDATE ycsb.usertable SET field1 = ? WHERE ycsb_key = ?", hash.update(List.of("field1")));
    assertEquals("INSERT INTO ycsb.usertable (ycsb_key, field0, field1) VALUES (?, ?, ?)", hash.insert());
    assertEquals("DELETE FROM ycsb.usertable WHERE ycsb_key = ?", hash.delete());
    assertEquals("DROP TABLE IF EXISTS ycsb.usertable", hash.dropTable());

    CqlSchema threads = schema(CqlDialect.YUGABYTEDB, KeyLayout.HASH_RANGE, 0, false);
    assertEquals("SELECT field0 FROM ycsb.usertable WHERE ycsb_key1 = ? AND ycsb_key2 >= ? LIMIT ?",
        threads.scan(List.of("field0")));
    assertEquals("SELECT * FROM ycsb.usertable WHERE ycsb_key1 = ? AND ycsb_key2 = ?", threads.read(List.of()));
  }
}
