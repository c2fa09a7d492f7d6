package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.cli.ShutdownGuard;
import dev.ybbench.harness.fleet.FleetCommand;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fleet.sh driving TPC-C: client 0 creates the tables, each client loads and drives its share of
 * the warehouses, their works merge into one run, client 0 checks the consistency conditions.
 */
class TpccFleetIT {
  @TempDir
  Path results;

  @Test
  void twoClientsSplitTheWarehousesAndTheirWorksMergeIntoOneRun() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    FleetCommand fleet = new FleetCommand(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)),
        RunTpccTest.HOME, new ShutdownGuard(() -> { }, () -> { }, Duration.ofSeconds(1)));
    int rc = fleet.execute(new String[] {"--benchmark", "tpcc", "--clients", "2", "--warehouses", "2", "--terminals",
        "2", "--mix-only", "--duration", "4", "--warmup", "1", "--results-dir", results.toString()},
        new PrintStream(out, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, printed);
    for (String step : new String[] {"[create] tpcc: client 0 alone", "[load] tpcc: 2 clients", "[execute] tpcc: 2 "
        + "clients", "[check] tpcc: client 0 alone"}) {
      assertTrue(printed.contains(step), step + " in " + printed);
    }
    assertEquals(2, fleet.runs().size(), "the load step's merge and the execute step's: " + printed);
    JsonNode load = RunDirectory.JSON.readTree(fleet.runs().get(0).resolve("summary.json").toFile());
    assertEquals("pass", load.at("/phases/load/checks/population").asText(), load.toString());
    assertTrue(printed.contains("[load] " + load.at("/phases/load/rows").asLong() + " rows over "), printed);
    Path merged = fleet.runs().get(1);
    JsonNode run = RunDirectory.JSON.readTree(merged.resolve("run.json").toFile());
    assertEquals(2, run.at("/merged_from").size(), run.toString());
    assertEquals("2", run.at("/parameters/warehouses").asText(), "each client drove its one warehouse: " + run);
    JsonNode summary = RunDirectory.JSON.readTree(merged.resolve("summary.json").toFile());
    assertTrue(summary.at("/phases/execute/successes").asLong() > 0, summary.toString());
    Path check = Path.of(printed.replaceFirst("(?s).*\\[check] run: (\\S+).*", "$1"));
    assertTrue(RunDirectory.JSON.readTree(check.resolve("summary.json").toFile()).at("/tpcc/consistency/all_pass")
        .asBoolean(), "client 0 checked the conditions over both clients' warehouses: " + check);
  }
}
