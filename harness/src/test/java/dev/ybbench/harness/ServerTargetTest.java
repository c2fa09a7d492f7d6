package dev.ybbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.ServerTarget.Api;
import dev.ybbench.harness.embedded.CassandraVersions;
import dev.ybbench.harness.embedded.PostgresVersions;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where the server is chosen: the flags, then the environment, then an embedded server; each rule's refusal. */
class ServerTargetTest {
  private static final Map<String, String> NONE = Map.of();

  private static String refusal(Api api, String hosts, String version, int nodes, Map<String, String> env) {
    return assertThrows(UserError.class, () -> ServerTarget.choose(api, hosts, version, nodes, env)).getMessage();
  }

  @Test
  void theEnvironmentNamesNodesAsYugabyteDBsPagesDo() {
    assertEquals("a:9042", ServerTarget.environmentHosts(Api.YCQL, Map.of("YCQL_ADDRS", "a:9042")));
    assertEquals("n", ServerTarget.environmentHosts(Api.YCQL, Map.of("YCQL_NODES", "n", "YCQL_ADDRS", "a")));
    assertEquals("s", ServerTarget.environmentHosts(Api.YSQL, Map.of("YSQL_NODES", "s", "YCQL_ADDRS", "a")));
    assertNull(ServerTarget.environmentHosts(Api.YSQL, Map.of("YCQL_ADDRS", "a")));
  }

  @Test
  void theFlagBeatsTheEnvironmentWhichBeatsAnEmbeddedServer() {
    ServerTarget given = ServerTarget.choose(Api.YSQL, "n1,n2:5434", null, 1, Map.of("YSQL_NODES", "e1"));
    assertFalse(given.embedded());
    assertEquals("n1,n2:5434 (given)", given.describe());
    assertEquals("n1:5433,n2:5434", given.start(0, line -> { }).toString(), "given hosts start nothing");
    assertSame(given.hosts(), given.start(0, line -> { }), "the nodes are parsed once, as they were chosen");
    assertEquals("n1,n2:5434", given.hostSpec(), "as given, for the equivalent command");
    assertEquals("ysql", Api.YSQL.flag());
    assertEquals("ycql", Api.YCQL.flag());
    assertNull(given.embeddedVersion());

    assertEquals("e1 (given)", ServerTarget.choose(Api.YSQL, null, null, 1, Map.of("YSQL_NODES", "e1")).describe());
    assertEquals("c1 (given)", ServerTarget.choose(Api.YCQL, null, null, 1, Map.of("YCQL_ADDRS", "c1")).describe());

    ServerTarget pg = ServerTarget.choose(Api.YSQL, null, "16", 1, Map.of("YSQL_NODES", " "));
    assertTrue(pg.embedded(), "an empty variable is an unset one");
    assertEquals("embedded PostgreSQL " + PostgresVersions.resolve("16"), pg.describe());
    assertEquals("embedded Cassandra " + CassandraVersions.resolve(null) + " × 3",
        ServerTarget.choose(Api.YCQL, null, null, 3, Map.of("YSQL_NODES", "s")).describe());
  }

  @Test
  void whatCannotApplyIsRefusedBeforeAnythingStarts() {
    assertEquals("--hosts is empty (an unset variable?); give host[:port],… or leave it out for an embedded server",
        refusal(Api.YSQL, " ", null, 1, NONE));
    assertEquals("--db-version picks the embedded server's version; it cannot apply with --hosts",
        refusal(Api.YSQL, "n1", "16", 1, NONE));
    assertEquals("--db-version picks the embedded server's version; it cannot apply with YCQL_NODES",
        refusal(Api.YCQL, null, "5.0", 1, Map.of("YCQL_NODES", "n1")));
    assertEquals("--db-version picks the embedded server's version; it cannot apply with YSQL_NODES",
        refusal(Api.YSQL, null, "16", 1, Map.of("YSQL_NODES", "n1")));
    assertEquals("--nodes sizes the embedded Cassandra; it cannot apply with --hosts",
        refusal(Api.YCQL, "n1", null, 3, NONE));
    assertEquals("--nodes applies to YCQL's embedded Cassandra; the embedded PostgreSQL is one server",
        refusal(Api.YSQL, null, null, 2, NONE));
    assertEquals("Bad port in host 'n1:0'; use host[:port] with a port from 1 to 65535",
        refusal(Api.YSQL, "n1:0", null, 1, NONE));
    assertTrue(refusal(Api.YSQL, null, "10", 1, NONE).contains("10"), "an unknown version is named");
    assertTrue(refusal(Api.YCQL, null, null, 0, NONE).contains("--nodes"), "a cluster needs a node");
  }

  @Test
  void aRefusalNamesWhereTheNodesWereGiven() {
    assertEquals("--hosts", ServerTarget.choose(Api.YSQL, "n1", null, 1, Map.of("YSQL_NODES", "e1")).hostsSource());
    assertEquals("YSQL_NODES", ServerTarget.choose(Api.YSQL, null, null, 1, Map.of("YSQL_NODES", "e1"))
        .hostsSource());
    assertEquals("YCQL_ADDRS", ServerTarget.choose(Api.YCQL, null, null, 1, Map.of("YCQL_ADDRS", "c1"))
        .hostsSource());
  }

  @Test
  void aConnectionOptionOnTheEmbeddedServerIsRefusedByItsNameNotDropped() {
    ServerTarget embedded = ServerTarget.choose(Api.YSQL, null, null, 1, NONE);
    assertEquals("--url-options is for a server given by --hosts (or YSQL_NODES): the embedded PostgreSQL serves no "
        + "TLS and ybbench makes its connection; give --hosts, or leave --url-options out",
        assertThrows(UserError.class, () -> embedded.refusing("--url-options", "sslmode=verify-full")).getMessage());
    assertSame(embedded, embedded.refusing("--url-options", null), "nothing given, nothing refused");
    assertSame(embedded, embedded.refusing("--url-options", " "));
    ServerTarget given = ServerTarget.choose(Api.YSQL, "n1", null, 1, NONE);
    assertSame(given, given.refusing("--url-options", "sslmode=verify-full"), "a given server takes it");
    assertTrue(assertThrows(UserError.class, () -> ServerTarget.choose(Api.YCQL, null, null, 1, NONE)
        .refusing("-p ycql.truststore", "/ca.crt")).getMessage().startsWith("-p ycql.truststore is for a server "
            + "given by --hosts (or YCQL_NODES): the embedded Cassandra serves no TLS"));
  }
}
