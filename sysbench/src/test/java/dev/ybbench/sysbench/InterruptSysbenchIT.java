package dev.ybbench.sysbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.testing.CtrlC;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.sysbench.engine.SysbenchBinary;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C while sysbench runs, sent to a real harness process as SIGINT: sysbench is ended, the
 * harness exits within 5 s with code 130, keeps what sysbench reported so far (its interval lines),
 * marks the run interrupted and stops the embedded server.
 */
@Tag("alone") // times Ctrl-C against 5 s, which a machine busy with other tests would decide
class InterruptSysbenchIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  @BeforeAll
  static void sysbench() {
    Tools.requireInstalled("sysbench", SysbenchBinary.PACKAGE);
  }

  @Test
  void ctrlCKeepsWhatSysbenchReportedAndExits130() throws Exception {
    try (CtrlC p = CtrlC.startJava(Runner.class, RunSysbenchTest.HOME, List.of(Sysbench.NAME, "oltp_point_select",
        "--table-size", "1000", "--threads", "2", "--duration", "300", "--report-interval", "1", "--results-dir",
        results.toString()))) {
      p.awaitLine(l -> l.startsWith("[ 2s ] thds: 2 tps: "), Duration.ofSeconds(120));
      long sent = System.nanoTime();
      p.send();
      assertEquals(130, p.exitCode(Duration.ofSeconds(60)), p.output());
      double seconds = (System.nanoTime() - sent) / 1e9;
      assertTrue(seconds < 5, "Ctrl-C took " + seconds + " s: " + p.output());
      String out = p.output();
      assertTrue(out.contains("Stopping embedded PostgreSQL"), out);
      Path runDir = Path.of(out.lines().filter(l -> l.startsWith("Results: ")).findFirst().orElseThrow()
          .substring("Results: ".length()).strip());
      JsonNode summary = JSON.readTree(runDir.resolve("summary.json").toFile());
      assertEquals("interrupted", summary.get("state").asText(), out);
      assertEquals("interrupted", JSON.readTree(runDir.resolve("run.json").toFile()).get("state").asText());
      JsonNode run = summary.at("/phases/run");
      assertTrue(run.at("/operations/transaction/successes").asLong() > 0, summary.toString());
      assertTrue(run.at("/sysbench/queries/read/successes").asLong() > 0, summary.toString());
      assertTrue(run.get("duration_s").asDouble() >= 2, summary.toString());
    }
  }
}
