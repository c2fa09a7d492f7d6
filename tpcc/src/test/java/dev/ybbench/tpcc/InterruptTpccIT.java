package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.testing.Awaits;
import dev.ybbench.harness.testing.CtrlC;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C in each of TPC-C's long phases, sent to a real harness process as SIGINT: it exits within
 * 5 s with code 130, keeps what was measured, marks the run interrupted and stops the server.
 */
@Tag("alone") // times Ctrl-C against 5 s, which a machine busy with other tests would decide
class InterruptTpccIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  @Test
  void ctrlCDuringTheMeasurementKeepsWhatWasMeasuredAndExits130() throws Exception {
    JsonNode summary = interrupt("Executing execute:", 3000, "--duration", "300", "--warmup", "0");
    assertTrue(summary.at("/phases/execute/operations/NewOrder/successes").asLong() > 0, summary.toString());
  }

  /** Between two batches of a warehouse, not after it (a YugabyteDB warehouse can take a minute). */
  @Test
  void ctrlCDuringTheLoadStopsBetweenBatches() throws Exception {
    JsonNode summary = interrupt("Loading warehouses", 1500, "--warehouses", "8", "--loader-threads", "1");
    long rows = summary.at("/phases/load/rows").asLong();
    assertTrue(rows > 0 && rows < 8 * 500_000, "stopped part-way: " + summary);
  }

  /**
   * Schema creation and the consistency checks, on a server whose DDL or query waits (here on a
   * table another session holds locked, as a busy cluster's DDL can wait): Ctrl-C cancels the
   * waiting statement on the server instead of waiting for it, and it does not run later.
   */
  @Test
  void ctrlCWhileTheSchemaOrTheChecksWaitOnTheServer() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println)) {
      List<String> common = List.of("--hosts", pg.hostPort(), "--user", "postgres", "--config",
          RunTpccTest.HOME.resolve("tpcc/config/tiny.xml").toString());
      List<String> setup = new ArrayList<>(common);
      setup.addAll(List.of("--create", "--load", "--results-dir", results.resolve("setup").toString()));
      RunTpccTest.Outcome loaded = RunTpccTest.run(setup.toArray(String[]::new));
      assertEquals(0, loaded.exitCode(), loaded.err() + loaded.out());
      for (String phase : List.of("--create", "--check")) {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/tpcc", "postgres",
            "")) {
          c.setAutoCommit(false);
          c.createStatement().execute("LOCK TABLE warehouse IN ACCESS EXCLUSIVE MODE");
          List<String> args = new ArrayList<>(common);
          args.add(phase);
          // Once the harness's statement waits on the lock.
          interrupt(line -> line == null && Awaits.anotherSessionWaitsOnALock(c), args.toArray(String[]::new));
          c.rollback();
        }
        // The cancelled statement is gone from the server: it does not run once the lock is free.
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/tpcc", "postgres",
            "")) {
          assertEquals(0, Awaits.otherSessionsGone(c), "a session of the interrupted run is still on the server");
          ResultSet w = c.createStatement().executeQuery("SELECT count(*) FROM warehouse");
          w.next();
          assertEquals(1, w.getLong(1));
        }
      }
    }
  }

  /** Sends SIGINT {@code delayMs} after the line starting with {@code marker}; returns summary.json. */
  private JsonNode interrupt(String marker, long delayMs, String... args) throws Exception {
    return interrupt(line -> {
      if (line != null && line.startsWith(marker)) {
        Thread.sleep(delayMs);
        return true;
      }
      return false;
    }, args);
  }

  /**
   * When to send SIGINT: asked with each line the harness prints, and with null after 100 ms
   * without one.
   */
  private interface Trigger {
    boolean now(String line) throws InterruptedException, SQLException;
  }

  /** Sends SIGINT when {@code trigger} says so; returns summary.json. */
  private JsonNode interrupt(Trigger trigger, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-Dybbench.home=" + RunTpccTest.HOME,
        Runner.class.getName(), Tpcc.NAME, "--results-dir", results.toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(CtrlC.withDefaultAction(cmd)).redirectErrorStream(true).start();
    List<String> lines = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.concurrent.LinkedBlockingQueue<String> queue = new java.util.concurrent.LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String l; (l = out.readLine()) != null; ) {
          lines.add(l);
          queue.add(l);
        }
      } catch (java.io.IOException ignored) {
        // the process ended
      }
    });
    reader.start();
    long signalled = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (signalled == 0 && p.isAlive() && System.nanoTime() < deadline) {
      String l = queue.poll(100, TimeUnit.MILLISECONDS); // null: no line in 100 ms
      if (trigger.now(l)) {
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        signalled = System.nanoTime();
      }
    }
    reader.join(TimeUnit.SECONDS.toMillis(60));
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the harness did not exit after Ctrl-C");
    double seconds = (System.nanoTime() - signalled) / 1e9;
    String all = String.join("\n", lines);
    assertTrue(signalled > 0 && seconds < 5, "Ctrl-C took " + seconds + " s: " + all);
    assertEquals(130, p.exitValue(), all);
    Path runDir = Path.of(lines.stream().filter(l -> l.startsWith("Results: ")).findFirst().orElseThrow()
        .substring("Results: ".length()).strip());
    assertEquals("interrupted", JSON.readTree(runDir.resolve("run.json").toFile()).get("state").asText(), all);
    JsonNode summary = JSON.readTree(runDir.resolve("summary.json").toFile());
    assertEquals("interrupted", summary.get("state").asText());
    assertEquals(all.contains("Starting embedded PostgreSQL"), all.contains("Stopping embedded PostgreSQL"), all);
    return summary;
  }
}
