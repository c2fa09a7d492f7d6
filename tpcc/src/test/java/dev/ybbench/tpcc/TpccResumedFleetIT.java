package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.cli.ShutdownGuard;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.fleet.FleetCommand;
import dev.ybbench.harness.merge.ResumedLoad;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.tpcc.core.WarehouseRange;
import dev.ybbench.tpcc.load.PopulationCheck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fleet.sh's TPC-C losing a loader: two clients load two warehouses each, client 1 is SIGKILLed
 * in the middle of its second warehouse, fleet.sh resumes it (--retry-clients 1), and the loads
 * merge into one whose population is exact: the warehouse in doubt deleted and loaded again,
 * none twice. The works and the consistency check then run over all four warehouses.
 */
class TpccResumedFleetIT {
  @TempDir
  Path results;

  @Test
  void aLoaderKilledMidWarehouseIsResumedAndTheLoadsMergeWhole() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 60, System.out::println)) {
      Thread killer = new Thread(this::killClientOneInItsSecondWarehouse);
      killer.start();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      FleetCommand fleet = new FleetCommand(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)),
          RunTpccTest.HOME, new ShutdownGuard(() -> { }, () -> { }, Duration.ofSeconds(1)));
      int rc = fleet.execute(new String[] {"--benchmark", "tpcc", "--clients", "2", "--retry-clients", "1",
          "--hosts", pg.hostPort(), "--warehouses", "4", "--loader-threads", "1", "--terminals", "2", "--mix-only",
          "--duration", "3", "--warmup", "0", "--user", "postgres", "--database", "lost", "--results-dir",
          results.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8));
      killer.join();
      String printed = out.toString(StandardCharsets.UTF_8);
      System.out.println(printed);
      assertEquals(0, rc, printed);
      assertTrue(printed.contains("[load] client 1 of 2 died (exit 137), "), printed);
      assertTrue(printed.contains("resuming it (1 of 1)"), printed);
      assertTrue(printed.contains("[load] client 1 was killed and resumed"), printed);
      assertTrue(printed.contains("population check: pass"), printed);

      Path load = fleet.runs().get(0);
      JsonNode run = RunDirectory.JSON.readTree(load.resolve("run.json").toFile());
      assertEquals(1, run.at("/resumed/0/client").asInt(), run.toString());
      assertTrue(run.at("/resumed/0/rows_before").asLong() > 0, "warehouse 3, loaded whole before the kill: " + run);
      assertTrue(run.at("/resumed/0/rows_redone").asLong() > 0, "warehouse 4's rows in doubt: " + run);
      JsonNode summary = RunDirectory.JSON.readTree(load.resolve("summary.json").toFile());
      assertEquals("pass", summary.at("/phases/load/checks/population").asText(), summary.toString());

      // The killed run given without its resume is refused, with the command that resumes it.
      String client0 = null;
      for (JsonNode part : run.path("merged_from")) {
        client0 = part.asText().endsWith(run.at("/resumed/0/resumed_by").asText()) ? client0 : part.asText();
      }
      Path killed = load.resolveSibling(run.at("/resumed/0/killed/0").asText());
      ByteArrayOutputStream said = new ByteArrayOutputStream();
      int refused = new Runner(new Tpcc(), new Console(new PrintStream(said, true, StandardCharsets.UTF_8)),
          RunTpccTest.HOME).execute(new String[] {"--merge", client0, killed.toString()},
          new PrintStream(said, true, StandardCharsets.UTF_8));
      String refusal = said.toString(StandardCharsets.UTF_8);
      assertEquals(2, refused, refusal);
      assertTrue(refusal.contains("(client 1 of 2): its load never finished; resume it (./run_tpcc.sh ")
          && refusal.contains(" --resume " + killed + ")"), refusal);

      try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/lost", "postgres", "");
          Statement st = c.createStatement()) {
        // The tables the works do not add to hold exactly the load's rows, each once.
        Map<String, Long> expected = PopulationCheck.expected(4);
        for (String table : List.of("warehouse", "district", "customer", "item", "stock")) {
          try (ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            assertEquals(expected.get(table), rs.getLong(1), table);
          }
        }
        Path check = Path.of(printed.replaceFirst("(?s).*\\[check] run: (\\S+).*", "$1"));
        assertTrue(RunDirectory.JSON.readTree(check.resolve("summary.json").toFile())
            .at("/tpcc/consistency/all_pass").asBoolean(), printed);
        // Broken data fails the check of a client's warehouses: one stock row of the resumed one gone.
        st.executeUpdate("DELETE FROM stock WHERE s_w_id = 4 AND s_i_id = 1");
        List<String> broken = PopulationCheck.run(c, new WarehouseRange(3, 2, 4), null);
        assertTrue(broken.contains("stock: 199999 rows, expected 200000"), broken.toString());
      }
    }
  }

  /** Kills fleet.sh's load client 1 (SIGKILL) a second into its second warehouse. */
  private void killClientOneInItsSecondWarehouse() {
    long deadline = System.nanoTime() + 300_000_000_000L;
    try {
      while (System.nanoTime() < deadline) {
        JsonNode checkpoint = checkpointOfClientOne();
        if (checkpoint != null && checkpoint.path("loaded").size() == 1) {
          Thread.sleep(1000);
          ProcessHandle.current().descendants().filter(p -> commandLine(p).contains(" --client-index 1 ")
              && commandLine(p).contains(" --load")).forEach(ProcessHandle::destroyForcibly);
          return;
        }
        Thread.sleep(50);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Client 1's load checkpoint, once it has one; null before (or while it is rewritten). */
  private JsonNode checkpointOfClientOne() {
    try (Stream<Path> dirs = Files.list(results)) {
      for (Path d : dirs.filter(Files::isDirectory).toList()) {
        Path info = d.resolve("run.json");
        Path checkpoint = d.resolve(ResumedLoad.CHECKPOINT);
        if (Files.isRegularFile(info) && Files.isRegularFile(checkpoint)
            && RunDirectory.JSON.readTree(info.toFile()).at("/fleet/index").asInt(-1) == 1) {
          return RunDirectory.JSON.readTree(checkpoint.toFile());
        }
      }
    } catch (IOException e) {
      return null; // a file read as it was written
    }
    return null;
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
