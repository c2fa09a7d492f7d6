package dev.ybbench.analysis.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history's store, on an SQLite file and on a real PostgreSQL, with writers at once and one killed. */
class HistoryStoreIT {
  @TempDir
  Path dir;

  /** A run's entry with {@code ops} operations, its figures made up. */
  static HistoryStore.Entry entry(String runId, String key, double headline, Instant started, int ops) {
    List<HistoryStore.Operation> operations = IntStream.range(0, ops).mapToObj(i -> new HistoryStore.Operation(
        "OP" + i, headline / ops, 100, 0, 0, 1, 50L, 95L, 99L, null)).toList();
    return new HistoryStore.Entry(runId, "run", key, "ycsb", "workloadc", started, started.plusSeconds(60),
        "complete", null, "nightly", "PostgreSQL", "17.11", 1, true, "ci-1", 2, "Debian 17.0.15", "abc123",
        "throughput (ops/s)", headline, headline, 6000, 0, 0, 3, 60.0, "/results/" + runId, "{\"threadcount\":\"4\"}",
        "{}", "{\"format\":2}", "{}", operations);
  }

  @Test
  void aRunIsRecordedOnceAndReadBackAsItWas() {
    Path file = dir.resolve("sub").resolve("history.db");
    Instant t = Instant.parse("2026-11-20T03:00:00.123456789Z");
    try (HistoryStore s = HistoryStore.open(file.toString())) {
      assertEquals(1, s.record(List.of(entry("r1", "k@1", 1234.5, t, 3))));
      assertEquals(0, s.record(List.of(entry("r1", "k@1", 999, t, 3))), "imported again: left as it was");
      s.record(List.of(entry("r0", "k@1", 1000, t.minusSeconds(86400), 1), entry("x", "k@2", 5, t, 0)));
      List<HistoryStore.Entry> runs = s.entries("k@1");
      assertEquals(List.of("r0", "r1"), runs.stream().map(HistoryStore.Entry::runId).toList(), "in order of start");
      HistoryStore.Entry r1 = runs.get(1);
      assertEquals(1234.5, r1.headline());
      assertEquals(t, r1.started());
      assertEquals(Integer.valueOf(2), r1.clientCores());
      assertNull(r1.reason());
      assertTrue(r1.embedded());
      assertEquals(List.of("k@1", "k@2"), List.copyOf(s.keys().keySet()));
    }
    assertTrue(Files.isRegularFile(file), "created with its directory");
  }

  @Test
  void aHistoryThatCannotBeOpenedIsOneLineNamingIt() {
    UserError e = assertThrows(UserError.class, () -> HistoryStore.open(dir.toString()));
    assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
    UserError where = assertThrows(UserError.class, () -> HistoryStore.open("/proc/nowhere/history.db"));
    assertTrue(where.getMessage().startsWith("Cannot create the history /proc/nowhere/history.db: its directory "
        + "/proc/nowhere cannot be made ("), where.getMessage());
    UserError pg = assertThrows(UserError.class,
        () -> HistoryStore.open("postgresql://perf:hunter2@127.0.0.1:1/ybbench"));
    assertTrue(pg.getMessage().startsWith("Cannot open the history postgresql://perf:***@127.0.0.1:1/ybbench: "),
        pg.getMessage());
    assertFalse(pg.getMessage().contains("hunter2"), pg.getMessage());
    assertEquals("jdbc:postgresql://h/db?user=u&password=***",
        HistoryStore.redact("jdbc:postgresql://h/db?user=u&password=hunter2"));
    // The command run.json keeps, and every line printed (Console.clean), hide it too.
    assertEquals(List.of("--history", "postgresql://perf:***@db.example.com/ybbench"), dev.ybbench.harness.results
        .RunInfo.redactCommand(List.of("--history", "postgresql://perf:hunter2@db.example.com/ybbench"), x -> x));
    assertEquals("error: postgresql://perf:***@h/db", dev.ybbench.harness.results.Console.clean(
        "error: postgresql://perf:hunter2@h/db"));
  }

