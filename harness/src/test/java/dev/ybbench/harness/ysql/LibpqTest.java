package dev.ybbench.harness.ysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.UserError;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a libpq tool gets of an endpoint in its environment, and the URL options it can take. */
class LibpqTest {
  @Test
  void thePasswordAndTlsGoIntoTheEnvironment() {
    YsqlEndpoint e = YsqlEndpoint.of(YsqlEndpoint.Driver.PGJDBC, HostList.parse("h1", 5433), "db", "u", "secret")
        .withOptions(Libpq.urlOptions("sslmode=verify-full&sslrootcert=/ca.crt", "pgbench"));
    Map<String, String> env = new HashMap<>();
    Libpq.environment(e, env);
    assertEquals("secret", env.get("PGPASSWORD"));
    assertEquals("10", env.get("PGCONNECT_TIMEOUT"));
    assertEquals("verify-full", env.get("PGSSLMODE"));
    assertEquals("/ca.crt", env.get("PGSSLROOTCERT"));
    assertNull(env.get("PGSSLCERT"));
  }

  @Test
  void optionsOnlyTheJdbcSideWouldGetAreRefused() {
    assertNull(Libpq.urlOptions(" ", "sysbench"));
    assertEquals("--url-options prepareThreshold: sysbench connects through libpq and takes sslcert, sslkey, sslmode, "
        + "sslrootcert only", assertThrows(UserError.class, () -> Libpq.urlOptions("prepareThreshold=0", "sysbench"))
            .getMessage());
  }
}
