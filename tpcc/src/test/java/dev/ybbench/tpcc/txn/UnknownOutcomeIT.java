package dev.ybbench.tpcc.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationMetrics;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.core.TpccRandom;
import dev.ybbench.tpcc.load.LoadPhase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A COMMIT whose reply is lost with the connection may or may not have committed: it is an
 * unknown outcome, not an error and not a success. A deferred trigger holds each New-Order's
 * COMMIT for 3 s, and the test terminates the backend while it waits there.
 */
class UnknownOutcomeIT {
  @Test
  void aCommitCutOffFromItsReplyIsAnUnknownOutcome() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println)) {
      String url = OneWarehouse.load(pg);
      try (Connection c = DriverManager.getConnection(url, "postgres", ""); Statement st = c.createStatement()) {
        st.execute("CREATE FUNCTION slow_commit() RETURNS trigger AS $$ BEGIN PERFORM pg_sleep(3); RETURN NULL; END $$ "
            + "LANGUAGE plpgsql");
        st.execute("CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON orders DEFERRABLE INITIALLY DEFERRED "
            + "FOR EACH ROW EXECUTE FUNCTION slow_commit()");
      }
      TpccConfig config = TpccConfig.read(Path.of("config", "tiny.xml"));
      TpccConfig.Work newOrdersOnly = new TpccConfig.Work(60, 0, null, List.of(100, 0, 0, 0, 0));
      Metrics metrics = new Metrics();
      Terminals terminal = new Terminals(List.of(new Terminal(1, 1, new TpccRandom(7, LoadPhase.LOAD_CONSTANTS))),
          OneWarehouse.connections(url), config, newOrdersOnly, 1, new Terminals.Setup(1, false, 10), metrics);
      terminal.start();
      OperationMetrics newOrder = metrics.operation("NewOrder");
      try (Connection admin = DriverManager.getConnection(url, "postgres", "");
          Statement st = admin.createStatement()) {
        int terminated = 0;
        for (int i = 0; i < 300 && terminated == 0; i++) {
          try (ResultSet rs = st.executeQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
              + "WHERE wait_event = 'PgSleep' AND pid <> pg_backend_pid()")) {
            while (rs.next()) {
              terminated++;
            }
          }
          Thread.sleep(100);
        }
        assertEquals(1, terminated, "no COMMIT was seen waiting");
      }
      for (int i = 0; i < 100 && newOrder.unknownOutcomes() == 0; i++) {
        Thread.sleep(100);
      }
      terminal.stop();
      terminal.join(20_000);
      assertEquals(1, newOrder.unknownOutcomes());
      assertEquals(0, newOrder.errorCount(), newOrder.errors().toString());
    }
  }
}
