package dev.ybbench.tpcc;

import static dev.ybbench.tpcc.RunTpccTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.testing.Awaits;
import dev.ybbench.tpcc.RunTpccTest.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * run_tpcc.sh against a server the test started and controls: restarted mid-run, counted before
 * and after, shared by two clients. Apart from {@link RunTpccTest} so the two run side by side.
 */
class TpccGivenServerIT {
  private static final Path HOME = RunTpccTest.HOME;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  /**
   * --warehouses without --config picks the 100-warehouse config of the server the run is given,
   * as the server reports itself: a PostgreSQL given with --hosts gets PostgreSQL's (database tpcc,
   * SERIALIZABLE), not YugabyteDB's (database yugabyte).
   */
  @Test
  void theConfigIsTheGivenServersAsItReportsItself() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println)) {
      Outcome o = run("--warehouses", "1", "--hosts", pg.hostPort(), "--user", "postgres", "--create",
          "--results-dir", results.toString());
      assertEquals(0, o.exitCode(), o.err() + o.out());
      JsonNode runJson = JSON.readTree(o.runDir().resolve("run.json").toFile());
      assertTrue(runJson.get("config_file").asText().endsWith("postgres_100w.xml"), runJson.toString());
      assertEquals("PostgreSQL", runJson.at("/server/product").asText());
    }
  }

  @Test
  void aServerRestartInTheMiddleIsCountedAndLeavesTheDataConsistent() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 60, System.out::println)) {
      Thread restarter = new Thread(() -> {
        try {
          Awaits.phaseStarted(results, "execute");
          Thread.sleep(4000);
          System.out.println("test: restarting the server");
          pg.restart();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      restarter.start();
      Outcome o = run("--hosts", pg.hostPort(), "--user", "postgres", "--config",
          HOME.resolve("tpcc/config/tiny.xml").toString(), "--duration", "14", "--warmup", "0",
          // The outage is the point here: on a busy machine a restart can take a tenth of the window.
          "--max-outage-pct", "50", "--max-error-pct", "10",
          "--results-dir", results.toString());
      restarter.join();
      System.out.println(o.out());
      assertEquals(0, o.exitCode(), o.err() + o.out());
      JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
      JsonNode exec = summary.at("/phases/execute");
      assertTrue(exec.get("errors").asLong() > 0, "the restart went unnoticed: " + exec);
      assertTrue(exec.at("/operations/NewOrder/successes").asLong() > 0);
      assertTrue(summary.at("/tpcc/consistency/all_pass").asBoolean(), summary.at("/tpcc/consistency").toString());
    }
  }

  /**
   * Transactions in flight when the window closes commit after it: they are not in the figures,
   * but they are counted apart, so the database's growth is accounted for exactly.
   */
  @Test
  void theOrdersTableGrowsByTheNewOrdersCountedPlusThoseAfterTheWindow() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 60, System.out::println)) {
      List<String> common = List.of("--hosts", pg.hostPort(), "--user", "postgres", "--config",
          HOME.resolve("tpcc/config/tiny.xml").toString(), "--results-dir", results.toString());
      assertEquals(0, run(concat(common, "--create", "--load")).exitCode());
      long before = orders(pg);
      Outcome o = run(concat(common, "--execute", "--duration", "6", "--warmup", "0"));
      assertEquals(0, o.exitCode(), o.err() + o.out());
      JsonNode exec = JSON.readTree(o.runDir().resolve("summary.json").toFile()).at("/phases/execute");
      long counted = exec.at("/operations/NewOrder/successes").asLong();
      long after = exec.at("/tpcc/after_window/NewOrder").asLong(0);
      assertTrue(counted > 0, exec.toString());
      assertEquals(orders(pg) - before, counted + after, "counted " + counted + ", after the window " + after);
    }
  }

  private static long orders(EmbeddedPostgres pg) throws Exception {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/tpcc",
        "postgres", ""); java.sql.ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM orders")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Two clients split a two-warehouse database; their merged result adds up exactly. */
  @Test
  void twoClientsSplitOneDatabaseAndTheirResultsMergeExactly() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 60, System.out::println)) {
      String tiny = HOME.resolve("tpcc/config/tiny.xml").toString();
      List<String> common = List.of("--hosts", pg.hostPort(), "--user", "postgres", "--config", tiny,
          "--warehouses", "1", "--total-warehouses", "2", "--results-dir", results.toString());
      assertEquals(0, run(concat(common, "--start-warehouse", "1", "--create", "--load")).exitCode());
      assertEquals(0, run(concat(common, "--start-warehouse", "2", "--load")).exitCode());
      Outcome[] clients = new Outcome[2];
      Thread second = new Thread(() -> clients[1] = run(concat(common, "--start-warehouse", "2", "--execute",
          "--duration", "8", "--warmup", "0")));
      second.start();
      clients[0] = run(concat(common, "--start-warehouse", "1", "--execute", "--duration", "8", "--warmup", "0"));
      second.join();
      assertEquals(0, clients[0].exitCode(), clients[0].err());
      assertEquals(0, clients[1].exitCode(), clients[1].err());

      Outcome merged = run("--merge", clients[0].runDir().toString(), clients[1].runDir().toString(),
          "--results-dir", results.toString());
      assertEquals(0, merged.exitCode(), merged.err());
      JsonNode m = JSON.readTree(merged.runDir().resolve("summary.json").toFile());
      assertEquals(2, m.at("/tpcc/warehouses").asInt());
      long sum = 0;
      double tpmC = 0;
      for (Outcome c : clients) {
        JsonNode e = JSON.readTree(c.runDir().resolve("summary.json").toFile()).at("/phases/execute");
        sum += e.at("/operations/NewOrder/successes").asLong();
        tpmC += e.at("/tpcc/tpmC").asDouble();
      }
      assertEquals(sum, m.at("/phases/execute/operations/NewOrder/successes").asLong());
      assertEquals(sum, m.at("/phases/execute/operations/NewOrder/latency_us/count").asLong());
      assertEquals(tpmC, m.at("/phases/execute/tpcc/tpmC").asDouble(), 0.2);
      assertTrue(Files.exists(merged.runDir().resolve("latency/execute-NewOrder.hlog")));
      // The database both clients wrote is consistent as a whole.
      Outcome check = run(concat(common, "--check"));
      assertEquals(0, check.exitCode(), check.err());
      assertTrue(JSON.readTree(check.runDir().resolve("summary.json").toFile()).at("/tpcc/consistency/all_pass")
          .asBoolean());
    }
  }

  private static String[] concat(List<String> first, String... more) {
    List<String> all = new java.util.ArrayList<>(first);
    all.addAll(List.of(more));
    return all.toArray(new String[0]);
  }
}
