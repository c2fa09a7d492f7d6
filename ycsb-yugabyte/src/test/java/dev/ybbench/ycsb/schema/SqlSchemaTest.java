package dev.ybbench.ycsb.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.ysql.SqlDialect;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact DDL and DML text per dialect and layout. */
class SqlSchemaTest {
  private static SqlSchema yb(KeyLayout layout, int tablets) {
    return new SqlSchema(new TableSpec("usertable", 3, layout, tablets), SqlDialect.YUGABYTEDB);
  }

  private static SqlSchema pg(KeyLayout layout, int tablets) {
    return new SqlSchema(new TableSpec("usertable", 3, layout, tablets), SqlDialect.POSTGRESQL);
  }

  @Test
  void yugabyteHashLayoutHashShardsTheKey() {
    assertEquals("CREATE TABLE usertable (ycsb_key VARCHAR(255), field0 TEXT, field1 TEXT, field2 TEXT, "
        + "PRIMARY KEY (ycsb_key HASH))", yb(KeyLayout.HASH, 0).createTable());
    assertEquals("CREATE TABLE usertable (ycsb_key VARCHAR(255), field0 TEXT, field1 TEXT, field2 TEXT, "
        + "PRIMARY KEY (ycsb_key HASH)) SPLIT INTO 12 TABLETS", yb(KeyLayout.HASH, 12).createTable());
  }

  @Test
  void fieldNamesFollowFieldnameprefixAndTheSampleAppsTableIsItsOwn() {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("fieldnameprefix", "col");
    assertEquals("CREATE TABLE usertable (ycsb_key VARCHAR(255), col0 TEXT, col1 TEXT, PRIMARY KEY (ycsb_key))",
        new SqlSchema(TableSpec.from(p, 2, KeyLayout.HASH), SqlDialect.POSTGRESQL).createTable());
    p = new java.util.Properties();
    p.setProperty("table", "postgresqlkeyvalue");
    p.setProperty(TableSpec.COLUMNS, "k,v");
    SqlSchema kv = new SqlSchema(TableSpec.from(p, 10, KeyLayout.HASH), SqlDialect.YUGABYTEDB);
    assertEquals("CREATE TABLE postgresqlkeyvalue (k TEXT, v TEXT, PRIMARY KEY (k HASH))", kv.createTable());
    assertEquals("INSERT INTO postgresqlkeyvalue (k, v) VALUES (?, ?)", kv.insert());
    assertEquals("SELECT * FROM postgresqlkeyvalue WHERE k = ?", kv.read(List.of()));
    assertEquals("UPDATE postgresqlkeyvalue SET v = ? WHERE k = ?", kv.update(List.of("v")));
  }

  /** SqlSecondaryIndex's table and index as the app creates them, and its read by value. */
  @Test
  void anIndexOnTheValueAndAReadThroughIt() {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("table", "sqlsecondaryindex");
    p.setProperty(TableSpec.COLUMNS, "k,v");
    p.setProperty(TableSpec.INDEX, "v");
    SqlSchema yb = new SqlSchema(TableSpec.from(p, 10, KeyLayout.HASH), SqlDialect.YUGABYTEDB);
    assertEquals("CREATE TABLE sqlsecondaryindex (k TEXT, v TEXT, PRIMARY KEY (k HASH))", yb.createTable());
    assertEquals(java.util.Optional.of("CREATE INDEX IF NOT EXISTS sqlsecondaryindex_index ON sqlsecondaryindex (v)"),
        yb.createIndex());
    assertEquals("SELECT k, v FROM sqlsecondaryindex WHERE v = ?", yb.readByValue("v"));
    assertEquals(java.util.Optional.empty(), yb(KeyLayout.HASH, 0).createIndex(), "no index unless asked");
    p.setProperty(TableSpec.INDEX, "w");
    UserError e = assertThrows(UserError.class, () -> TableSpec.from(p, 10, KeyLayout.HASH));
    assertEquals("yb.index=w: w is not one of the value columns v", e.getMessage());
    p.remove(TableSpec.COLUMNS);
    p.setProperty(TableSpec.INDEX, "field0");
    e = assertThrows(UserError.class, () -> TableSpec.from(p, 10, KeyLayout.HASH));
    assertEquals("yb.index applies to a key-value table (yb.columns), not to YCSB's", e.getMessage());
  }

