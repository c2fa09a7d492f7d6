package dev.ybbench.ycsb.ysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.sql.SqlErrors;
import io.netty.channel.ConnectTimeoutException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.net.ConnectException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** The event-loop client's pure parts: its errors as JDBC's, and its statements' text. */
class VertxClientTest {
  @Test
  void theServersErrorKeepsItsSqlStateSoTheRetryPolicyTreatsItAsPgjdbcs() {
    SQLException e = VertxClient.sqlException(new PgException("could not serialize access due to concurrent update",
        "ERROR", "40001", null));
    assertEquals("40001", e.getSQLState());
    assertEquals("could not serialize access due to concurrent update", e.getMessage());
    assertTrue(SqlErrors.isRetryable(e));
    assertEquals("sqlstate-40001", SqlErrors.errorClass(e));
    SQLException starting = VertxClient.sqlException(new PgException("the database system is starting up", "FATAL",
        "57P03", null));
    assertTrue(SqlErrors.isConnectionLost(starting), "a server still starting is an outage, not an SQL error");
  }

  @Test
  void aClosedOrRefusedConnectionIsALostConnection() {
    for (Throwable t : new Throwable[] {ClosedConnectionException.INSTANCE, new ConnectException("Connection refused"),
        new ConnectTimeoutException("connection timed out: /10.0.0.1:5433"),
        new java.io.IOException("recvAddress(..) failed with error(-104): Connection reset by peer")}) {
      SQLException e = VertxClient.sqlException(t);
      assertTrue(SqlErrors.isConnectionLost(e), t.toString());
      assertEquals("connection", SqlErrors.errorClass(e));
      assertFalse(SqlErrors.isRetryable(e));
    }
  }

  @Test
  void anythingElseIsAnSqlErrorWithoutAState() {
    SQLException e = VertxClient.sqlException(new IllegalStateException("Parameter at position[0] with class = "
        + "[java.lang.Integer] cannot be coerced"));
    assertNull(e.getSQLState());
    assertEquals("sql-error", SqlErrors.errorClass(e));
  }

  @Test
  void jdbcParametersBecomePostgresOwnOutsideQuotes() {
    assertEquals("SELECT field0 FROM usertable WHERE ycsb_key = $1", YsqlVertxDB.dollarParameters(
        "SELECT field0 FROM usertable WHERE ycsb_key = ?"));
    assertEquals("UPDATE t SET \"f?\" = $1, g = '?' WHERE k1 = $2 AND k2 = $3", YsqlVertxDB.dollarParameters(
        "UPDATE t SET \"f?\" = ?, g = '?' WHERE k1 = ? AND k2 = ?"));
  }
}
