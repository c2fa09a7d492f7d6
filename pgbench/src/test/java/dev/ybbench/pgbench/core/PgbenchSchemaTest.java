package dev.ybbench.pgbench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.harness.ysql.TableSplit;
import java.util.List;
import org.junit.jupiter.api.Test;

class PgbenchSchemaTest {
  @Test
  void ysqlsTablesHashTheirKeyDeclaredWithThemAndSplitByCount() {
    PgbenchSchema s = new PgbenchSchema(SqlDialect.YUGABYTEDB, "pgbench_", 10, false, 4, true);
    assertEquals(List.of(
        "CREATE TABLE pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22)) "
            + "SPLIT INTO 4 TABLETS",
        "CREATE TABLE pgbench_tellers (tid int not null, bid int, tbalance int, filler char(84), PRIMARY KEY "
            + "(tid HASH)) SPLIT INTO 4 TABLETS",
        "CREATE TABLE pgbench_accounts (aid int not null, bid int, abalance int, filler char(84), PRIMARY KEY "
            + "(aid HASH)) SPLIT INTO 4 TABLETS",
        "CREATE TABLE pgbench_branches (bid int not null, bbalance int, filler char(88), PRIMARY KEY (bid HASH)) "
            + "SPLIT INTO 4 TABLETS"), s.createTables());
    assertEquals("DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers",
        s.dropTables());
  }

  @Test
  void aRangeKeySplitsAtValuesSpacedOverItsRowsAndASmallTableTakesFewer() {
    PgbenchSchema s = new PgbenchSchema(SqlDialect.YUGABYTEDB, "pgbench_", 2, true, 4, true);
    assertEquals("CREATE TABLE pgbench_accounts (aid int not null, bid int, abalance int, filler char(84), "
        + "PRIMARY KEY (aid ASC)) SPLIT AT VALUES ((50001), (100001), (150001))", s.createTables().get(2));
    assertEquals(new TableSplit(0, List.of("6", "11", "16")), s.split("pgbench_tellers", true));
    // Two branches over four tablets: one split, at the second.
    assertEquals("CREATE TABLE pgbench_branches (bid int not null, bbalance int, filler char(88), PRIMARY KEY "
        + "(bid ASC)) SPLIT AT VALUES ((2))", s.createTables().get(3));
    // No key to range over: the history's hidden row id is hashed.
    assertEquals(TableSplit.into(4), s.split("pgbench_history", false));
  }

  @Test
  void withoutPTheTablesHaveNoKeyAndPostgresqlsTakeNoSplit() {
    PgbenchSchema s = new PgbenchSchema(SqlDialect.YUGABYTEDB, "pgbench_", 20_000, false, 0, false);
    assertEquals("CREATE TABLE pgbench_accounts (aid bigint not null, bid int, abalance int, filler char(84))",
        s.createTables().get(2), "pgbench's aid is a bigint from scale 20,000");
    PgbenchSchema pg = new PgbenchSchema(SqlDialect.POSTGRESQL, "pgbench_", 1, true, 8, true);
    assertEquals("CREATE TABLE pgbench_tellers (tid int not null, bid int, tbalance int, filler char(84), PRIMARY KEY "
        + "(tid))", pg.createTables().get(1));
    assertThrows(UserError.class, () -> new PgbenchSchema(SqlDialect.YUGABYTEDB, "pgbench_", 1, false, -1, true));
  }

  @Test
  void foreignKeysAndTheServerSideRowsArePgbenchs() {
    PgbenchSchema s = new PgbenchSchema(SqlDialect.YUGABYTEDB, "pgbench_", 3, false, 0, true);
    assertEquals("ALTER TABLE pgbench_history ADD CONSTRAINT pgbench_history_aid_fkey FOREIGN KEY (aid) REFERENCES "
        + "pgbench_accounts", s.foreignKeys().get(4));
    assertEquals(5, s.foreignKeys().size());
    assertEquals(List.of(
        "INSERT INTO pgbench_branches (bid, bbalance) SELECT bid, 0 FROM generate_series(1, 3) AS bid",
        "INSERT INTO pgbench_tellers (tid, bid, tbalance) SELECT tid, (tid - 1) / 10 + 1, 0 FROM "
            + "generate_series(1, 30) AS tid",
        "INSERT INTO pgbench_accounts (aid, bid, abalance, filler) SELECT aid, (aid - 1) / 100000 + 1, 0, '' FROM "
            + "generate_series(1, 300000) AS aid"), s.generateOnServer());
    assertEquals(300_000, s.rows("pgbench_accounts"));
    assertEquals(0, s.rows("pgbench_history"));
  }
}
