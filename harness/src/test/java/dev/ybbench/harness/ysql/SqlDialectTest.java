package dev.ybbench.harness.ysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.ServerInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact key lists and DDL per dialect. */
class SqlDialectTest {
  private static final SqlDialect YB = SqlDialect.YUGABYTEDB;
  private static final SqlDialect PG = SqlDialect.POSTGRESQL;

  @Test
  void theServerPicksTheDialect() {
    assertEquals(YB, SqlDialect.of(ServerInfo.fromSqlVersion("PostgreSQL 15.2-YB-2025.1.0.0-b0 on x86_64")));
    assertEquals(PG, SqlDialect.of(ServerInfo.fromSqlVersion("PostgreSQL 17.11 on x86_64-pc-linux-gnu")));
  }

  @Test
  void yugabyteHashesTheLeadingColumnsAndSortsTheRest() {
    assertEquals("k HASH", YB.keyColumns(List.of("k"), 1));
    assertEquals("k ASC", YB.keyColumns(List.of("k"), 0));
    assertEquals("w HASH, d ASC, o ASC", YB.keyColumns(List.of("w", "d", "o"), 1));
    assertEquals("(w, d) HASH, o ASC", YB.keyColumns(List.of("w", "d", "o"), 2));
    assertEquals("PRIMARY KEY (k1 HASH, k2 ASC)", YB.primaryKey(List.of("k1", "k2"), 1));
  }

  @Test
  void postgresWritesPlainColumnLists() {
    assertEquals("w, d, o", PG.keyColumns(List.of("w", "d", "o"), 1));
    assertEquals("k", PG.keyColumns(List.of("k"), 0));
    assertEquals("PRIMARY KEY (k1, k2)", PG.primaryKey(List.of("k1", "k2"), 2));
  }

  @Test
  void onlyYugabyteSplitsIntoTablets() {
    List<String> elements = List.of("k BIGINT", "v TEXT", "PRIMARY KEY (k HASH)");
    assertEquals("CREATE TABLE t (k BIGINT, v TEXT, PRIMARY KEY (k HASH)) SPLIT INTO 8 TABLETS",
        YB.createTable("t", elements, 8));
    assertEquals("CREATE TABLE t (k BIGINT, v TEXT, PRIMARY KEY (k HASH))", YB.createTable("t", elements, 0));
    assertEquals("CREATE TABLE t (k BIGINT, v TEXT)", PG.createTable("t", List.of("k BIGINT", "v TEXT"), 8));
  }

  @Test
  void indexesUseTheSameKeyRule() {
    assertEquals("CREATE INDEX i ON t (a HASH, b ASC)", YB.createIndex("i", "t", List.of("a", "b"), 1));
    assertEquals("CREATE INDEX i ON t (a, b)", PG.createIndex("i", "t", List.of("a", "b"), 1));
  }

  @Test
  void moreHashedColumnsThanTheKeyHasIsAMistake() {
    assertThrows(IllegalArgumentException.class, () -> YB.keyColumns(List.of("k"), 2));
  }
}
