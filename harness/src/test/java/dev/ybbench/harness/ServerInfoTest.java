package dev.ybbench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ServerInfoTest {
  @Test
  void yugabyteVersionStringsNameTheYugabyteRelease() {
    ServerInfo old = ServerInfo.fromSqlVersion(
        "PostgreSQL 11.2-YB-2.20.1.0-b0 on x86_64-pc-linux-gnu, compiled by clang version 16.0.6, 64-bit");
    assertEquals("YugabyteDB", old.product());
    assertEquals("2.20.1.0-b0", old.version());
    assertTrue(old.isYugabyte());

    ServerInfo pg15 = ServerInfo.fromSqlVersion(
        "PostgreSQL 15.2-YB-2025.1.0.0-b0 on x86_64-pc-linux-gnu, compiled by clang version 17.0.6, 64-bit");
    assertEquals("2025.1.0.0-b0", pg15.version());
    assertEquals("YugabyteDB-2025.1.0.0-b0", pg15.slug());
  }

  @Test
  void postgresVersionStringsNameThePostgresRelease() {
    ServerInfo pg = ServerInfo.fromSqlVersion(
        "PostgreSQL 17.11 on x86_64-pc-linux-gnu, compiled by gcc (GCC) 4.8.5, 64-bit");
    assertEquals("PostgreSQL", pg.product());
    assertEquals("17.11", pg.version());
    assertFalse(pg.isYugabyte());
    assertEquals("PostgreSQL-17.11", pg.slug());
  }

  @Test
  void anythingElseIsUnknownButKeptVerbatim() {
    ServerInfo other = ServerInfo.fromSqlVersion("CockroachDB CCL v23.1.0 (x86_64)");
    assertEquals("unknown", other.product());
    assertEquals("CockroachDB CCL v23.1.0 (x86_64)", other.fullVersion());
  }
}
