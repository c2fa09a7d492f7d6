package dev.ybbench.harness.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import org.junit.jupiter.api.Test;

class PostgresVersionsTest {
  @Test
  void majorVersionsMapToPinnedReleases() {
    assertEquals("17.11.0", PostgresVersions.resolve(null));
    assertEquals("17.11.0", PostgresVersions.resolve(""));
    assertEquals("16.15.0", PostgresVersions.resolve("16"));
    assertEquals("13.23.0", PostgresVersions.resolve("13"));
    // YSQL's PostgreSQL bases: 11.2 before YugabyteDB 2.25, 15 from 2.25 on.
    assertEquals("11.22.0", PostgresVersions.resolve("11"));
    assertEquals("12.22.0", PostgresVersions.resolve("12"));
  }

  @Test
  void exactReleasesAreTakenAsGiven() {
    assertEquals("16.11.0", PostgresVersions.resolve("16.11.0"));
    assertEquals("16.11.0", PostgresVersions.resolve("16.11"));
  }

  @Test
  void nonsenseIsRefusedWithAHint() {
    UserError e = assertThrows(UserError.class, () -> PostgresVersions.resolve("banana"));
    assertTrue(e.getMessage().contains("'banana'"), e.getMessage());
    UserError unsupported = assertThrows(UserError.class, () -> PostgresVersions.resolve("9"));
    assertTrue(unsupported.getMessage().contains("11, 12, 13, 14, 15, 16, 17, 18"), unsupported.getMessage());
  }
}
