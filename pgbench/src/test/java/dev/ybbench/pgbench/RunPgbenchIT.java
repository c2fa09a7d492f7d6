package dev.ybbench.pgbench;

import static dev.ybbench.pgbench.RunPgbenchTest.printed;
import static dev.ybbench.pgbench.RunPgbenchTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.analysis.Compare;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.pgbench.RunPgbenchTest.Outcome;
import dev.ybbench.pgbench.engine.PgbenchBinary;
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

/**
 * run_pgbench.sh's Java side with the real pgbench against a real embedded PostgreSQL 17: pgbench
 * -i, then its scripts as pgbench's own command lines; what summary.json records is what pgbench
 * printed, and the server counted the same statements.
 */
class RunPgbenchIT {
  private static EmbeddedPostgres server;

  @TempDir
  Path results;

  @BeforeAll
  static void start() {
    Tools.requireInstalled("pgbench", PgbenchBinary.PACKAGE);
    server = EmbeddedPostgres.start(null, 40, line -> { });
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private Outcome onServer(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("-h", server.host(), "-p", Integer.toString(server.port()), "-U", server.user(),
        "--results-dir", results.toString(), "--no-install"));
    return run(all.toArray(String[]::new));
  }

  private static JsonNode summary(Outcome o) throws Exception {
    return RunDirectory.JSON.readTree(o.runDir().resolve("summary.json").toFile());
  }

  @Test
  void initializedThenAWeightedMixAtARate() throws Exception {
    Outcome init = onServer("-i", "-s", "2", "--foreign-keys");
    assertEquals(0, init.exitCode(), init.err() + init.out());
    assertEquals(200_022, summary(init).at("/phases/init/rows").asLong());
    Outcome o = onServer("-b", "simple-update@2", "-b", "select-only@8", "-c", "4", "-j", "2", "-T", "3", "-R", "400",
        "-M", "prepared");
    assertEquals(0, o.exitCode(), o.err() + o.out());
    JsonNode s = summary(o);
    assertEquals("simple-update@2+select-only@8", s.get("workload").asText());
    JsonNode run = s.at("/phases/run");
    assertEquals("intended start", run.get("latency_from").asText());
    long updates = run.at("/operations/simple-update/successes").asLong();
    long selects = run.at("/operations/select-only/successes").asLong();
    assertEquals(Long.parseLong(printed(o.out(), "number of transactions actually processed")), updates + selects);
    assertTrue(selects > updates, "weights 8 : 2, " + selects + " : " + updates);
    assertTrue(run.at("/operations/select-only/latency_actual_us/p50").asLong()
        <= run.at("/operations/select-only/latency_us/p50").asLong(), run.toString());
    assertEquals(3 * updates + selects + 1, run.get("audited_statements").asLong());
    JsonNode side = run.get("server");
    assertEquals(side.get("harness_operations").asLong(), side.get("server_statements").asLong(), o.out());
    assertEquals(2, RunDirectory.JSON.readTree(o.runDir().resolve("run.json").toFile()).at("/parameters/scale")
        .asInt());
    assertTrue(Files.exists(o.runDir().resolve("latency/run-select-only.hlog")));
    assertTrue(Files.exists(o.runDir().resolve("latency/actual-start/run-select-only.hlog")));
    assertTrue(Files.notExists(o.runDir().resolve("pgbench-log")), "the log is read into the results, then removed");
  }

  /**
   * Four sessions updating one row at repeatable read: tries fail on serialization, are retried,
   * and some transactions fail after their tries. In a run of -t N the server's count of
   * statements is the clients' exactly, each try's statements before the one that failed counted
   * from -r's report, which ybbench asks for and shows only when -r was given. In a run of -T S,
   * pgbench drops the transaction a session is in when the time is up if a try of it then fails:
   * the server's count is recorded, and not audited, saying why.
   */
  @Test
  void transactionsThatFailPartWayAreAuditedExactlyInARunOfTransactions() throws Exception {
    assertEquals(0, onServer("-i", "-s", "1").exitCode());
    Path script = Files.writeString(results.resolve("hot.sql"), String.join("\n",
        "\\set bid random(1, 1)",
        "BEGIN ISOLATION LEVEL REPEATABLE READ;",
        "SELECT bbalance FROM pgbench_branches WHERE bid = :bid;",
        "UPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = :bid;",
        "END;", ""));
    // One thread: pgbench adds up -r's counts without a lock across its threads.
    Outcome o = onServer("-f", script.toString(), "-c", "4", "-j", "1", "-t", "150", "--max-tries", "2",
        "--max-abort-pct", "100"); // a lost race is no fault of the run here: it is the point
    assertEquals(0, o.exitCode(), o.err() + o.out());
    JsonNode run = summary(o).at("/phases/run");
    JsonNode hot = run.at("/operations/hot");
    assertTrue(hot.get("retries").asLong() > 0 && hot.get("aborts").asLong() > 0, run.toString());
    assertEquals(600, hot.get("successes").asLong() + hot.get("aborts").asLong());
    assertTrue(run.get("audited_statements").asLong() > 2 * hot.get("successes").asLong(), run.toString());
    JsonNode side = run.get("server");
    assertEquals(side.get("harness_operations").asLong(), side.get("server_statements").asLong(), o.out());
    assertTrue(o.out().contains("(Δ 0.00 %)"), o.out());
    assertTrue(!o.out().contains("statement latencies in milliseconds"), "-r's report, not asked for: " + o.out());

    Outcome timed = onServer("-f", script.toString(), "-c", "4", "-T", "2", "--max-tries", "2", "-r",
        "--max-abort-pct", "100");
    assertEquals(0, timed.exitCode(), timed.err() + timed.out());
    assertTrue(timed.out().contains("statement latencies in milliseconds, failures and retries:"), timed.out());
    assertTrue(timed.out().contains("  UPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = :bid;"),
        timed.out());
    assertTrue(timed.out().contains("when -T's time is up, pgbench drops the transaction a session is in if a try "
        + "of it then fails, its statements counted nowhere (a run of -t N is audited exactly): the server's count "
        + "of statements on pgbench_accounts … pgbench_history is not audited"), timed.out());
    JsonNode audited = summary(timed).at("/phases/run/audited_statements");
    assertTrue(audited.isMissingNode() || audited.isNull(), audited.toString());
  }

