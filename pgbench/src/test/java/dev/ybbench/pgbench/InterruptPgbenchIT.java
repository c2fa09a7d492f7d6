package dev.ybbench.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.testing.CtrlC;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.pgbench.engine.PgbenchBinary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C while pgbench runs, sent to a real harness process as SIGINT: pgbench is ended (it
 * prints no report then), the harness exits within 5 s with code 130, keeps the transactions of
 * pgbench's log that it wrote, marks the run interrupted and stops the embedded server.
 */
@Tag("alone") // times Ctrl-C against 5 s, which a machine busy with other tests would decide
class InterruptPgbenchIT {
  @TempDir
  Path results;

  @BeforeAll
  static void pgbench() {
    Tools.requireInstalled("pgbench", PgbenchBinary.PACKAGE);
  }

  @Test
  void ctrlCKeepsWhatPgbenchLoggedAndExits130() throws Exception {
    try (CtrlC p = CtrlC.startJava(Runner.class, RunPgbenchTest.HOME, List.of(Pgbench.NAME, "-S", "-c", "2", "-T",
        "300", "-P", "1", "--results-dir", results.toString()))) {
      p.awaitLine(l -> l.startsWith("progress: 3.0 s, "), Duration.ofSeconds(120));
      long sent = System.nanoTime();
      p.send();
      assertEquals(130, p.exitCode(Duration.ofSeconds(60)), p.output());
      double seconds = (System.nanoTime() - sent) / 1e9;
      assertTrue(seconds < 5, "Ctrl-C took " + seconds + " s: " + p.output());
      String out = p.output();
      assertTrue(out.contains("Stopping embedded PostgreSQL"), out);
      Path runDir = Path.of(out.lines().filter(l -> l.startsWith("Results: ")).findFirst().orElseThrow()
          .substring("Results: ".length()).strip());
      JsonNode summary = RunDirectory.JSON.readTree(runDir.resolve("summary.json").toFile());
      assertEquals("interrupted", summary.get("state").asText(), out);
      JsonNode run = summary.at("/phases/run");
      // What pgbench's log held when it was ended: the latency of each of those transactions.
      long successes = run.at("/operations/select-only/successes").asLong();
      assertTrue(successes > 0, summary.toString());
      assertEquals(successes, run.at("/operations/select-only/latency_us/count").asLong(), summary.toString());
      assertTrue(run.get("duration_s").asDouble() >= 2, summary.toString());
      assertTrue(Files.isDirectory(runDir.resolve("pgbench-log")), "kept with the interrupted run");
    }
  }
}
