package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.HlogFiles;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Several clients sharing one table on one embedded PostgreSQL, each run in its own thread as
 * it would run in its own process: the load splits the keys exactly, run-phase inserts never
 * meet, and the merge is the sum of its parts.
 */
class ClientsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static EmbeddedPostgres pg;

  @TempDir
  Path results;

  @BeforeAll
  static void startServer() {
    pg = EmbeddedPostgres.start(null, 60, System.out::println);
  }

  @AfterAll
  static void stopServer() {
    pg.close();
  }

  record Outcome(int exitCode, String out, Path runDir) {
    JsonNode summary() throws Exception {
      return JSON.readTree(runDir.resolve("summary.json").toFile());
    }
  }

  private Outcome run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--hosts", pg.hostPort(), "--user", "postgres", "--results-dir", results.toString()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = cmd.execute(all.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8));
    Outcome o = new Outcome(rc, out.toString(StandardCharsets.UTF_8), cmd.runDirectory());
    System.out.println(o.out());
    return o;
  }

  /** Client i's command line is {@code common} with --client-index i; the highest index starts first. */
  private List<Outcome> fleet(int clients, String... common) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<Outcome>> futures = new ArrayList<>();
      for (int i = clients - 1; i >= 0; i--) {
        List<String> args = new ArrayList<>(List.of(common));
        args.addAll(List.of("--clients", Integer.toString(clients), "--client-index", Integer.toString(i)));
        futures.add(0, pool.submit(() -> run(args.toArray(new String[0]))));
        Thread.sleep(i == clients - 1 ? 1500 : 0); // the others wait for client 0's table
      }
      List<Outcome> out = new ArrayList<>();
      for (Future<Outcome> f : futures) {
        Outcome o = f.get();
        assertEquals(0, o.exitCode(), o.out());
        out.add(o);
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  private static long rows(String database) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/" + database,
        "postgres", ""); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT ycsb_key) FROM usertable")) {
      rs.next();
      assertEquals(rs.getLong(1), rs.getLong(2));
      return rs.getLong(1);
    }
  }

  private Outcome merge(List<Outcome> parts) {
    List<String> args = new ArrayList<>(List.of("--merge"));
    parts.forEach(p -> args.add(p.runDir().toString()));
    return run(args.toArray(new String[0]));
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 4})
  void clientsLoadOneTableExactlyAndTheMergeIsTheirSum(int clients) throws Exception {
    String db = "load" + clients;
    List<Outcome> parts = fleet(clients, "workloada", "--phase", "load", "--records", "3001", "--threads", "2",
        "--database", db, "--fleet", "t" + clients, "--batch-size", "16");
    assertEquals(3001, rows(db), "exactly recordcount rows, none twice");
    long successes = 0;
    double cpuS = 0;
    for (Outcome o : parts) {
      assertEquals(0, o.summary().at("/phases/load/errors").asLong(), o.out());
      successes += o.summary().at("/phases/load/operations/INSERT/successes").asLong();
      cpuS += o.summary().at("/phases/load/client/cpu_s").asDouble();
    }
    assertEquals(3001, successes);
    assertTrue(parts.get(1).out().contains("Waiting for client 0 to create the table of fleet t" + clients)
        || parts.get(1).out().contains("Loading"), parts.get(1).out());

    Outcome m = merge(parts);
    assertEquals(0, m.exitCode(), m.out());
    JsonNode load = m.summary().at("/phases/load");
    assertEquals(3001, load.at("/operations/INSERT/successes").asLong());
    assertEquals(3001, load.at("/operations/INSERT/latency_us/count").asLong());
    assertEquals(3001, HlogFiles.totals(m.runDir().resolve("latency"), "load").get("INSERT").getTotalCount());
    assertEquals(3001, load.at("/server/server_statements").asLong(), "the server inserted what the clients counted");
    assertEquals(0.0, load.at("/server/delta_pct").asDouble());
    assertEquals(cpuS, load.at("/client/cpu_s").asDouble(), 0.002, "the clients' CPU together");
    assertEquals(clients * Runtime.getRuntime().availableProcessors(), load.at("/client/cores").asInt());
    JsonNode info = JSON.readTree(m.runDir().resolve("run.json").toFile());
    assertEquals(clients, info.path("merged_from").size());
    assertEquals(Integer.toString(clients), info.at("/parameters/ybbench.clients").asText());
    assertTrue(info.at("/parameters/ybbench.client_index").isMissingNode());
    assertTrue(m.out().contains("[load] server audit: the clients counted 3001 operations, the server completed 3001 "
        + "statements on the table"), m.out());
    assertTrue(m.out().contains("[load] the clients wrote exactly the 3001 records asked for"), m.out());

    // The audit on broken data: a server that completed one statement fewer, a load one row short.
    Path summary = m.runDir().resolve("summary.json");
    Files.writeString(summary, Files.readString(summary).replace("\"server_statements\" : 3001",
        "\"server_statements\" : 3000").replace("\"successes\" : 3001", "\"successes\" : 3000"));
    List<String> lines = new ArrayList<>();
    assertFalse(YcsbMerge.audit(m.runDir(), lines::add));
    assertTrue(lines.contains("error: [load] the server's count differs from the clients'"), lines.toString());
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("error: [load] the clients wrote ")), lines.toString());
  }

  @Test
  void runPhaseInsertsOfTwoClientsNeverMeet() throws Exception {
    fleet(2, "workloadd", "--phase", "load", "--records", "1000", "--threads", "2", "--database", "inserts",
        "--fleet", "i2");
    List<Outcome> parts = fleet(2, "workloadd", "--phase", "run", "--records", "1000", "--operations", "4000",
        "--threads", "2", "--database", "inserts", "-p", "insertproportion=0.5", "-p", "readproportion=0.5");
    long inserted = 0;
    long reads = 0;
    for (Outcome o : parts) {
      JsonNode run = o.summary().at("/phases/run");
      assertEquals(0, run.get("errors").asLong(), "no insert met another client's key: " + o.out());
      inserted += run.at("/operations/INSERT/successes").asLong();
      reads += run.at("/operations/READ/successes").asLong();
    }
    assertTrue(inserted > 1000, "both clients inserted: " + inserted);
    assertEquals(1000 + inserted, rows("inserts"));

    Outcome m = merge(parts);
    assertEquals(0, m.exitCode(), m.out());
    assertEquals(inserted, m.summary().at("/phases/run/operations/INSERT/successes").asLong());
    assertEquals(reads, m.summary().at("/phases/run/operations/READ/latency_us/count").asLong());
  }

  @Test
  void aMergeWithoutEveryClientIsRefused() throws Exception {
    List<Outcome> parts = fleet(3, "workloadc", "--phase", "load", "--records", "300", "--threads", "1",
        "--database", "partial", "--fleet", "p3");
    JsonNode fleet = JSON.readTree(parts.get(1).runDir().resolve("run.json").toFile()).get("fleet");
    assertEquals("{\"id\":\"p3\",\"clients\":3,\"index\":1}", fleet.toString());
    String c0 = parts.get(0).runDir().toString();
    String c2 = parts.get(2).runDir().toString();
    // Client 1 is missing: refused, naming it.
    Outcome missing = run("--merge", c0, c2);
    assertEquals(2, missing.exitCode(), missing.out());
    assertTrue(missing.out().contains("error: Cannot merge: the fleet of 3 clients is not whole: client 1 is missing; "
        + "merge one complete run of each client, or add --include-incomplete for a merged run marked partial"),
        missing.out());
    // One client's run alone: the same, the others named as missing.
    Outcome alone = run("--merge", c0);
    assertEquals(2, alone.exitCode(), alone.out());
    assertTrue(alone.out().contains("the fleet of 3 clients is not whole: client 1 is missing, client 2 is missing"),
        alone.out());
    // Client 1 killed (its directory has run.json, no summary.json): refused, naming it as never finished.
    Path c1 = parts.get(1).runDir();
    Path killed = Files.createDirectories(c1.resolveSibling(c1.getFileName() + "-killed"));
    Files.copy(c1.resolve("run.json"), killed.resolve("run.json"));
    Outcome unfinished = run("--merge", c0, killed.toString(), c2);
    assertEquals(2, unfinished.exitCode(), unfinished.out());
    assertTrue(unfinished.out().contains("error: Cannot merge " + killed + " (client 1 of the 3 in fleet p3): its run "
        + "never finished (no summary.json: killed, or still running)"), unfinished.out());
    // Client 1 interrupted (its state as a Ctrl-C leaves it): refused, naming it and its state.
    for (String f : List.of("run.json", "summary.json")) {
      Files.writeString(c1.resolve(f), Files.readString(c1.resolve(f)).replace("\"state\" : \"complete\"",
          "\"state\" : \"interrupted\""));
    }
    Outcome interrupted = run("--merge", c0, c1.toString(), c2);
    assertEquals(2, interrupted.exitCode(), interrupted.out());
    assertTrue(interrupted.out().contains("the fleet of 3 clients is not whole: client 1 interrupted;"),
        interrupted.out());
    // --include-incomplete merges the complete ones into a run marked partial.
    Outcome partial = run("--merge", c0, c1.toString(), c2, "--include-incomplete");
    assertEquals(0, partial.exitCode(), partial.out());
    JsonNode merged = partial.summary();
    assertEquals("partial", merged.get("state").asText());
    assertEquals("the fleet of 3 clients is not whole: client 1 interrupted", merged.get("reason").asText());
    assertEquals("partial", JSON.readTree(partial.runDir().resolve("run.json").toFile()).get("state").asText());
    assertEquals(parts.get(0).summary().at("/phases/load/successes").asLong()
        + parts.get(2).summary().at("/phases/load/successes").asLong(), merged.at("/phases/load/successes").asLong());
    assertTrue(partial.out().contains("note: a partial merge"), partial.out());
    Outcome stray = run("workloadc", "--phase", "load", "--records", "10", "--include-incomplete");
    assertEquals(2, stray.exitCode(), stray.out());
    assertTrue(stray.out().contains("error: --include-incomplete goes with --merge"), stray.out());
    Outcome one = run("--merge", c0, c0);
    assertEquals(2, one.exitCode());
    assertTrue(one.out().contains("A run directory is given twice to --merge"), one.out());
    Outcome solo = run("workloadc", "--phase", "load", "--records", "200", "--threads", "1", "--database", "solo");
    Outcome mixed = run("--merge", parts.get(0).runDir().toString(), solo.runDir().toString());
    assertEquals(2, mixed.exitCode());
    assertTrue(mixed.out().contains("Cannot merge"), mixed.out());
  }

  /** The steady-rate load of the large-dataset page: --target paces the load, as the run. */
  @Test
  void aTargetPacesTheLoad() throws Exception {
    // A rate far below what even a busy machine reaches (4 threads, one row every 40 ms each), so
    // the test checks the pacing, not the machine's speed.
    int target = 100;
    Outcome o = run("workloadc", "--phase", "load", "--records", Integer.toString(4 * target), "--threads", "4",
        "--target", Integer.toString(target), "--database", "paced", "--batch-size", "1");
    assertEquals(0, o.exitCode(), o.out());
    JsonNode load = o.summary().at("/phases/load");
    assertEquals(4 * target, load.get("successes").asLong());
    double rate = load.get("throughput_ops").asDouble();
    // Never ahead of the schedule; a test beside it may hold it behind (it catches up at once, so
    // only a stall longer than the run could halve the rate).
    assertTrue(rate <= target * 1.05 && rate >= target * 0.5, "paced to " + target + " rows/s: " + rate);
    assertEquals("intended start", load.get("latency_from").asText(), "rows written one at a time run to the schedule");
  }
}
