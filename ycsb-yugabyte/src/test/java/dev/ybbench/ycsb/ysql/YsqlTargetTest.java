package dev.ybbench.ycsb.ysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.run.RunFailure;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Runs on one database against a real embedded PostgreSQL: none drops a table another uses. */
class YsqlTargetTest {
  private static EmbeddedPostgres pg;
  private final List<String> log = new ArrayList<>();

  @BeforeAll
  static void startServer() {
    pg = EmbeddedPostgres.start(null, 30, System.out::println);
  }

  @AfterAll
  static void stopServer() {
    if (pg != null) {
      pg.close();
    }
  }

  private static Properties props(String database) {
    Properties p = new Properties();
    p.setProperty(YsqlConfig.USER, EmbeddedPostgres.SUPERUSER);
    p.setProperty(YsqlConfig.DATABASE, database);
    p.setProperty("fieldcount", "2");
    return p;
  }

  private YsqlTarget open(Properties p) {
    return YsqlTarget.open(ServerTarget.choose(ServerTarget.Api.YSQL, pg.hostPort(), null, 1), 1, p, log::add);
  }

  @Test
  void aSecondRunCannotRecreateATableInUse() {
    String inUse = "table usertable in database shared is in use by another run; wait for it to finish or use "
        + "another --database";
    try (YsqlTarget loader = open(props("shared"))) {
      loader.createSchema(null, log::add, stop -> { });
      try (YsqlTarget second = open(props("shared"))) {
        assertEquals(inUse, assertThrows(UserError.class, () -> second.createSchema(null, log::add, stop -> { }))
            .getMessage());
        second.useExistingSchema(log::add);
        try (YsqlTarget third = open(props("shared"))) {
          third.useExistingSchema(log::add);
        }
      }
      assertEquals(inUse, assertThrows(UserError.class, () -> open(props("shared")).createSchema(null, log::add, stop -> { }))
          .getMessage());
    }
    try (YsqlTarget after = open(props("shared"))) {
      after.createSchema(null, log::add, stop -> { });
    }
  }

  @Test
  void runningWithoutLoadingNeedsTheTable() {
    try (YsqlTarget loader = open(props("runonly"))) {
      loader.createSchema(null, log::add, stop -> { });
    }
    Properties other = props("runonly");
    other.setProperty("table", "othertable");
    try (YsqlTarget run = open(other)) {
      RunFailure e = assertThrows(RunFailure.class, () -> run.useExistingSchema(log::add));
      assertEquals("table othertable does not exist in database runonly on " + pg.hostPort()
          + "; load it first (--phase load or both)", e.getMessage());
    }
  }

  @Test
  void runningWithoutLoadingNeedsTheDatabase() {
    try (YsqlTarget run = open(props("never_loaded"))) {
      RunFailure e = assertThrows(RunFailure.class, () -> run.useExistingSchema(log::add));
      assertEquals("database never_loaded does not exist on " + pg.hostPort()
          + "; load it first (--phase load or both)", e.getMessage());
    }
  }

  @Test
  void aPasswordAmongTheUrlOptionsIsKeptUnderItsOwnName() {
    Properties p = props("options");
    p.setProperty(YsqlConfig.URL_OPTIONS, "sslmode=disable&password=p%40ss");
    try (YsqlTarget t = open(p)) {
      assertEquals("sslmode=disable", p.getProperty(YsqlConfig.URL_OPTIONS));
      assertEquals("p@ss", p.getProperty(YsqlConfig.PASSWORD));
      assertEquals("POSTGRESQL", p.getProperty(YsqlConfig.DIALECT));
      assertEquals("pgjdbc", p.getProperty(YsqlConfig.DRIVER), "no driver asked for: pgjdbc on PostgreSQL");
    }
  }

  @Test
  void theSmartDriverAskedForOnPostgresqlConnectsWithoutBalancing() {
    Properties p = props("smart");
    p.setProperty(YsqlConfig.DRIVER, "yugabyte");
    try (YsqlTarget t = open(p)) {
      assertEquals("yugabyte", p.getProperty(YsqlConfig.DRIVER));
      assertEquals("false", p.getProperty(YsqlConfig.LOAD_BALANCE));
    }
  }
}