  /** A key-value table's range columns follow its key in the primary key, ascending on YugabyteDB. */
  @Test
  void rangeColumnsFollowTheKey() {
    java.util.Properties p = new java.util.Properties();
    p.setProperty("table", "kv");
    p.setProperty(TableSpec.COLUMNS, "k,v");
    p.setProperty(TableSpec.RANGE_COLUMNS, "r1,r2");
    assertEquals("CREATE TABLE kv (k TEXT, r1 TEXT, r2 TEXT, v TEXT, PRIMARY KEY (k HASH, r1 ASC, r2 ASC))",
        new SqlSchema(TableSpec.from(p, 10, KeyLayout.HASH), SqlDialect.YUGABYTEDB).createTable());
    assertEquals("CREATE TABLE kv (k TEXT, r1 TEXT, r2 TEXT, v TEXT, PRIMARY KEY (k, r1, r2))",
        new SqlSchema(TableSpec.from(p, 10, KeyLayout.HASH), SqlDialect.POSTGRESQL).createTable());
  }

  @Test
  void yugabyteRangeLayoutSortsTheKeyAscending() {
    assertEquals("CREATE TABLE usertable (ycsb_key VARCHAR(255), field0 TEXT, field1 TEXT, field2 TEXT, "
        + "PRIMARY KEY (ycsb_key ASC))", yb(KeyLayout.RANGE, 0).createTable());
  }

  @Test
  void yugabyteCannotSplitARangeTableByCount() {
    UserError e = assertThrows(UserError.class, () -> yb(KeyLayout.RANGE, 4));
    assertEquals("--tablets needs a hash or hash-range layout; a range layout is split at key values (--split-at)",
        e.getMessage());
  }

  private static SqlSchema splitAt(String keys, KeyLayout layout, SqlDialect dialect) {
    java.util.Properties p = new java.util.Properties();
    p.setProperty(TableSpec.SPLIT_AT, keys);
    return new SqlSchema(TableSpec.from(p, 2, layout), dialect);
  }

  @Test
  void yugabyteSplitsARangeTableAtTheGivenKeys() {
    assertEquals("CREATE TABLE usertable (ycsb_key VARCHAR(255), field0 TEXT, field1 TEXT, "
        + "PRIMARY KEY (ycsb_key ASC)) SPLIT AT VALUES (('user10'), ('user14'), ('user18'))",
        splitAt("user10, user14,user18", KeyLayout.RANGE, SqlDialect.YUGABYTEDB).createTable());
    assertEquals("CREATE TABLE usertable (ycsb_key VARCHAR(255), field0 TEXT, field1 TEXT, PRIMARY KEY (ycsb_key))",
        splitAt("user10", KeyLayout.RANGE, SqlDialect.POSTGRESQL).createTable());
    UserError e = assertThrows(UserError.class, () -> splitAt("user10", KeyLayout.HASH, SqlDialect.YUGABYTEDB));
    assertEquals("--split-at needs --layout range; a hashed key is split by count (--tablets)", e.getMessage());
    e = assertThrows(UserError.class, () -> splitAt("user2,user10", KeyLayout.RANGE, SqlDialect.YUGABYTEDB));
    assertEquals("yb.split_at must ascend without repeats; 'user2' comes before 'user10'", e.getMessage());
  }

