package dev.ybbench.sysbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.cli.ShutdownGuard;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.fleet.FleetCommand;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.sysbench.engine.SysbenchBinary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fleet.sh driving sysbench: client 0 prepares the tables, then every client runs the test on them,
 * merged; a prepare killed half-way is prepared again.
 */
class SysbenchFleetIT {
  @TempDir
  Path results;

  @BeforeAll
  static void sysbench() {
    Tools.requireInstalled("sysbench", SysbenchBinary.PACKAGE);
  }

  @Test
  void clientZeroPreparesThenEveryClientRunsAndTheRunsMerge() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FleetCommand fleet = new FleetCommand(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)),
        RunSysbenchTest.HOME, new ShutdownGuard(() -> { }, () -> { }, Duration.ofSeconds(1)));
    int rc = fleet.execute(new String[] {"--benchmark", "sysbench", "--clients", "2", "oltp_point_select",
        "--table-size", "1000", "--duration", "3", "--results-dir", results.toString()},
        new PrintStream(out, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, printed);
    assertTrue(printed.contains("[prepare] sysbench: client 0 alone"), printed);
    assertTrue(printed.contains("[run] sysbench: 2 clients"), printed);
    assertEquals(1, fleet.runs().size(), "the run step's merge: " + printed);
    JsonNode run = RunDirectory.JSON.readTree(fleet.runs().get(0).resolve("run.json").toFile());
    assertEquals(2, run.at("/merged_from").size(), run.toString());
    JsonNode summary = RunDirectory.JSON.readTree(fleet.runs().get(0).resolve("summary.json").toFile());
    JsonNode side = summary.at("/phases/run/server");
    assertTrue(summary.at("/phases/run/successes").asLong() > 0, summary.toString());
    assertEquals(side.get("harness_operations").asLong(), side.get("server_statements").asLong(),
        "the merged run's audit: " + printed);
  }

  /**
   * A prepare killed half-way (SIGKILL, its second table being loaded) and prepared again by
   * fleet.sh's --retry-clients: every table then holds exactly its rows, each once, and carries
   * the mark of a finished prepare.
   */
  @Test
  void aPrepareKilledHalfWayIsPreparedAgainWhole() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 40, System.out::println)) {
      String url = "jdbc:postgresql://" + pg.hostPort() + "/killed";
      Thread killer = new Thread(() -> killOnceTableTwoIsLoading(url));
      killer.start();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      FleetCommand fleet = new FleetCommand(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)),
          RunSysbenchTest.HOME, new ShutdownGuard(() -> { }, () -> { }, Duration.ofSeconds(1)));
      int rc = fleet.execute(new String[] {"--benchmark", "sysbench", "--clients", "2", "--retry-clients", "1",
          "--hosts", pg.hostPort(), "oltp_read_only", "prepare", "--tables", "3", "--table-size", "100000",
          "--user", "postgres", "--database", "killed", "--results-dir", results.toString()},
          new PrintStream(out, true, StandardCharsets.UTF_8));
      killer.join();
      String printed = out.toString(StandardCharsets.UTF_8);
      System.out.println(printed);
      assertEquals(0, rc, printed);
      assertTrue(printed.contains("[prepare] client 0 of 1 died (exit 137), "), printed);
      assertTrue(printed.contains("resuming it (1 of 1)"), printed);
      try (Connection c = DriverManager.getConnection(url, "postgres", ""); Statement st = c.createStatement()) {
        for (int t = 1; t <= 3; t++) {
          try (ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT id) FROM sbtest" + t)) {
            rs.next();
            assertEquals(100_000, rs.getLong(1), "sbtest" + t);
            assertEquals(100_000, rs.getLong(2), "sbtest" + t);
          }
        }
        try (ResultSet rs = st.executeQuery("SELECT obj_description('sbtest1'::regclass, 'pg_class')")) {
          rs.next();
          assertTrue(rs.getString(1) != null, "the mark of a finished prepare");
        }
      }
    }
  }

  /** Kills the prepare's client (SIGKILL) once sbtest2 exists: sbtest1 loaded, sbtest2 half. */
  private static void killOnceTableTwoIsLoading(String url) {
    long deadline = System.nanoTime() + 300_000_000_000L;
    try {
      while (System.nanoTime() < deadline) {
        try (Connection c = DriverManager.getConnection(url, "postgres", ""); Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT to_regclass('sbtest2') IS NOT NULL")) {
          if (rs.next() && rs.getBoolean(1)) {
            ProcessHandle.current().descendants().filter(p -> commandLine(p).contains(Runner.class.getName()))
                .forEach(ProcessHandle::destroyForcibly);
            return;
          }
        } catch (SQLException e) {
          // the database is not there yet
        }
        Thread.sleep(20);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A process's command line as /proc has it (ProcessHandle.Info leaves a long one out). */
  private static String commandLine(ProcessHandle p) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).replace('\0', ' ');
    } catch (IOException e) {
      return "";
    }
  }
}
