package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C in the middle of a run, sent to a real harness process as SIGINT. */
class InterruptTest {
  @TempDir
  Path results;

  @Test
  void ctrlCWritesWhatWasMeasuredMarksItInterruptedAndStopsTheServer() throws Exception {
    ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-Dybbench.home=" + RunYcsbTest.HOME,
        RunYcsb.class.getName(), "workloadc", "--records", "2000", "--threads", "2", "--duration", "300",
        "--results-dir", results.toString());
    pb.redirectErrorStream(true);
    Process p = pb.start();
    List<String> lines = new ArrayList<>();
    Pattern serverLine = Pattern.compile("on 127\\.0\\.0\\.1:(\\d+)");
    String port = null;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String l; (l = out.readLine()) != null; ) {
        lines.add(l);
        Matcher m = serverLine.matcher(l);
        if (port == null && m.find()) {
          port = m.group(1);
        }
        if (l.startsWith("Running workloadc")) {
          Thread.sleep(3000);
          new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        }
      }
    }
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the harness did not exit after Ctrl-C");
    assertNotEquals(0, p.exitValue());
    assertNotNull(port, String.join("\n", lines));

    Path runDir;
    try (Stream<Path> s = Files.list(results)) {
      runDir = s.findFirst().orElseThrow();
    }
    ObjectMapper json = new ObjectMapper();
    JsonNode run = json.readTree(runDir.resolve("run.json").toFile());
    assertEquals("interrupted", run.get("state").asText(), String.join("\n", lines));
    JsonNode summary = json.readTree(runDir.resolve("summary.json").toFile());
    assertEquals("interrupted", summary.get("state").asText());
    assertTrue(summary.at("/phases/run/operations/READ/successes").asLong() > 0, summary.toString());
    assertTrue(Files.readString(runDir.resolve("console.log")).contains("Stopping embedded PostgreSQL"));

    Path instance = Path.of(System.getProperty("java.io.tmpdir"),
        "ybbench-" + new com.sun.security.auth.module.UnixSystem().getUid(), "instances", "pg-" + port);
    assertFalse(Files.exists(instance), "the embedded server's directory is still there: " + instance);
  }
}
