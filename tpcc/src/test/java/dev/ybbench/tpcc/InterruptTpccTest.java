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

/** Ctrl-C in the middle of TPC-C's measurement, sent to a real harness process as SIGINT. */
class InterruptTpccTest {
  @TempDir
  Path results;

  @Test
  void ctrlCDuringTheMeasurementKeepsWhatWasMeasuredAndExits130() throws Exception {
    // With SIGINT's default action, whatever the test runner left it as (see the YCSB InterruptTest).
    ProcessBuilder pb = new ProcessBuilder("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec {$ARGV[0]} @ARGV or die", "--",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-Dybbench.home=" + RunTpccTest.HOME,
        RunTpcc.class.getName(), "--duration", "300", "--warmup", "0", "--results-dir", results.toString());
    pb.redirectErrorStream(true);
    Process p = pb.start();
    List<String> lines = new ArrayList<>();
    long signalled = 0;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String l; (l = out.readLine()) != null; ) {
        lines.add(l);
        if (l.startsWith("Executing execute:") && signalled == 0) {
          Thread.sleep(3000);
          new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
          signalled = System.nanoTime();
        }
      }
    }
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the harness did not exit after Ctrl-C");
    double seconds = (System.nanoTime() - signalled) / 1e9;
    String all = String.join("\n", lines);
    assertTrue(signalled > 0 && seconds < 15, "Ctrl-C took " + seconds + " s: " + all);
    assertEquals(130, p.exitValue(), all);
    Path runDir;
    try (Stream<Path> s = Files.list(results)) {
      runDir = s.findFirst().orElseThrow();
    }
    ObjectMapper json = new ObjectMapper();
    assertEquals("interrupted", json.readTree(runDir.resolve("run.json").toFile()).get("state").asText(), all);
    JsonNode summary = json.readTree(runDir.resolve("summary.json").toFile());
    assertEquals("interrupted", summary.get("state").asText());
    assertTrue(summary.at("/phases/execute/operations/NewOrder/successes").asLong() > 0, summary.toString());
    assertTrue(all.contains("Stopping embedded PostgreSQL"), all);
  }
}