  @Test
  void yugabyteHashRangeLayoutHashesTheThreadAndSortsThePosts() {
    assertEquals("CREATE TABLE usertable (ycsb_key1 BIGINT, ycsb_key2 BIGINT, field0 TEXT, field1 TEXT, "
        + "field2 TEXT, PRIMARY KEY (ycsb_key1 HASH, ycsb_key2 ASC))", yb(KeyLayout.HASH_RANGE, 0).createTable());
    assertEquals("CREATE TABLE usertable (ycsb_key1 BIGINT, ycsb_key2 BIGINT, field0 TEXT, field1 TEXT, "
        + "field2 TEXT, PRIMARY KEY (ycsb_key1 HASH, ycsb_key2 ASC)) SPLIT INTO 3 TABLETS",
        yb(KeyLayout.HASH_RANGE, 3).createTable());
  }

  @Test
  void postgresGetsPlainPrimaryKeysAndNoSplit() {
    String oneKey = "CREATE TABLE usertable (ycsb_key VARCHAR(255), field0 TEXT, field1 TEXT, field2 TEXT, "
        + "PRIMARY KEY (ycsb_key))";
    assertEquals(oneKey, pg(KeyLayout.HASH, 0).createTable());
    assertEquals(oneKey, pg(KeyLayout.RANGE, 0).createTable());
    assertEquals(oneKey, pg(KeyLayout.HASH, 8).createTable());
    assertEquals("CREATE TABLE usertable (ycsb_key1 BIGINT, ycsb_key2 BIGINT, field0 TEXT, field1 TEXT, "
        + "field2 TEXT, PRIMARY KEY (ycsb_key1, ycsb_key2))", pg(KeyLayout.HASH_RANGE, 0).createTable());
  }

  @Test
  void statementsForOneKeyColumn() {
    SqlSchema s = yb(KeyLayout.HASH, 0);
    assertEquals("SELECT * FROM usertable WHERE ycsb_key = ?", s.read(List.of()));
    assertEquals("SELECT field1 FROM usertable WHERE ycsb_key = ?", s.read(List.of("field1")));
    assertEquals("SELECT * FROM usertable WHERE ycsb_key >= ? ORDER BY ycsb_key LIMIT ?", s.scan(List.of()));
    assertEquals("UPDATE usertable SET field0 = ?, field2 = ? WHERE ycsb_key = ?",
        s.update(List.of("field0", "field2")));
    assertEquals("INSERT INTO usertable (ycsb_key, field0, field1, field2) VALUES (?, ?, ?, ?)", s.insert());
    assertEquals("COPY usertable (ycsb_key, field0, field1, field2) FROM STDIN", s.copy());
    assertEquals("DELETE FROM usertable WHERE ycsb_key = ?", s.delete());
    assertEquals("DROP TABLE IF EXISTS usertable", s.dropTable());
  }

  @Test
  void statementsForHashRangeStayInsideOneThread() {
    SqlSchema s = pg(KeyLayout.HASH_RANGE, 0);
    assertEquals("SELECT * FROM usertable WHERE ycsb_key1 = ? AND ycsb_key2 = ?", s.read(List.of()));
    assertEquals("SELECT field0 FROM usertable WHERE ycsb_key1 = ? AND ycsb_key2 >= ? ORDER BY ycsb_key2 LIMIT ?",
        s.scan(List.of("field0")));
    assertEquals("INSERT INTO usertable (ycsb_key1, ycsb_key2, field0, field1, field2) VALUES (?, ?, ?, ?, ?)",
        s.insert());
    assertEquals("COPY usertable (ycsb_key1, ycsb_key2, field0, field1, field2) FROM STDIN", s.copy());
    assertEquals("DELETE FROM usertable WHERE ycsb_key1 = ? AND ycsb_key2 = ?", s.delete());
  }

  @Test
  void layoutFlagsAreParsedAndBadOnesNamed() {
    assertEquals(KeyLayout.HASH_RANGE, KeyLayout.fromFlag("hash-range"));
    assertEquals(KeyLayout.RANGE, KeyLayout.fromFlag("RANGE"));
    UserError e = assertThrows(UserError.class, () -> KeyLayout.fromFlag("btree"));
    assertEquals("Unknown layout 'btree'; use one of hash, range, hash-range", e.getMessage());
  }
}
