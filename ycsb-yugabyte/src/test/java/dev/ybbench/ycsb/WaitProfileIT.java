package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.analysis.Compare;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What each statement waited on, on a real server where the cause is known: eight sessions
 * whose every update also updates one row wait on each other's transactions, and compare.sh names that wait beneath the
 * slower UPDATE, with its share of the statement's samples on both sides; the same reads on both
 * sides name nothing beneath.
 */
class WaitProfileIT {
  @TempDir
  Path results;

  private static final String UPDATE = "UPDATE usertable SET field0 = $1, field1 = $2";

  private Path run(String hosts, String workload, String label, String phase, String... more) {
    // A server reading a second: server-timeseries.csv gets rows from a 3 s phase (the default 10 s gives none).
    List<String> a = new ArrayList<>(List.of(workload, "--hosts", hosts, "--user", "postgres", "--records", "2000",
        "--threads", "8", "--duration", "3", "--server-interval", "1", "--phase", phase, "--label", label,
        "--results-dir", results.toString(), "--no-install", "-p", "writeallfields=true", "-p", "fieldcount=2"));
    a.addAll(List.of(more));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner r = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = r.execute(a.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8));
    assertEquals(0, rc, out.toString(StandardCharsets.UTF_8));
    return r.runDirectory();
  }

  private JsonNode where(String a, String b, String workload) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Compare c = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = c.execute(new String[] {a, b, "--threshold", "20", "--results-dir", results.toString(), "--no-install"},
        new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    System.out.println(text);
    assertTrue(rc != Compare.CANNOT_COMPARE, text);
    return RunDirectory.JSON.readTree(c.reportDirectory().resolve("comparison.json").toFile())
        .at("/where/ycsb~1" + workload);
  }

  private static void sql(EmbeddedPostgres pg, String statement) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/ycsb", "postgres", "")) {
      c.createStatement().execute(statement);
    }
  }

  /**
   * The candidate's schema counts every update in one row (a trigger, as a release's new audit
   * table might): the workload is the same on both sides, and its updates queue on that row's lock.
   */
  @Test
  void aHotRowIsNamedAsTheLockItsUpdatesWaitOn() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 40, System.out::println)) {
      run(pg.hostPort(), "workloada", "load", "load");
      sql(pg, "CREATE TABLE updates (id int PRIMARY KEY, n bigint)");
      sql(pg, "INSERT INTO updates VALUES (1, 0)");
      sql(pg, "CREATE FUNCTION count_update() RETURNS trigger LANGUAGE plpgsql AS "
          + "$$ BEGIN UPDATE updates SET n = n + 1 WHERE id = 1; RETURN NEW; END $$");
      Path hot = null;
      // Five rounds: a statement's wait events are a family of their own, and on three rounds a
      // clean-clone run's Lock:transactionid rose 0 → 47 % (interval 29 … 64 points) at a q-value of 0.06.
      for (int round = 0; round < 5; round++) {
        run(pg.hostPort(), "workloada", "uniform", "run");
        sql(pg, "CREATE TRIGGER counted AFTER UPDATE ON usertable FOR EACH ROW EXECUTE PROCEDURE count_update()");
        hot = run(pg.hostPort(), "workloada", "hot", "run");
        sql(pg, "DROP TRIGGER counted ON usertable");
      }
      // The run records its sessions' waits per statement, and the top events per row of the timeseries.
      JsonNode waits = RunDirectory.JSON.readTree(hot.resolve("server.json").toFile()).at("/phases/run/waits");
      assertTrue(waits.get("samplings").asLong() >= 10, waits.toString());
      String update = waits.get("statements").properties().stream().map(e -> e.getKey())
          .filter(q -> q.startsWith(UPDATE)).findFirst().orElseThrow(() -> new AssertionError(waits.toString()));
      assertTrue(waits.at("/statements").get(update).properties().stream().anyMatch(e -> e.getKey()
          .startsWith("Lock:")), waits.toString());
      assertTrue(Files.readString(hot.resolve("server-timeseries.csv")).contains("Lock:"));

      JsonNode where = where("uniform", "hot", "workloada");
      String clause = where.get("clause").asText();
      assertTrue(clause.matches(".*" + java.util.regex.Pattern.quote(UPDATE) + ".*Lock:(transactionid|tuple) \\d+ % → "
          + "\\d+ % of its samples.*"), where.toString());
    }
  }

  @Test
  void theSameReadsOnBothSidesNameNothingBeneath() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 40, System.out::println)) {
      run(pg.hostPort(), "workloadc", "load", "load");
      for (int round = 0; round < 3; round++) {
        run(pg.hostPort(), "workloadc", "a", "run");
        run(pg.hostPort(), "workloadc", "b", "run");
      }
      String clause = where("a", "b", "workloadc").get("clause").asText();
      assertFalse(clause.contains("of its samples") || clause.contains("per call "), clause);
    }
  }
}
