package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C in each of TPC-C's long phases, sent to a real harness process as SIGINT: it exits within
 * 5 s with code 130, keeps what was measured, marks the run interrupted and stops the server.
 */
class InterruptTpccTest {
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

  /** Sends SIGINT {@code delayMs} after the line starting with {@code marker}; returns summary.json. */
  private JsonNode interrupt(String marker, long delayMs, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(
        // With SIGINT's default action, whatever the test runner left it as (see the YCSB InterruptTest).
        "perl", "-e", "$SIG{INT} = 'DEFAULT'; exec {$ARGV[0]} @ARGV or die", "--",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-Dybbench.home=" + RunTpccTest.HOME,
        RunTpcc.class.getName(), "--results-dir", results.toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    List<String> lines = new ArrayList<>();
    long signalled = 0;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String l; (l = out.readLine()) != null; ) {
        lines.add(l);
        if (l.startsWith(marker) && signalled == 0) {
          Thread.sleep(delayMs);
          new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
          signalled = System.nanoTime();
        }
      }
    }
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the harness did not exit after Ctrl-C");
    double seconds = (System.nanoTime() - signalled) / 1e9;
    String all = String.join("\n", lines);
    assertTrue(signalled > 0 && seconds < 5, "Ctrl-C took " + seconds + " s: " + all);
    assertEquals(130, p.exitValue(), all);
    Path runDir;
    try (Stream<Path> s = Files.list(results)) {
      runDir = s.findFirst().orElseThrow();
    }
    assertEquals("interrupted", JSON.readTree(runDir.resolve("run.json").toFile()).get("state").asText(), all);
    JsonNode summary = JSON.readTree(runDir.resolve("summary.json").toFile());
    assertEquals("interrupted", summary.get("state").asText());
    assertTrue(all.contains("Stopping embedded PostgreSQL"), all);
    return summary;
  }
}
