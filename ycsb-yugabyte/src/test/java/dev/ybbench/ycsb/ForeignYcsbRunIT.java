package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Command lines in YCSB's and yugabyte/YCSB's words, run against real servers: each of their
 * settings changes what runs as it would there — the server db.url names, the threads, the
 * paced rate, the time limit, the later -P file — and an unknown property is named.
 */
class ForeignYcsbRunIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  record Outcome(int exitCode, String out, Path runDir) {
    JsonNode phase(String name) throws Exception {
      return JSON.readTree(runDir.resolve("summary.json").toFile()).at("/phases/" + name);
    }

    JsonNode runJson() throws Exception {
      return JSON.readTree(runDir.resolve("run.json").toFile());
    }
  }

  private Outcome run(List<String> args) {
    List<String> all = new ArrayList<>(args);
    all.addAll(List.of("--results-dir", results.toString(), "--no-install"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = cmd.execute(all.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8));
    Outcome o = new Outcome(rc, out.toString(StandardCharsets.UTF_8), cmd.runDirectory());
    System.out.println(o.out());
    assertEquals(0, rc, o.out());
    return o;
  }

  /**
   * {@code -p db.url} names a server the test started: no embedded server starts, the table and
   * its rows are on that server, and its own pg_stat_statements counts the run's reads; {@code -p
   * threadcount}, {@code target} and {@code maxexecutiontime} set the threads, the rate and the
   * window.
   */
  @Test
  void dbUrlAndYcsbsPropertiesRunAsTheyWouldInYcsb() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 30, System.out::println)) {
      String url = "jdbc:postgresql://" + pg.hostPort() + "/dburl";
      Outcome o = run(List.of("workloadc", "-p", "db.url=" + url + ";", "-p", "db.user=postgres", "-p",
          "threadcount=3", "-p", "target=150", "-p", "maxexecutiontime=3", "--records", "300"));
      assertFalse(o.out().contains("Starting embedded"), "no embedded server: " + o.out());
      assertTrue(o.out().contains(" --api ysql --threads 3 --target 150 --duration 3 --batch-size 1 --hosts "
          + pg.hostPort() + " --database dburl --user postgres --driver pgjdbc\n"), o.out());
      JsonNode info = o.runJson();
      assertEquals(pg.hostPort(), info.at("/server/hosts").asText());
      assertFalse(info.at("/server/embedded").asBoolean());
      assertEquals("3", info.at("/parameters/threadcount").asText());
      // The load went to that server, one INSERT per row as yugabyte/YCSB's binding writes it.
      try (Connection c = DriverManager.getConnection(url, "postgres", "");
          ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM usertable")) {
        rs.next();
        assertEquals(300, rs.getLong(1));
      }
      JsonNode run = o.phase("run");
      long reads = run.at("/operations/READ/successes").asLong();
      try (Connection c = DriverManager.getConnection(url, "postgres", "");
          ResultSet rs = c.createStatement().executeQuery("SELECT coalesce(sum(calls), 0) FROM pg_stat_statements "
              + "WHERE query LIKE 'SELECT%usertable%'")) {
        rs.next();
        assertTrue(rs.getLong(1) >= reads, "the server counted " + rs.getLong(1) + " reads of " + reads);
      }
      assertEquals(reads, run.at("/server/server_statements").asLong(), run.toString());
      // Paced at 150 ops/s over all threads for 3 s: never faster (unpaced, three threads read
      // thousands a second), slower only on a machine too busy to keep up; latency from the
      // intended start, as under any target.
      assertPaced(150, run);
      assertEquals(3, run.get("duration_s").asDouble(), 0.5, run.toString());
    }
  }

  /**
   * YCSB's own flags and several -P files: -threads and -target set the threads and the rate, the
   * later file's mix replaces the earlier one's and its maxexecutiontime is the window, and a
   * misspelt -p is named with the property it was likely meant to be.
   */
  @Test
  void ycsbsFlagsAndSeveralFiles() throws Exception {
    Path updates = results.resolve("updates.properties");
    Files.write(updates, List.of("readproportion=0", "updateproportion=1", "maxexecutiontime=3"));
    Outcome o = run(List.of("-P", RunYcsbTest.HOME.resolve("workloads/workloadc").toString(), "-P",
        updates.toString(), "-threads", "2", "-target", "120", "-p", "fieldcout=3", "--records", "300"));
    assertTrue(o.out().contains("warning: -p fieldcout is not a property of YCSB, yugabyte/YCSB's bindings or "
        + "ybbench, and nothing in this run reads it; did you mean fieldcount?"), o.out());
    assertEquals("workloadc", o.runJson().get("workload").asText(), "the file that names the workload class");
    assertEquals("2", o.runJson().at("/parameters/threadcount").asText());
    JsonNode run = o.phase("run");
    assertTrue(run.at("/operations/READ").isMissingNode(), "the later file's mix: " + run);
    assertTrue(run.at("/operations/UPDATE/successes").asLong() > 0, run.toString());
    assertPaced(120, run);
    assertEquals(3, run.get("duration_s").asDouble(), 0.5, run.toString());
  }

  /** A phase held to {@code target} ops/s: at most 10 % over it, and timed from the intended start. */
  private static void assertPaced(double target, JsonNode run) {
    double rate = run.get("throughput_ops").asDouble();
    assertTrue(rate > 0 && rate <= target * 1.1, "not paced at " + target + " ops/s: " + run);
    assertEquals("intended start", run.get("latency_from").asText(), run.toString());
  }
}
