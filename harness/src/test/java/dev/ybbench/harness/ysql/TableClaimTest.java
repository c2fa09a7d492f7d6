package dev.ybbench.harness.ysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.ysql.TableClaim.Mode;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Table claims and the endpoint's server calls against a real embedded PostgreSQL. */
class TableClaimTest {
  private static final String IN_USE =
      "table usertable in database claims is in use by another run; wait for it to finish or use another --database";

  private static EmbeddedPostgres pg;
  private static YsqlEndpoint endpoint;
  private final List<String> log = new ArrayList<>();

  @BeforeAll
  static void startServer() {
    pg = EmbeddedPostgres.start(null, 30, System.out::println);
    endpoint = YsqlEndpoint.of(YsqlEndpoint.Driver.PGJDBC, HostList.parse(pg.hostPort(), 5432), "claims",
        EmbeddedPostgres.SUPERUSER, "");
    endpoint.createDatabaseIfMissing(s -> { });
  }

  @AfterAll
  static void stopServer() {
    if (pg != null) {
      pg.close();
    }
  }

  private TableClaim take(String table, Mode mode) throws SQLException {
    return TableClaim.take(endpoint, table, mode, log::add);
  }

  @Test
  void sharedClaimsCoexistAndKeepAnExclusiveOneOut() throws Exception {
    try (TableClaim first = take("usertable", Mode.SHARED)) {
      try (TableClaim second = take("usertable", Mode.SHARED)) {
        assertTrue(second.protects());
        UserError e = assertThrows(UserError.class, () -> take("usertable", Mode.EXCLUSIVE));
        assertEquals(IN_USE, e.getMessage());
      }
      assertEquals(IN_USE, assertThrows(UserError.class, () -> take("usertable", Mode.EXCLUSIVE)).getMessage());
    }
    take("usertable", Mode.EXCLUSIVE).close();
    assertEquals(List.of(), log);
  }

  @Test
  void anExclusiveClaimKeepsEveryoneOutUntilItTurnsShared() throws Exception {
    try (TableClaim creator = take("created", Mode.EXCLUSIVE); Connection other = endpoint.connect()) {
      assertThrows(UserError.class, () -> take("created", Mode.SHARED));
      assertThrows(UserError.class, () -> take("created", Mode.EXCLUSIVE));
      // What a fleet's other clients ask before they claim the table client 0 is creating.
      assertTrue(TableClaim.heldExclusively(other, endpoint.database(), "created"));
      creator.downgrade();
      assertFalse(TableClaim.heldExclusively(other, endpoint.database(), "created"));
      assertEquals(Mode.SHARED, creator.mode());
      take("created", Mode.SHARED).close();
      assertThrows(UserError.class, () -> take("created", Mode.EXCLUSIVE));
    }
    take("created", Mode.EXCLUSIVE).close();
  }

  @Test
  void otherTablesAndOtherDatabasesAreNotInTheWay() throws Exception {
    YsqlEndpoint elsewhere = endpoint.withDatabase("claims_other");
    elsewhere.createDatabaseIfMissing(log::add);
    try (TableClaim held = take("usertable2", Mode.EXCLUSIVE)) {
      take("usertable3", Mode.EXCLUSIVE).close();
      TableClaim.take(elsewhere, "usertable2", Mode.EXCLUSIVE, log::add).close();
    }
    assertEquals(List.of("Creating database claims_other"), log);
  }

  @Test
  void aMissingDatabaseIsSqlstate3D000() {
    SQLException e = assertThrows(SQLException.class,
        () -> TableClaim.take(endpoint.withDatabase("no_such_db"), "usertable", Mode.SHARED, log::add));
    assertEquals("3D000", e.getSQLState());
  }

  @Test
  void aServerWithoutAdvisoryLocksIsWarnedAboutAndNotRefused() throws Exception {
    AtomicBoolean closed = new AtomicBoolean();
    TableClaim claim = TableClaim.take(withoutAdvisoryLocks(closed), "ycsb", "usertable", Mode.EXCLUSIVE, log::add);
    assertFalse(claim.protects());
    assertTrue(closed.get(), "the session is not kept when it holds nothing");
    assertEquals(List.of("warning: the server has no advisory locks (advisory locks are not yet implemented), so "
        + "concurrent runs on table usertable in database ycsb are not protected from each other"), log);
    claim.downgrade();
    claim.close();
  }

  @Test
  void theKeyIsStableAndFollowsNameFolding() {
    assertEquals(TableClaim.key("ycsb", "usertable"), TableClaim.key("ycsb", "UserTable"));
    assertNotEquals(TableClaim.key("ycsb", "usertable"), TableClaim.key("ycsb2", "usertable"));
    // Not tied to Java: the first 8 bytes of SHA-256("ybbench:ycsb.usertable"), signed big-endian.
    assertEquals(6131305214407412655L, TableClaim.key("ycsb", "usertable"));
  }

  @Test
  void theEndpointDetectsCreatesAndChecks() throws Exception {
    ServerInfo info = endpoint.detect();
    assertEquals(ServerInfo.POSTGRESQL, info.product());
    YsqlEndpoint fresh = endpoint.withDatabase("claims_created");
    fresh.createDatabaseIfMissing(log::add);
    fresh.createDatabaseIfMissing(log::add);
    assertEquals(List.of("Creating database claims_created"), log);
    assertFalse(fresh.tableExists("t"));
    try (Connection c = fresh.connect(false); Statement st = c.createStatement()) {
      assertFalse(c.getAutoCommit());
      st.execute("CREATE TABLE t (k INT)");
      c.commit();
    }
    assertTrue(fresh.tableExists("t"));
  }

  @Test
  void unreachableAndRefusedAreToldApart() {
    YsqlEndpoint nobody = endpoint.withHosts(HostList.parse("127.0.0.1:1", 5432));
    UserError down = assertThrows(UserError.class, nobody::detect);
    assertTrue(down.getMessage().startsWith("Cannot connect to YSQL at 127.0.0.1:1: "), down.getMessage());
    assertTrue(down.getMessage().endsWith("; check --hosts (or YSQL_NODES) and that the server is up"));
    UserError refused = assertThrows(UserError.class, () -> endpoint.withUser("no_such_role").detect());
    assertTrue(refused.getMessage().startsWith("YSQL at " + pg.hostPort() + " refused the connection: "),
        refused.getMessage());
    assertTrue(refused.getMessage().endsWith("; check --user, --password, --database"));
    // Printed as it is: the redaction of "--password VALUE" in printed text takes no word of it for a password.
    assertEquals(refused.getMessage(), dev.ybbench.harness.results.Console.clean(refused.getMessage()));
  }

  /** A session whose server answers every advisory lock call as YugabyteDB releases without them do. */
  private static Connection withoutAdvisoryLocks(AtomicBoolean closed) {
    PreparedStatement statement = (PreparedStatement) Proxy.newProxyInstance(TableClaimTest.class.getClassLoader(),
        new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
          if (method.getName().equals("executeQuery")) {
            throw new SQLException("advisory locks are not yet implemented", "0A000");
          }
          return null;
        });
    return (Connection) Proxy.newProxyInstance(TableClaimTest.class.getClassLoader(),
        new Class<?>[] {Connection.class}, (proxy, method, args) -> switch (method.getName()) {
          case "prepareStatement" -> statement;
          case "close" -> {
            closed.set(true);
            yield null;
          }
          default -> null;
        });
  }
}