  @Test
  void aScriptThatAbortsASessionFailsTheRunAndKeepsItsLog() throws Exception {
    assertEquals(0, onServer("-i", "-s", "1").exitCode());
    Path script = Files.writeString(results.resolve("divide.sql"), "SELECT abalance FROM pgbench_accounts WHERE aid "
        + "= 1;\nSELECT 1 / 0;\n");
    Outcome o = onServer("-f", script.toString(), "-c", "1", "-t", "5");
    assertEquals(1, o.exitCode(), o.err() + o.out());
    assertTrue(o.out().contains("Run failed (pgbench exited with 2, a session aborted: client 0 script 0 aborted in "
        + "command 1 query 0: ERROR:  division by zero)"), o.out());
    assertEquals("failed", summary(o).get("state").asText());
    assertTrue(Files.isDirectory(o.runDir().resolve("pgbench-log")), "kept, to see why");
  }

  @Test
  void compareAndTheHistoryJudgeItAsAnyRun() throws Exception {
    assertEquals(0, onServer("-i", "-s", "1").exitCode());
    String history = results.resolve("history.db").toString();
    for (String label : new String[] {"before", "after", "before", "after", "before"}) {
      Outcome o = onServer("-S", "-c", "2", "-T", "2", "--label", label, "--history", history);
      assertEquals(0, o.exitCode(), o.err() + o.out());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    int rc = new Compare(new Console(print), RunPgbenchTest.HOME).execute(new String[] {"before", "after",
        "--threshold", "50", "--results-dir", results.toString()}, print);
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(rc == 0 || rc == Compare.UNDECIDED, text);
    assertTrue(text.contains("pgbench/select-only tps "), text);
    out.reset();
    Outcome night = onServer("-S", "-c", "2", "-T", "2", "--label", "night");
    rc = new Compare(new Console(print), RunPgbenchTest.HOME).execute(new String[] {"--history", history,
        night.runDir().toString(), "--results-dir", results.toString()}, print);
    text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("history: pgbench/select-only@"), text);
    assertTrue(rc == 0 || rc == Compare.REGRESSION || rc == Compare.UNDECIDED, text);
  }

  @Test
  void runsOnTablesThatAreMissingAreRefused() throws Exception {
    Outcome o = run("-S", "-T", "1", "--hosts", server.hostPort(), "--user", server.user(), "--database",
        "no_tables_here", "--results-dir", results.toString(), "--no-install");
    assertEquals(1, o.exitCode(), o.err() + o.out());
    assertTrue(o.out().contains("pgbench_accounts is missing: initialize the tables first (./run_pgbench.sh -i -s N "
        + "…), or give -s N to initialize them before the run"), o.out());
    assertNull(summary(o).at("/phases/run").textValue());
    // -s on a run: the scale its tables must have, initialized first when missing or of another scale.
    Outcome scaled = run("-S", "-T", "1", "-s", "1", "--hosts", server.hostPort(), "--user", server.user(),
        "--database", "no_tables_here", "--results-dir", results.toString(), "--no-install");
    assertEquals(0, scaled.exitCode(), scaled.err() + scaled.out());
    assertTrue(scaled.out().contains("note: pgbench_accounts is missing: the tables are initialized first"),
        scaled.out());
    Outcome rescaled = run("-S", "-T", "1", "-s", "2", "--hosts", server.hostPort(), "--user", server.user(),
        "--database", "no_tables_here", "--results-dir", results.toString(), "--no-install");
    assertEquals(0, rescaled.exitCode(), rescaled.err() + rescaled.out());
    assertTrue(rescaled.out().contains("note: pgbench_branches holds scale 1, and -s 2 was asked: the tables are "
        + "initialized again first"), rescaled.out());
    assertEquals(200_022, summary(rescaled).at("/phases/init/rows").asLong());
    assertEquals(2, RunDirectory.JSON.readTree(rescaled.runDir().resolve("run.json").toFile())
        .at("/parameters/scale").asInt());
  }
}
