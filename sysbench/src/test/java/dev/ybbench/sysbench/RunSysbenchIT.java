package dev.ybbench.sysbench;

import static dev.ybbench.sysbench.RunSysbenchTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.sysbench.RunSysbenchTest.Outcome;
import dev.ybbench.sysbench.core.SysbenchTests;
import dev.ybbench.sysbench.engine.SysbenchBinary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * run_sysbench.sh's Java side with the real sysbench against real embedded PostgreSQL servers:
 * what summary.json records is what sysbench printed, and the server counted the same statements.
 */
class RunSysbenchIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** One server for the tests that give --hosts; the rest start their own. */
  private static EmbeddedPostgres server;

  @TempDir
  Path results;

  @BeforeAll
  static void sysbench() {
    Tools.requireInstalled("sysbench", SysbenchBinary.PACKAGE);
  }

  @BeforeAll
  static void start() {
    server = EmbeddedPostgres.start(null, 40, line -> { });
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private List<String> onServer(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--hosts", server.hostPort(), "--user", server.user(), "--results-dir", results.toString(),
        "--no-install"));
    return all;
  }

  /** A count sysbench printed in its final statistics, e.g. "transactions:   3556 (709.75 per sec.)". */
  private static long printed(String out, String name) {
    Matcher m = Pattern.compile("(?m)^ +" + Pattern.quote(name) + ": +([0-9]+)").matcher(out);
    assertTrue(m.find(), name + " not printed: " + out);
    return Long.parseLong(m.group(1));
  }

  @Test
  void everyTestRecordsWhatSysbenchReportedAndTheServerCountedTheSame() throws Exception {
    for (String test : SysbenchTests.names()) {
      Outcome o = run(onServer(test, "--tables", "2", "--table-size", "1000", "--threads", "2", "--duration", "2")
          .toArray(String[]::new));
      String what = test + ":\n" + o.err() + o.out();
      assertEquals(0, o.exitCode(), what);
      JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
      assertEquals("complete", summary.get("state").asText(), what);
      JsonNode run = summary.at("/phases/run");
      JsonNode tx = run.at("/operations/transaction");
      long transactions = printed(o.out(), "transactions");
      assertTrue(transactions > 0, what);
      assertEquals(transactions, tx.get("successes").asLong(), what);
      assertEquals(transactions, run.get("successes").asLong(), what);
      assertEquals(printed(o.out(), "ignored errors"), tx.get("retries").asLong(), what);
      assertEquals(transactions, tx.at("/latency_us/count").asLong(), "every event in the histogram: " + what);
      assertEquals(printed(o.out(), "read"), run.at("/sysbench/queries/read/successes").asLong(), what);
      assertEquals(printed(o.out(), "write"), run.at("/sysbench/queries/write/successes").asLong(), what);
      assertEquals(printed(o.out(), "other"), run.at("/sysbench/queries/other/successes").asLong(), what);
      // The audit: the server's statements on sbtest1 … sbtest2 are the ones sysbench counted.
      JsonNode side = run.get("server");
      assertEquals(side.get("harness_operations").asLong(), side.get("server_statements").asLong(), what);
      assertTrue(side.get("harness_operations").asLong() >= transactions, what);
      assertTrue(o.out().contains("Server audit (run): harness " + side.get("harness_operations").asLong()
          + " statements / server " + side.get("server_statements").asLong() + " statements on sbtest1 … sbtest2 "
          + "(Δ 0.00 %)"), what);
      assertTrue(Files.readAllLines(o.runDir().resolve("timeseries.csv")).stream().anyMatch(l -> l.startsWith("run,")),
          what);
      JsonNode info = JSON.readTree(o.runDir().resolve("run.json").toFile());
      assertEquals("sysbench 1.0.20", info.at("/engine/version").asText(), what);
      assertEquals(test, info.at("/parameters/test").asText(), what);
    }
  }

  @Test
  void prepareRunAndCleanupApartAsSysbenchsOwnCommandLines() throws Exception {
    String[] common = {"--db-driver=pgsql", "--pgsql-host=" + server.host(), "--pgsql-port=" + server.port(),
        "--pgsql-user=" + server.user(), "--pgsql-db=apart", "--tables=3", "--table-size=300", "--threads=2",
        "--time=1", "--results-dir=" + results, "--no-install"};
    Outcome run = run(with("sysbench", "oltp_point_select", common, "run"));
    assertEquals(1, run.exitCode(), run.out());
    assertTrue(run.out().contains("Run failed (sbtest1 … sbtest3 are missing or not as asked"), run.out());
    Outcome prepare = run(with("sysbench", "oltp_point_select", common, "prepare"));
    assertEquals(0, prepare.exitCode(), prepare.out());
    assertTrue(prepare.out().contains("sysbench's command line, run as: ./run_sysbench.sh oltp_point_select"),
        prepare.out());
    assertTrue(prepare.out().contains("Inserting 300 records into 'sbtest3'"), prepare.out());
    assertEquals(900, JSON.readTree(prepare.runDir().resolve("summary.json").toFile()).at("/phases/prepare/rows")
        .asLong());
    run = run(with("sysbench", "oltp_point_select", common, "run"));
    assertEquals(0, run.exitCode(), run.out());
    JsonNode phases = JSON.readTree(run.runDir().resolve("summary.json").toFile()).get("phases");
    assertTrue(phases.has("run") && !phases.has("prepare"), phases.toString());
    // Without a command, tables of the same shape are used as they are.
    Outcome again = run(with(null, "oltp_point_select", common, null));
    assertTrue(again.out().contains("Found 3 tables of 300 rows prepared earlier: skipping prepare"), again.out());
    Outcome cleanup = run(with("sysbench", "oltp_point_select", common, "cleanup"));
    assertEquals(0, cleanup.exitCode(), cleanup.out());
    run = run(with("sysbench", "oltp_point_select", common, "run"));
    assertEquals(1, run.exitCode(), "the tables are gone: " + run.out());
  }

  private static String[] with(String first, String test, String[] common, String command) {
    List<String> all = new ArrayList<>();
    if (first != null) {
      all.add(first);
    }
    all.add(test);
    all.addAll(List.of(common));
    if (command != null) {
      all.add(command);
    }
    return all.toArray(String[]::new);
  }

  /**
   * Two sysbench clients at once on tables prepared once ({@code --clients 2}, each 'run'), then
   * --merge: transactions, queries and the histogram add up exactly, the server's audit over both
   * clients' window holds, and the per-second throughput is the clients' added up. Each client
   * alone says the audit is the merge's.
   */
  @Test
  void twoClientsAtOnceMergeIntoOneRunTheServerAudits() throws Exception {
    String[] common = {"--database", "fleet", "--tables", "2", "--table-size", "500", "--threads", "2"};
    Outcome prepare = run(onServer(with(null, "oltp_read_only", common, "prepare")).toArray(String[]::new));
    assertEquals(0, prepare.exitCode(), prepare.err() + prepare.out());
    List<String> client = onServer(with(null, "oltp_read_only", common, "run"));
    client.addAll(List.of("--duration", "3", "--clients", "2"));
    Outcome[] clients = new Outcome[2];
    Thread other = new Thread(() -> clients[1] = run(client.toArray(String[]::new)));
    other.start(); // the two clients at once, as on two machines
    clients[0] = run(client.toArray(String[]::new));
    other.join();
    long transactions = 0;
    long reads = 0;
    long statements = 0;
    double perSecond = 0;
    for (Outcome c : clients) {
      assertEquals(0, c.exitCode(), c.err() + c.out());
      assertTrue(c.out().contains("statements on sbtest1 … sbtest2 from all 2 clients in this client's window: the "
          + "merged run (--merge) audits them"), c.out());
      JsonNode run = JSON.readTree(c.runDir().resolve("summary.json").toFile()).at("/phases/run");
      transactions += run.at("/operations/transaction/successes").asLong();
      reads += run.at("/sysbench/queries/read/successes").asLong();
      statements += run.get("audited_statements").asLong();
      perSecond += runThroughput(c.runDir());
    }
    Outcome merged = run("--merge", clients[0].runDir().toString(), clients[1].runDir().toString(), "--results-dir",
        results.toString());
    assertEquals(0, merged.exitCode(), merged.err() + merged.out());
    assertTrue(merged.out().contains("[run] " + transactions + " transactions, 0 ignored errors, "), merged.out());
    assertTrue(merged.out().contains("[run] server audit: the clients counted " + statements + " statements, the "
        + "server completed " + statements + " statements on the table"), merged.out());
    JsonNode summary = JSON.readTree(merged.runDir().resolve("summary.json").toFile());
    assertEquals("oltp_read_only-merged", summary.get("workload").asText());
    JsonNode run = summary.at("/phases/run");
    assertEquals(transactions, run.at("/operations/transaction/successes").asLong(), run.toString());
    assertEquals(transactions, run.at("/operations/transaction/latency_us/count").asLong(), "the histograms added");
    assertEquals(reads, run.at("/sysbench/queries/read/successes").asLong(), run.toString());
    assertEquals(statements, run.get("audited_statements").asLong(), run.toString());
    JsonNode side = run.get("server");
    assertEquals(statements, side.get("harness_operations").asLong(), side.toString());
    assertEquals(statements, side.get("server_statements").asLong(), "both clients' statements: " + side);
    assertEquals(0.0, side.get("delta_pct").asDouble(), side.toString());
    assertEquals(perSecond, runThroughput(merged.runDir()), 0.5, "each second the clients' transactions/s added up");
    JsonNode info = JSON.readTree(merged.runDir().resolve("run.json").toFile());
    assertEquals("4", info.at("/parameters/threads").asText(), "both clients' threads");
    assertEquals(2, info.get("merged_from").size());

    Outcome once = run("--merge", clients[0].runDir().toString(), clients[0].runDir().toString());
    assertEquals(2, once.exitCode());
    assertEquals("error: A run directory is given twice to --merge; give each client's run once", once.err().strip());
    Outcome alone = run(onServer(with(null, "oltp_read_only", common, null)).toArray(String[]::new));
    assertEquals(0, alone.exitCode(), alone.out());
    Outcome mixed = run("--merge", clients[0].runDir().toString(), alone.runDir().toString());
    assertEquals(2, mixed.exitCode(), "a run of one client is no part of a fleet of two: " + mixed.out());
  }

  /** The transactions/s of every second of the run phase in a run's timeseries.csv, added up. */
  private static double runThroughput(Path runDir) throws Exception {
    return Files.readAllLines(runDir.resolve("timeseries.csv")).stream().filter(l -> l.startsWith("run,"))
        .mapToDouble(l -> Double.parseDouble(l.split(",")[2])).sum();
  }
}
