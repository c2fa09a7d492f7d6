package dev.ybbench.ycsb.ysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.UserError;
import dev.ybbench.ycsb.schema.KeyLayout;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class YsqlConfigTest {
  private static Properties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  @Test
  void smartDriverUrlBalancesOverEveryNodeWithDefaultPorts() {
    YsqlConfig c = YsqlConfig.from(props("ysql.hosts", "10.0.0.1,10.0.0.2:5434,10.0.0.3"));
    assertEquals("jdbc:yugabytedb://10.0.0.1:5433,10.0.0.2:5434,10.0.0.3:5433/ycsb"
        + "?ApplicationName=ybbench&connectTimeout=10&reWriteBatchedInserts=true&load-balance=true", c.url("ycsb"));
    assertEquals("yugabyte", c.endpoint().user());
    assertEquals(KeyLayout.HASH, c.table().layout());
    assertEquals(10, c.table().fields().size());
  }

  @Test
  void theNodesTheRunnerParsedAreTakenAsTheyAre() {
    HostList nodes = HostList.parse("n1,n2:5434", YsqlConfig.DEFAULT_PORT);
    YsqlConfig c = YsqlConfig.from(props("ysql.hosts", "n1,n2:5434", "ysql.database", "bench"), nodes);
    assertSame(nodes, c.endpoint().hosts(), "parsed once, not again for each binding thread");
    assertEquals("jdbc:yugabytedb://n1:5433,n2:5434/bench"
        + "?ApplicationName=ybbench&connectTimeout=10&reWriteBatchedInserts=true&load-balance=true", c.url("bench"));
  }

  @Test
  void pgjdbcUrlSpreadsConnectionsOverSeveralHosts() {
    YsqlConfig c = YsqlConfig.from(props("ysql.hosts", "a:1,b:2", "ysql.driver", "pgjdbc", "ysql.database", "bench"));
    assertEquals("jdbc:postgresql://a:1,b:2/bench"
        + "?ApplicationName=ybbench&connectTimeout=10&reWriteBatchedInserts=true&loadBalanceHosts=true",
        c.url(c.database()));
  }

  @Test
  void theEventLoopClientKeepsPgjdbcForEverythingButTheRunPhase() {
    YsqlConfig c = YsqlConfig.from(props("ysql.hosts", "a:1,b:2", "ysql.driver", "vertx", "ysql.load_balance", "false",
        "ysql.fetch_size", "0"));
    assertTrue(c.vertx());
    assertEquals("jdbc:postgresql://a:1,b:2/ycsb"
        + "?ApplicationName=ybbench&connectTimeout=10&reWriteBatchedInserts=true&loadBalanceHosts=true",
        c.url(c.database()));
    assertFalse(YsqlConfig.from(props("ysql.hosts", "a", "ysql.driver", "pgjdbc")).vertx());
  }

  @Test
  void whatTheEventLoopClientCannotHonourIsRefusedByName() {
    assertEquals("ysql.url_options cannot be honoured with ysql.driver=vertx: --url-options are JDBC's connection "
        + "options (leave it out, or use --driver pgjdbc)", assertThrows(UserError.class, () -> YsqlConfig.from(
        props("ysql.hosts", "a", "ysql.driver", "vertx", "ysql.url_options", "sslmode=require"))).getMessage());
    assertEquals("ysql.load_balance cannot be honoured with ysql.driver=vertx: it has no topology awareness; its "
        + "connections go to the nodes in turn (leave it out, or use --driver pgjdbc)", assertThrows(UserError.class,
        () -> YsqlConfig.from(props("ysql.hosts", "a", "ysql.driver", "vertx", "ysql.load_balance", "true")))
        .getMessage());
    assertThrows(UserError.class, () -> YsqlConfig.from(props("ysql.hosts", "a", "ysql.driver", "vertx",
        "ysql.fetch_size", "100")));
    assertEquals("Unknown ysql.driver 'netty'; use yugabyte (smart driver), pgjdbc or vertx (event loops)",
        assertThrows(UserError.class, () -> YsqlConfig.from(props("ysql.hosts", "a", "ysql.driver", "netty")))
            .getMessage());
  }

  @Test
  void thePasswordNeverAppearsInTheUrl() {
    YsqlConfig c = YsqlConfig.from(props("ysql.hosts", "h", "ysql.password", "s3cret"));
    assertFalse(c.url("ycsb").contains("s3cret"));
  }

  @Test
  void urlOptionsPassThroughAfterTheHarnessOwn() {
    YsqlConfig c = YsqlConfig.from(props("ysql.hosts", "h", YsqlConfig.URL_OPTIONS,
        "topology-keys=cloud.region.zone1&sslmode=require&password=s3cret"));
    assertEquals("jdbc:yugabytedb://h:5433/ycsb?ApplicationName=ybbench&connectTimeout=10&reWriteBatchedInserts=true"
        + "&topology-keys=cloud.region.zone1&sslmode=require&load-balance=true", c.url("ycsb"));
    assertEquals("s3cret", c.endpoint().password());
  }

  @Test
  void aLoadBalanceAmongTheUrlOptionsStandsUnlessThePropertyIsGiven() {
    assertEquals("jdbc:yugabytedb://h:5433/ycsb?ApplicationName=ybbench&connectTimeout=10&reWriteBatchedInserts=true"
        + "&load-balance=prefer-rr", YsqlConfig.from(props("ysql.hosts", "h", YsqlConfig.URL_OPTIONS,
            "load-balance=prefer-rr")).url("ycsb"));
    assertEquals("jdbc:yugabytedb://h:5433/ycsb?ApplicationName=ybbench&connectTimeout=10&reWriteBatchedInserts=true"
        + "&load-balance=false", YsqlConfig.from(props("ysql.hosts", "h", YsqlConfig.URL_OPTIONS,
            "load-balance=true", YsqlConfig.LOAD_BALANCE, "false")).url("ycsb"));
  }

  @Test
  void ycsbPropertiesShapeTheTable() {
    YsqlConfig c = YsqlConfig.from(props("ysql.hosts", "h", "table", "t1", "fieldcount", "2",
        "yb.layout", "hash-range", "yb.split", "50", YsqlConfig.BATCH_SIZE, "64"));
    assertEquals("t1", c.table().table());
    assertEquals(2, c.table().fields().size());
    assertEquals(KeyLayout.HASH_RANGE, c.table().layout());
    assertEquals(50, c.split());
    assertEquals(64, c.batchSize());
  }

  @Test
  void badValuesAreNamed() {
    UserError driver = assertThrows(UserError.class, () -> YsqlConfig.from(props("ysql.hosts", "h",
        "ysql.driver", "odbc")));
    assertEquals("Unknown ysql.driver 'odbc'; use yugabyte (smart driver), pgjdbc or vertx (event loops)", driver.getMessage());
    UserError count = assertThrows(UserError.class, () -> YsqlConfig.from(props("ysql.hosts", "h",
        "fieldcount", "ten")));
    assertEquals("Property fieldcount=ten is not a whole number", count.getMessage());
  }
}
