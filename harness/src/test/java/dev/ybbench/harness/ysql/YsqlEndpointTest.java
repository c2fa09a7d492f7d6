package dev.ybbench.harness.ysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.UserError;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The URL text: driver prefixes, options in order, load balancing, and never the password. */
class YsqlEndpointTest {
  private static final String DEFAULTS = "ApplicationName=ybbench&connectTimeout=10&reWriteBatchedInserts=true";

  private static YsqlEndpoint flags(YsqlEndpoint.Driver driver, String hosts) {
    return YsqlEndpoint.of(driver, HostList.parse(hosts, YsqlEndpoint.YSQL_PORT), "ycsb", "yugabyte", "");
  }

  @Test
  void theSmartDriverBalancesOverEveryNode() {
    YsqlEndpoint e = flags(YsqlEndpoint.Driver.YUGABYTE, "10.0.0.1,10.0.0.2:5434").withLoadBalance(true);
    assertEquals("jdbc:yugabytedb://10.0.0.1:5433,10.0.0.2:5434/ycsb?" + DEFAULTS + "&load-balance=true", e.url());
    assertTrue(e.loadBalance());
    YsqlEndpoint off = e.withLoadBalance(false);
    assertEquals("jdbc:yugabytedb://10.0.0.1:5433,10.0.0.2:5434/bench?" + DEFAULTS + "&load-balance=false",
        off.url("bench"));
    assertFalse(off.loadBalance());
  }

  @Test
  void aPlacementPolicyCountsAsBalancingAndIsKept() {
    YsqlEndpoint e = flags(YsqlEndpoint.Driver.YUGABYTE, "h").withOptions("load-balance=prefer-rr");
    assertTrue(e.loadBalance());
    assertEquals(e, e.withLoadBalance(true));
    assertEquals("jdbc:yugabytedb://h:5433/ycsb?" + DEFAULTS + "&load-balance=false",
        e.withLoadBalance(false).url());
  }

  @Test
  void pgjdbcSpreadsConnectionsOnlyOverSeveralHostsAndHasNoLoadBalanceOption() {
    YsqlEndpoint one = flags(YsqlEndpoint.Driver.PGJDBC, "a:1").withLoadBalance(true);
    assertEquals("jdbc:postgresql://a:1/ycsb?" + DEFAULTS, one.url());
    assertFalse(one.loadBalance());
    YsqlEndpoint two = one.withHosts(HostList.parse("a:1,b:2", 5432));
    assertEquals("jdbc:postgresql://a:1,b:2/ycsb?" + DEFAULTS + "&loadBalanceHosts=true", two.url());
    assertEquals("jdbc:postgresql://a:1,b:2/ycsb?" + DEFAULTS + "&loadBalanceHosts=false",
        two.withOption("loadBalanceHosts", "false").url());
  }

  @Test
  void otherOptionsPassThroughInOrderAndReplaceInPlace() {
    YsqlEndpoint e = flags(YsqlEndpoint.Driver.YUGABYTE, "h").withLoadBalance(true)
        .withOptions("topology-keys=cloud.region.zone1&sslmode=require&connectTimeout=30&yb-servers-refresh-interval=10"
            + "&tcpKeepAlive");
    assertEquals("jdbc:yugabytedb://h:5433/ycsb?ApplicationName=ybbench&connectTimeout=30"
        + "&reWriteBatchedInserts=true&load-balance=true&topology-keys=cloud.region.zone1&sslmode=require"
        + "&yb-servers-refresh-interval=10&tcpKeepAlive", e.url());
  }

  @Test
  void thePasswordNeverAppearsInTheUrl() {
    YsqlEndpoint e = flags(YsqlEndpoint.Driver.YUGABYTE, "h").withPassword("s3cret")
        .withOptions("sslmode=require&password=url%40secret&PASSWORD=again");
    assertEquals("jdbc:yugabytedb://h:5433/ycsb?" + DEFAULTS + "&sslmode=require", e.url());
    assertEquals("again", e.password());
    YsqlEndpoint parsed = YsqlEndpoint.parse("jdbc:postgresql://h:5432/tpcc?password=p%40ss&user=bench&ssl=true");
    assertEquals("jdbc:postgresql://h:5432/tpcc?ssl=true", parsed.url());
    assertEquals("jdbc:postgresql://h:5432/tpcc?ssl=true", parsed.toString());
    assertEquals("p@ss", parsed.password());
    assertEquals("bench", parsed.user());
    assertFalse(parsed.withOption("password", "zz9secret").url().contains("zz9secret"));
  }

  @Test
  void aBenchBaseUrlKeepsItsDatabaseAndOptionsWhileHostsAndBalancingChange() {
    YsqlEndpoint u = YsqlEndpoint.parse(
        "jdbc:yugabytedb://127.0.0.1:5433/yugabyte?load-balance=true&reWriteBatchedInserts=true");
    assertTrue(u.isYugabyteDriver());
    assertEquals("yugabyte", u.database());
    assertEquals(Map.of("load-balance", "true", "reWriteBatchedInserts", "true"), u.options());
    assertEquals("jdbc:yugabytedb://n1:5433,n2:5433/yugabyte?load-balance=false&reWriteBatchedInserts=true",
        u.withHosts(HostList.parse("n1,n2", YsqlEndpoint.YSQL_PORT)).withLoadBalance(false).url());
    assertEquals("jdbc:postgresql://h:1/tpcc?a=1", YsqlEndpoint.parse("jdbc:postgresql://h:1/tpcc").withOption("a", "1")
        .url());
    assertEquals("jdbc:postgresql://h:1/other", YsqlEndpoint.parse("jdbc:postgresql://h:1/tpcc")
        .withDatabase("other").url());
  }

  @Test
  void aHostWithoutAPortTakesTheDriversDefault() {
    assertEquals("jdbc:postgresql://db:5432/tpcc", YsqlEndpoint.parse("jdbc:postgresql://db/tpcc").url());
    assertEquals("jdbc:yugabytedb://db:5433/yb", YsqlEndpoint.parse("jdbc:yugabytedb://db/yb").url());
  }

  @Test
  void otherUrlsAreRefused() {
    UserError e = assertThrows(UserError.class, () -> YsqlEndpoint.parse("jdbc:mysql://h/db"));
    assertEquals("<url> 'jdbc:mysql://h/db' is not a jdbc:postgresql:// or jdbc:yugabytedb:// URL with a database",
        e.getMessage());
    assertThrows(UserError.class, () -> YsqlEndpoint.parse("jdbc:postgresql://h:5432/"));
  }

  @Test
  void queryStringsRoundTrip() {
    String q = "a=1&b&c=x%20y";
    assertEquals(q, YsqlEndpoint.query(YsqlEndpoint.parseQuery(q)));
    assertEquals("", YsqlEndpoint.query(YsqlEndpoint.parseQuery(null)));
  }
}
