package dev.ybbench.sysbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.cli.ShutdownGuard;
import dev.ybbench.harness.fleet.FleetCommand;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.sysbench.engine.SysbenchBinary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** fleet.sh driving sysbench: client 0 prepares the tables, then every client runs the test on them, merged. */
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
}
