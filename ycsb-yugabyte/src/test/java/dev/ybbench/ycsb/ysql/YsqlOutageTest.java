package dev.ybbench.ycsb.ysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.metrics.Metrics;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/** The YSQL binding while a real embedded PostgreSQL restarts under it. */
class YsqlOutageTest {
  @Test
  void aRestartIsOneOutageWithAFewErrorsNotThousands() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println)) {
      Properties p = new Properties();
      p.setProperty(YsqlConfig.HOSTS, pg.hostPort());
      p.setProperty(YsqlConfig.USER, EmbeddedPostgres.SUPERUSER);
      p.setProperty(YsqlConfig.DIALECT, "POSTGRESQL");
      p.setProperty(YsqlConfig.LOAD_BALANCE, "false");
      p.setProperty("fieldcount", "1");
      p.setProperty("table", "restarted");
      YsqlConfig config = YsqlConfig.from(p);
      YsqlSetup.createSchema(config, s -> { });
      Metrics metrics = new Metrics();
      YsqlDB db = new YsqlDB();
      db.setProperties(p);
      db.setEvents(metrics);
      db.init();
      assertEquals(Status.OK, db.insert("restarted", "user1", Map.of("field0", new StringByteIterator("v"))));

      Thread restart = new Thread(pg::restart);
      restart.start();
      int errors = 0;
      int reads = 0;
      long afterRestart = Long.MAX_VALUE;
      while (System.nanoTime() < afterRestart) {
        Status s = db.read("restarted", "user1", null, new HashMap<>());
        reads++;
        if (!s.isOk()) {
          assertEquals("connection", s.getName(), s.toString());
          errors++;
        }
        if (!restart.isAlive() && afterRestart == Long.MAX_VALUE) {
          afterRestart = System.nanoTime() + 1_000_000_000L;
        }
      }
      restart.join();
      db.cleanup();

      System.out.println("test: " + errors + " of " + reads + " reads failed during the restart");
      assertTrue(errors >= 1, "the restart went unnoticed");
      assertTrue(errors <= 20, errors + " failed reads: the binding did not leave the server alone");
      assertEquals(1, metrics.outages().intervals(System.nanoTime()).size());
      assertEquals(0, metrics.outages().downForSeconds(System.nanoTime()), "the outage ended at the next success");
    }
  }
}
