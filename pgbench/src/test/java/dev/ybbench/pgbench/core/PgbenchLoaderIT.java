package dev.ybbench.pgbench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import dev.ybbench.pgbench.engine.PgbenchBinary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The tables ybbench creates where pgbench -i would make PostgreSQL's (on YugabyteDB) hold the rows
 * pgbench -i writes, row for row, and the real pgbench runs on them. Written here in PostgreSQL's
 * dialect on PostgreSQL 11, the nearest server to YSQL before 2.25: the dialect's YSQL text is
 * {@link PgbenchSchemaTest}'s.
 */
class PgbenchLoaderIT {
  @BeforeAll
  static void pgbench() {
    Tools.requireInstalled("pgbench", PgbenchBinary.PACKAGE);
  }

  @Test
  void ybbenchsRowsArePgbenchsAndPgbenchRunsOnThem() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start("11", 20, line -> { })) {
      YsqlEndpoint endpoint = YsqlEndpoint.of(YsqlEndpoint.Driver.PGJDBC, HostList.parse(pg.hostPort(), 5432),
          "postgres", pg.user(), "");
      // pgbench's client-side generation, then ybbench's beside it.
      pgbench(pg, "-i", "-s", "2", "-q");
      List<String> printed = new ArrayList<>();
      long rows = new PgbenchLoader(new PgbenchSchema(SqlDialect.POSTGRESQL, "ybbench_", 2, false, 0, true), "dtgvp",
          false, printed::add).load(endpoint, () -> false);
      assertEquals(200_000 + 20 + 2, rows);
      assertTrue(printed.contains("generating data (client-side)..."), printed.toString());
      assertTrue(printed.stream().anyMatch(l -> l.startsWith("100000 of 200000 tuples (50%) done (elapsed ")),
          printed.toString());
      assertTrue(printed.get(printed.size() - 1).matches("done in [0-9.]+ s \\(drop tables [0-9.]+ s, create "
          + "tables [0-9.]+ s, client-side generate [0-9.]+ s, vacuum [0-9.]+ s\\)\\."), printed.toString());
      sameRows(endpoint, "ybbench_");
      // pgbench's server-side generation and foreign keys, then ybbench's.
      pgbench(pg, "-i", "-s", "2", "-I", "dtGvpf");
      new PgbenchLoader(new PgbenchSchema(SqlDialect.POSTGRESQL, "ybbench_", 2, false, 0, true), "dtGvpf", true,
          line -> { }).load(endpoint, () -> false);
      sameRows(endpoint, "ybbench_");
      assertEquals(10, scalar(endpoint, "SELECT count(*) FROM pg_constraint WHERE contype = 'f'"),
          "pgbench's five foreign keys and ybbench's five");
      // ybbench's tables in pgbench's place: the real pgbench runs on them.
      new PgbenchLoader(new PgbenchSchema(SqlDialect.POSTGRESQL, "pgbench_", 1, false, 0, true),
          PgbenchLoader.DEFAULT_STEPS, true, line -> { }).load(endpoint, () -> false);
      String out = pgbench(pg, "-b", "tpcb-like", "-t", "20", "-n");
      assertTrue(out.contains("number of transactions actually processed: 20/20"), out);
      assertEquals(20, scalar(endpoint, "SELECT count(*) FROM pgbench_history"));
    }
  }

  /** Every table's rows the same as pgbench's, each way. */
  private static void sameRows(YsqlEndpoint endpoint, String prefix) throws SQLException {
    for (String t : List.of("branches", "tellers", "accounts", "history")) {
      assertEquals(scalar(endpoint, "SELECT count(*) FROM pgbench_" + t), scalar(endpoint, "SELECT count(*) FROM "
          + prefix + t), t);
      for (String[] sides : List.of(new String[] {"pgbench_", prefix}, new String[] {prefix, "pgbench_"})) {
        assertEquals(0, scalar(endpoint, "SELECT count(*) FROM (SELECT * FROM " + sides[0] + t + " EXCEPT ALL "
            + "SELECT * FROM " + sides[1] + t + ") d"), "rows of " + sides[0] + t + " not in " + sides[1] + t);
      }
    }
  }

  private static long scalar(YsqlEndpoint endpoint, String sql) throws SQLException {
    try (Connection c = endpoint.connect(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }

  private static String pgbench(EmbeddedPostgres pg, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("pgbench", "-h", pg.host(), "-p", Integer.toString(pg.port()), "-U",
        pg.user()));
    cmd.addAll(List.of(args));
    cmd.add("postgres");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out;
  }
}
