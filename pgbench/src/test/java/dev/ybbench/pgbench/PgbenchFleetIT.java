package dev.ybbench.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.cli.ShutdownGuard;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.fleet.FleetCommand;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.pgbench.engine.PgbenchBinary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fleet.sh driving pgbench against one server: a fleet of -i is client 0's alone; a fleet of a run
 * is every client's at once on those tables, merged exactly and audited against the server.
 */
class PgbenchFleetIT {
  @TempDir
  Path results;

  @BeforeAll
  static void pgbench() {
    Tools.requireInstalled("pgbench", PgbenchBinary.PACKAGE);
  }

  private int fleet(ByteArrayOutputStream out, FleetCommand fleet, String... args) {
    return fleet.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8));
  }

  private FleetCommand command(ByteArrayOutputStream out) {
    return new FleetCommand(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunPgbenchTest.HOME,
        new ShutdownGuard(() -> { }, () -> { }, Duration.ofSeconds(1)));
  }

  @Test
  void clientZeroInitializesThenEveryClientRunsAndTheRunsMerge() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 40, line -> { })) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int rc = fleet(out, command(out), "--benchmark", "pgbench", "--clients", "2", "--hosts", pg.hostPort(), "-i",
          "-s", "1", "-U", pg.user(), "--results-dir", results.toString());
      assertEquals(0, rc, out.toString(StandardCharsets.UTF_8));
      assertTrue(out.toString(StandardCharsets.UTF_8).contains("[init] pgbench: client 0 alone"), out.toString());
      out.reset();
      FleetCommand fleet = command(out);
      rc = fleet(out, fleet, "--benchmark", "pgbench", "--clients", "2", "--hosts", pg.hostPort(), "-b",
          "simple-update@1", "-b", "select-only@3", "-c", "2", "-T", "3", "-U", pg.user(), "--results-dir",
          results.toString());
      String printed = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, rc, printed);
      assertTrue(printed.contains("[run] pgbench: 2 clients"), printed);
      assertEquals(1, fleet.runs().size(), "the run step's merge: " + printed);
      JsonNode run = RunDirectory.JSON.readTree(fleet.runs().get(0).resolve("run.json").toFile());
      assertEquals(2, run.at("/merged_from").size(), run.toString());
      assertEquals("4", run.at("/parameters/sessions").asText(), run.toString());
      JsonNode summary = RunDirectory.JSON.readTree(fleet.runs().get(0).resolve("summary.json").toFile());
      JsonNode phase = summary.at("/phases/run");
      long updates = phase.at("/operations/simple-update/successes").asLong();
      long selects = phase.at("/operations/select-only/successes").asLong();
      assertEquals(updates + selects, phase.at("/pgbench/processed").asLong(), summary.toString());
      assertEquals(selects, phase.at("/operations/select-only/latency_us/count").asLong(), summary.toString());
      // Each client's transactions' statements and its one count of pgbench_branches, against the server's.
      assertEquals(3 * updates + selects + 2, phase.get("audited_statements").asLong(), summary.toString());
      JsonNode side = phase.get("server");
      assertEquals(side.get("harness_operations").asLong(), side.get("server_statements").asLong(),
          "the merged run's audit: " + printed);
      assertEquals("tps", phase.at("/headline/metric").asText());
    }
  }
}
