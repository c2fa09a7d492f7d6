package dev.ybbench.sysbench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.ysql.SqlDialect;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact DDL per dialect and layout: oltp_common.lua's columns, the key and split of each. */
class SysbenchSchemaTest {
  private static final String COLUMNS = "k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, "
      + "pad CHAR(60) DEFAULT '' NOT NULL, ";

  @Test
  void postgresGetsSysbenchsOwnTable() {
    SysbenchSchema s = new SysbenchSchema(SqlDialect.POSTGRESQL, false, 2, 1000, 0, true, true, 0);
    assertEquals("CREATE TABLE sbtest2 (id SERIAL, " + COLUMNS + "PRIMARY KEY (id))", s.createTable(2));
    assertEquals("CREATE INDEX k_2 ON sbtest2 (k)", s.createIndex(2));
    assertEquals("SELECT setval(pg_get_serial_sequence('sbtest2', 'id'), 1000, true)", s.continueSequence(2));
    assertEquals(List.of("sbtest1", "sbtest2"), s.tableNames());
    // PostgreSQL has no tablets: a range layout and a split change nothing there.
    assertEquals(s.createTable(1), new SysbenchSchema(SqlDialect.POSTGRESQL, true, 2, 1000, 4, true, true, 0)
        .createTable(1));
  }

  @Test
  void yugabyteHashesTheIdOrRangesItAndSplitsAsYugabytesSysbench() {
    SysbenchSchema hash = new SysbenchSchema(SqlDialect.YUGABYTEDB, false, 1, 100000, 12, false, true, 0);
    assertEquals("CREATE TABLE sbtest1 (id INTEGER NOT NULL, " + COLUMNS + "PRIMARY KEY (id HASH)) "
        + "SPLIT INTO 12 TABLETS", hash.createTable(1));
    assertEquals("CREATE INDEX k_1 ON sbtest1 (k HASH)", hash.createIndex(1));
    // yugabyte/sysbench's --range_key_partitioning with its 24 splits of 100,000 ids: (4166), (8333), …
    SysbenchSchema range = new SysbenchSchema(SqlDialect.YUGABYTEDB, true, 1, 100000, 24, true, true, 1000);
    String ddl = range.createTable(1);
    assertEquals("CREATE TABLE sbtest1 (id SERIAL, " + COLUMNS + "PRIMARY KEY (id ASC)) SPLIT AT VALUES ((4166), "
        + "(8333), (12500), (16666), (20833), (25000), (29166), (33333), (37500), (41666), (45833), (50000), (54166), "
        + "(58333), (62500), (66666), (70833), (75000), (79166), (83333), (87500), (91666), (95833))", ddl);
    assertEquals("CREATE INDEX k_1 ON sbtest1 (k ASC)", range.createIndex(1));
    assertEquals(List.of("ALTER SEQUENCE sbtest1_id_seq CACHE 1000"), range.afterCreate(1));
    assertEquals(List.of(), hash.afterCreate(1), "no sequence without auto_inc");
  }

  @Test
  void whatCannotBeCreatedIsRefusedByName() {
    assertEquals("--tables must be at least 1, was 0", assertThrows(UserError.class,
        () -> new SysbenchSchema(SqlDialect.YUGABYTEDB, false, 0, 10, 0, true, true, 0)).getMessage());
    assertEquals("--table-size must be 0 … 2147483647 (sysbench's ids are INTEGER), was 3000000000",
        assertThrows(UserError.class, () -> new SysbenchSchema(SqlDialect.YUGABYTEDB, false, 1, 3_000_000_000L, 0,
            true, true, 0)).getMessage());
    assertEquals("--tablets 8 splits the ids 1 … 5 of a range key: give at most --table-size tablets",
        assertThrows(UserError.class, () -> new SysbenchSchema(SqlDialect.YUGABYTEDB, true, 1, 5, 8, true, true, 0))
            .getMessage());
  }

  @Test
  void theShapeMarksWhatWasPrepared() {
    assertEquals("ybbench sysbench tables=10 rows=100000 layout=range tablets=24 auto_inc=on create_secondary=off",
        new SysbenchSchema(SqlDialect.YUGABYTEDB, true, 10, 100000, 24, true, false, 0).shape(100000));
  }
}
