package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import org.junit.jupiter.api.Test;

class JdbcUrlTest {
  @Test
  void hostsAndParametersAreReplacedAndTheRestKept() {
    JdbcUrl u = JdbcUrl.parse("jdbc:yugabytedb://127.0.0.1:5433/yugabyte?load-balance=true&reWriteBatchedInserts=true");
    assertTrue(u.isYugabyteDriver());
    assertEquals("yugabyte", u.database());
    assertEquals("jdbc:yugabytedb://n1:5433,n2:5433/yugabyte?load-balance=false&reWriteBatchedInserts=true",
        u.withHosts("n1:5433,n2:5433").withParameter("load-balance", "false").toString());
    assertEquals("jdbc:postgresql://h:1/tpcc?a=1", JdbcUrl.parse("jdbc:postgresql://h:1/tpcc").withParameter("a", "1")
        .toString());
  }

  @Test
  void otherUrlsAreRefused() {
    UserError e = assertThrows(UserError.class, () -> JdbcUrl.parse("jdbc:mysql://h/db"));
    assertEquals("<url> 'jdbc:mysql://h/db' is not a jdbc:postgresql:// or jdbc:yugabytedb:// URL with a database",
        e.getMessage());
  }
}
