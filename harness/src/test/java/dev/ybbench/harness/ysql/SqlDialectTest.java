package dev.ybbench.harness.ysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
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
        YB.createTable("t", elements, TableSplit.into(8)));
    assertEquals("CREATE TABLE t (k BIGINT, v TEXT, PRIMARY KEY (k HASH))",
        YB.createTable("t", elements, TableSplit.into(0)));
    assertEquals("CREATE TABLE t (k BIGINT, v TEXT)", PG.createTable("t", List.of("k BIGINT", "v TEXT"),
        TableSplit.into(8)));
  }

  @Test
  void aRangeKeySplitsAtValuesAsYsqlWritesThem() {
    List<String> elements = List.of("k VARCHAR(255)", "v TEXT", "PRIMARY KEY (k ASC)");
    assertEquals("CREATE TABLE t (k VARCHAR(255), v TEXT, PRIMARY KEY (k ASC)) SPLIT AT VALUES (('user10'), "
        + "('user14'), ('user9''s'))", YB.createTable("t", elements,
        TableSplit.atText(List.of("user10", "user14", "user9's"), "--split-at")));
    assertEquals("CREATE TABLE t (id INT, PRIMARY KEY (id ASC)) SPLIT AT VALUES ((100), (200))",
        YB.createTable("t", List.of("id INT", "PRIMARY KEY (id ASC)"), TableSplit.atNumbers(List.of(100L, 200L))));
    assertEquals("CREATE TABLE t (k VARCHAR(255), v TEXT, PRIMARY KEY (k ASC))", PG.createTable("t", elements,
        TableSplit.atText(List.of("user10"), "--split-at")));
  }

  @Test
  void splitPointsOutOfKeyOrderAreRefusedByName() {
    UserError e = assertThrows(UserError.class, () -> TableSplit.atText(List.of("user14", "user10"), "--split-at"));
    assertEquals("--split-at must ascend without repeats; 'user14' comes before 'user10'", e.getMessage());
    e = assertThrows(UserError.class, () -> TableSplit.atText(List.of("a", "a"), "yb.split_at"));
    assertEquals("yb.split_at must ascend without repeats; 'a' comes before 'a'", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new TableSplit(4, List.of("'a'")));
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
