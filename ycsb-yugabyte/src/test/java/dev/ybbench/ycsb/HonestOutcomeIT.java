package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.testing.Awaits;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs that measured something other than what was asked end {@code failed}, exit 1, with a
 * one-line reason in run.json, summary.json and on the terminal, within seconds of knowing it:
 * a table with fewer records than the workload reads, a database or table that is not there,
 * client threads that cannot connect, a server that dies in the middle.
 */
class HonestOutcomeIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static EmbeddedPostgres pg;

  @TempDir
  Path results;

  @BeforeAll
  static void startServer() {
    pg = EmbeddedPostgres.start(null, 40, System.out::println);
  }

  @AfterAll
  static void stopServer() {
    pg.close();
  }

  record Outcome(int exitCode, String out, String err, Path runDir, double seconds) {
    JsonNode runJson() throws Exception {
      return JSON.readTree(runDir.resolve("run.json").toFile());
    }

    JsonNode summary() throws Exception {
      return JSON.readTree(runDir.resolve("summary.json").toFile());
    }

    /** Asserts state failed, exit 1, the same reason in both files and on the last line; returns it. */
    String failedReason() throws Exception {
      String all = err + out;
      assertEquals(1, exitCode, all);
      assertNotNull(runDir, all);
      assertEquals("failed", runJson().get("state").asText(), all);
      assertEquals("failed", summary().get("state").asText(), all);
      String reason = runJson().get("reason").asText();
      assertEquals(reason, summary().get("reason").asText());
      assertEquals(1, reason.lines().count(), reason);
      String last = out.strip().lines().reduce((a, b) -> b).orElse("");
      assertTrue(last.startsWith("Run failed (" + reason + "): "), last);
      assertFalse(all.contains("\tat ") || all.contains("Exception"), all);
      return reason;
    }
  }

  private Outcome run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--hosts", pg.hostPort(), "--user", "postgres", "--results-dir", results.toString()));
    return runAgainst(all);
  }

  private static Outcome runAgainst(List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    long start = System.nanoTime();
    int rc = cmd.execute(args.toArray(new String[0]), new PrintStream(err, true, StandardCharsets.UTF_8));
    Outcome o = new Outcome(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
        cmd.runDirectory(), (System.nanoTime() - start) / 1e9);
    System.out.println(o.out() + o.err());
    return o;
  }

  @Test
  void aTableWithFewerRecordsThanTheWorkloadReadsFailsTheRun() throws Exception {
    assertEquals(0, run("workloadc", "--phase", "load", "--records", "200", "--database", "few").exitCode());
    Outcome o = run("workloadc", "--phase", "run", "--records", "2000", "--operations", "4000", "--threads", "2",
        "--duration", "60", "--database", "few", "-p", "requestdistribution=uniform");
    String reason = o.failedReason();
    assertTrue(reason.startsWith("most READ operations of the run phase found no row ("), reason);
  }

  @Test
  void aDatabaseThatDoesNotExistFailsAtOnce() throws Exception {
    Outcome o = run("workloada", "--phase", "run", "--database", "nosuchdb", "--duration", "60");
    String reason = o.failedReason();
    assertTrue(reason.contains("nosuchdb"), reason);
    assertTrue(o.seconds() < 30, "took " + o.seconds() + " s");
  }

  @Test
  void aTableThatDoesNotExistFailsAtOnce() throws Exception {
    // A database with another table in it.
    assertEquals(0, run("workloadc", "--phase", "load", "--records", "100", "--database", "notable",
        "-p", "table=othertable").exitCode());
    Outcome o = run("workloadc", "--phase", "run", "--database", "notable", "--duration", "60");
    String reason = o.failedReason();
    assertTrue(reason.contains("usertable"), reason);
    assertTrue(o.seconds() < 30, "took " + o.seconds() + " s");
  }

  @Test
  void clientThreadsThatCannotConnectStopTheRunWithTheirCause() throws Exception {
    // max_connections 6: the setup's connections leave too few for 12 client threads.
    try (EmbeddedPostgres small = EmbeddedPostgres.start(null, 6, System.out::println)) {
      Outcome o = runAgainst(List.of("workloadc", "--records", "1000", "--threads", "12", "--duration", "60",
          "--hosts", small.hostPort(), "--user", "postgres", "--results-dir", results.toString()));
      String reason = o.failedReason();
      assertTrue(reason.matches("\\d+ of 12 client threads could not start: .*too many clients.*"), reason);
      assertTrue(o.seconds() < 30, "took " + o.seconds() + " s");
    }
  }

  @Test
  void aServerThatDiesInTheMiddleFailsTheRunInsteadOfHidingInItsCounts() throws Exception {
    try (EmbeddedPostgres dying = EmbeddedPostgres.start(null, 40, System.out::println)) {
      Thread killer = new Thread(() -> {
        try {
          Awaits.phaseStarted(results, "run");
          Thread.sleep(2000);
          System.out.println("test: stopping the server");
          dying.close();
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
      killer.start();
      Outcome o = runAgainst(List.of("workloadc", "--records", "2000", "--threads", "4", "--duration", "10",
          "--hosts", dying.hostPort(), "--user", "postgres", "--results-dir", results.toString()));
      killer.join();
      String reason = o.failedReason();
      assertTrue(reason.contains("unreachable") || reason.contains("failed"), reason);
      assertTrue(o.seconds() < 60, "took " + o.seconds() + " s");
      JsonNode run = o.summary().at("/phases/run");
      assertTrue(run.get("successes").asLong() > 0, run.toString());
      assertTrue(run.get("errors").asLong() > 0, run.toString());
    }
  }

  /**
   * The server restarts in the measured window: the threads back off while it is down, the
   * outage is recorded, and the run goes on and stands, as --max-outage-pct allows.
   */
  @Test
  void aServerRestartMidRunIsAnOutageTheRunSurvives() throws Exception {
    try (EmbeddedPostgres restarting = EmbeddedPostgres.start(null, 40, System.out::println)) {
      Thread restarter = new Thread(() -> {
        try {
          Awaits.phaseStarted(results, "run");
          Thread.sleep(2000);
          System.out.println("test: restarting the server");
          restarting.restart();
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
      restarter.start();
      Outcome o = runAgainst(List.of("workloadc", "--records", "1000", "--threads", "2", "--duration", "10",
          "--max-outage-pct", "50", "--max-error-pct", "10", "--hosts", restarting.hostPort(), "--user", "postgres",
          "--results-dir", results.toString()));
      restarter.join();
      assertEquals(0, o.exitCode(), o.err() + o.out());
      JsonNode run = o.summary().at("/phases/run");
      assertEquals("complete", o.summary().get("state").asText());
      assertTrue(run.get("outages").size() > 0, "the restart left no outage: " + run);
      double outageEnd = run.at("/outages/0/start_s").asDouble() + run.at("/outages/0/duration_s").asDouble();
      List<String> rows = Files.readAllLines(o.runDir().resolve("timeseries.csv"));
      assertTrue(rows.stream().skip(1).filter(r -> r.startsWith("run,")).map(r -> r.split(","))
          .anyMatch(c -> Double.parseDouble(c[1]) > outageEnd + 1 && Double.parseDouble(c[2]) > 0),
          "no success after the outage ended at " + outageEnd + " s: " + rows);
    }
  }

  @Test
  void aSecondRunCannotRecreateATableAnotherRunIsUsing(@TempDir Path otherResults) throws Exception {
    Outcome[] first = new Outcome[1];
    Thread firstRun = new Thread(() -> first[0] = run("workloada", "--records", "2000", "--threads", "2",
        "--duration", "8", "--database", "shared"));
    firstRun.start();
    Awaits.phaseStarted(results, "run");
    Outcome second = runAgainst(List.of("workloada", "--records", "500", "--database", "shared", "--hosts",
        pg.hostPort(), "--user", "postgres", "--results-dir", otherResults.toString()));
    String line = second.err().strip();
    assertEquals(2, second.exitCode(), second.out() + line);
    assertEquals("error: table usertable in database shared is in use by another run; wait for it to finish or use "
        + "another --database", line);
    firstRun.join();
    assertEquals(0, first[0].exitCode(), first[0].err() + first[0].out());
    JsonNode run = first[0].summary().at("/phases/run");
    assertEquals(0, run.get("errors").asLong(), run.toString());
    assertEquals("complete", first[0].summary().get("state").asText());
  }

  @Test
  void aPasswordAmongTheUrlOptionsReachesNoResultFile() throws Exception {
    Outcome o = run("workloadc", "--records", "100", "--operations", "200", "--threads", "1", "--database", "secret",
        "-p", "ysql.url_options=ApplicationName=secret-test&password=s3cretpw");
    assertEquals(0, o.exitCode(), o.err() + o.out());
    assertFalse((o.out() + o.err()).contains("s3cretpw"));
    try (var files = Files.walk(o.runDir())) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertFalse(Files.readString(f, StandardCharsets.ISO_8859_1).contains("s3cretpw"), f.toString());
      }
    }
    assertEquals("ApplicationName=secret-test", o.runJson().at("/parameters/ysql.url_options").asText());
  }

  /**
   * Passwords are hidden where they are values (a flag's, a URL option's, a property's), never as
   * text: with the passwords "x", "yugabyte" and "PostgreSQL" no file or line holds the value, and
   * every message and the server's banner read as they are ("***" appears only as a value).
   */
  @ParameterizedTest
  @ValueSource(strings = {"x", "yugabyte", "PostgreSQL"})
  void passwordsAreHiddenAsValuesAndMessagesStayIntact(String password) throws Exception {
    Outcome o = run("workloadc", "--records", "100", "--operations", "200", "--threads", "1", "--database", "pw",
        "--password", password, "-p", "ysql.url_options=ApplicationName=pw-test&password=" + password);
    assertEquals(0, o.exitCode(), o.err() + o.out());
    List<String> texts = new ArrayList<>(List.of(o.out() + o.err()));
    try (var files = Files.walk(o.runDir())) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        texts.add(Files.readString(f, StandardCharsets.ISO_8859_1));
      }
    }
    for (String t : texts) {
      assertFalse(t.contains("password=" + password) || t.contains("--password " + password)
          || t.contains("\"--password\", \"" + password), t);
      String values = t.replace("password=***", "").replace("--password ***", "").replace("\"***\"", "")
          .replace("&quot;***&quot;", ""); // report.html shows run.json escaped
      assertFalse(values.contains("***"), "free text was rewritten: " + t);
    }
    assertTrue(o.out().contains("Server: PostgreSQL 17."), o.out());
    assertEquals("***", o.runJson().at("/parameters/ysql.password").asText());
    assertEquals("ApplicationName=pw-test", o.runJson().at("/parameters/ysql.url_options").asText());
  }
}
