package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CoreWorkload's dataintegrity checks reach the run's figures: reads that return what was
 * written pass, and reads of rows changed behind the workload's back are errors that fail the run.
 */
class DataIntegrityIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static EmbeddedPostgres pg;

  @TempDir
  Path results;

  @BeforeAll
  static void startServer() {
    pg = EmbeddedPostgres.start(null, 30, System.out::println);
  }

  @AfterAll
  static void stopServer() {
    pg.close();
  }

  private record Outcome(int exitCode, String out, JsonNode summary) {}

  private Outcome run(String workload, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of(workload, "--records", "500", "--threads", "2", "--database",
        "integrity", "-p", "dataintegrity=true", "--hosts", pg.hostPort(), "--user", "postgres", "--results-dir",
        results.toString()));
    all.addAll(List.of(args));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = cmd.execute(all.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    System.out.println(printed);
    return new Outcome(rc, printed, JSON.readTree(cmd.runDirectory().resolve("summary.json").toFile()));
  }

  @Test
  void readsThatReturnWhatWasWrittenPassAndChangedRowsFailTheRun() throws Exception {
    Outcome load = run("workloada", "--phase", "load");
    assertEquals(0, load.exitCode(), load.out());

    Outcome clean = run("workloada", "--phase", "run", "--operations", "2000");
    assertEquals(0, clean.exitCode(), clean.out());
    assertTrue(clean.out().matches("(?s).*Data integrity \\(run\\): [1-9][0-9]* reads checked against what was "
        + "written, 0 did not match\\n.*"), clean.out());
    assertTrue(clean.summary().at("/phases/run/operations/VERIFY").isMissingNode(), "no failed check recorded");

    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/integrity", "postgres",
        ""); Statement st = c.createStatement()) {
      st.executeUpdate("UPDATE usertable SET field0 = 'changed behind the workload''s back'");
    }
    Outcome broken = run("workloadc", "--phase", "run", "--operations", "1000"); // reads only: none rewrites a row
    assertEquals(1, broken.exitCode(), "a run whose reads return other values fails: " + broken.out());
    JsonNode verify = broken.summary().at("/phases/run/operations/VERIFY");
    long reads = broken.summary().at("/phases/run/operations/READ/successes").asLong();
    assertEquals(1000, reads);
    assertEquals(reads, verify.get("errors").asLong(), "every read's check failed: " + verify);
    assertEquals("failed", broken.summary().get("state").asText());
  }
}