  @Test
  void aTeamsPostgresqlKeepsTheSameRowsWithItsTimesAsTimestamptz() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start("17", 10, s -> { })) {
      String url = "postgresql://" + pg.user() + ":unused@" + pg.hostPort() + "/postgres";
      Instant t = Instant.parse("2026-11-20T03:00:00.123456Z");  // PostgreSQL keeps microseconds
      try (HistoryStore s = HistoryStore.open(url)) {
        assertEquals("postgresql://" + pg.user() + ":***@" + pg.hostPort() + "/postgres", s.shown());
        s.record(List.of(entry("r1", "k@1", 1234.5, t, 2)));
        assertEquals(t, s.entries("k@1").get(0).started());
      }
      try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/postgres",
          pg.user(), "");
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT data_type FROM information_schema.columns WHERE table_name = "
              + "'ybbench_result' AND column_name = 'started'")) {
        assertTrue(rs.next());
        assertEquals("timestamp with time zone", rs.getString(1), "Apache Otava reads its time column so");
      }
    }
  }

  @Test
  void twoWritersAtOnceAndOneKilledHalfwayLoseNoCommittedRun() throws Exception {
    String file = dir.resolve("history.db").toString();
    Process a = writer(file, "a", 150, 20);
    Process b = writer(file, "b", 150, 20);
    Process killed = writer(file, "k", 100_000, 200);
    List<String> fromKilled = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(killed.getInputStream(),
        StandardCharsets.UTF_8))) {
      for (String line; fromKilled.size() < 30 && (line = in.readLine()) != null; ) {
        fromKilled.add(line);
      }
      // SIGKILL, in the middle of a transaction as likely as not (Process.destroyForcibly would close its output).
      new ProcessBuilder("kill", "-9", String.valueOf(killed.pid())).start().waitFor();
      assertTrue(killed.waitFor(30, TimeUnit.SECONDS));
      // Ids it printed before the kill was seen are committed; read them all.
      for (String line; (line = in.readLine()) != null; ) {
        fromKilled.add(line);
      }
    }
    assertTrue(a.waitFor(120, TimeUnit.SECONDS) && b.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, a.exitValue(), new String(a.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    assertEquals(0, b.exitValue(), new String(b.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    assertEquals(30, fromKilled.stream().limit(30).count());
    try (HistoryStore s = HistoryStore.open(file)) {
      Set<String> ids = new HashSet<>();
      s.entries("ycsb/workloadc@writers").forEach(e -> ids.add(e.runId()));
      for (int i = 0; i < 150; i++) {
        assertTrue(ids.contains("a-" + i) && ids.contains("b-" + i), "lost a-" + i + " or b-" + i);
      }
      assertTrue(ids.containsAll(fromKilled), "a run the killed writer committed is gone");
      s.record(List.of(entry("after", "ycsb/workloadc@writers", 1, Instant.now(), 1)));
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("PRAGMA integrity_check")) {
        assertTrue(rs.next());
        assertEquals("ok", rs.getString(1));
      }
      // Every run has all its operations: none was written in part.
      try (ResultSet rs = st.executeQuery("SELECT r.run_id, count(o.operation) FROM ybbench_result r LEFT JOIN "
          + "ybbench_operation o USING (run_id, phase) GROUP BY r.run_id")) {
        while (rs.next()) {
          String id = rs.getString(1);
          int expected = id.startsWith("k-") ? 200 : id.equals("after") ? 1 : 20;
          assertEquals(expected, rs.getInt(2), id);
        }
      }
    }
  }

  private static Process writer(String file, String prefix, int runs, int ops) throws Exception {
    return new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), HistoryWriter.class.getName(), file,
        prefix, String.valueOf(runs), String.valueOf(ops))).start();
  }
}
