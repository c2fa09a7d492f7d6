package dev.ybbench.harness.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.retry.Failure;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class SqlErrorsTest {
  @Test
  void serializationFailuresAndDeadlocksAreRetryable() {
    assertTrue(SqlErrors.isRetryable(new SQLException("could not serialize access due to concurrent update", "40001")));
    assertTrue(SqlErrors.isRetryable(new SQLException("deadlock detected", "40P01")));
  }

  @Test
  void yugabyteConflictTextIsRetryableWhateverTheCode() {
    assertTrue(SqlErrors.isRetryable(new SQLException(
        "ERROR: Query error: Restart read required at: { read: { physical: 1 } }", "XX000")));
    assertTrue(SqlErrors.isRetryable(new SQLException(
        "Operation failed. Try again: Conflicts with higher priority transaction", "XX000")));
    assertTrue(SqlErrors.isRetryable(new SQLException("Catalog Version Mismatch", (String) null)));
    assertTrue(SqlErrors.isRetryable(new SQLException("wrapper", "XX000",
        new SQLException("Transaction aborted: kAborted", "XX000"))));
  }

  @Test
  void otherErrorsAreNot() {
    assertFalse(SqlErrors.isRetryable(new SQLException("duplicate key value violates unique constraint", "23505")));
    assertFalse(SqlErrors.isRetryable(new SQLException("Connection refused", "08001")));
    assertFalse(SqlErrors.isRetryable(new SQLException("syntax error", "42601")));
  }

  @Test
  void errorsAreClassedForTheResults() {
    assertEquals("sqlstate-40001", SqlErrors.errorClass(new SQLException("x", "40001")));
    assertEquals("connection", SqlErrors.errorClass(new SQLException("x", "08006")));
    assertEquals("connection", SqlErrors.errorClass(new SQLException("terminating connection", "57P01")));
    assertEquals("sql-error", SqlErrors.errorClass(new SQLException("x")));
  }

  @Test
  void aLostOrRefusedConnectionIsUnreachableAndAConflictIsNot() {
    assertEquals(new Failure("connection", false, true, false),
        SqlErrors.classify(new SQLException("Connection to 127.0.0.1:5433 refused", "08001")));
    assertEquals(new Failure("connection", false, true, false),
        SqlErrors.classify(new SQLException("the database system is starting up", "57P03")));
    assertEquals(new Failure("sqlstate-40001", true, false, true),
        SqlErrors.classify(new SQLException("could not serialize access", "40001")));
    assertEquals(new Failure("sqlstate-23505", false, false, false),
        SqlErrors.classify(new SQLException("duplicate key value", "23505")));
  }
}
