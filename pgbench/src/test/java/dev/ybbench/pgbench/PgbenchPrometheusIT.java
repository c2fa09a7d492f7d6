package dev.ybbench.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.testing.Scrapes;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.pgbench.engine.PgbenchBinary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --prometheus-port 0 on a pgbench run: pgbench's per-transaction log followed as it is written,
 * each script's transactions served while the run lasts, and the last scrape equal to summary.json.
 */
class PgbenchPrometheusIT {
  @TempDir
  Path results;

  @BeforeAll
  static void pgbench() {
    Tools.requireInstalled("pgbench", PgbenchBinary.PACKAGE);
  }

  @Test
  void eachScriptsTransactionsAreServedAsTheyRunAndAtTheEndAsRecorded() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Pgbench(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)),
        RunPgbenchTest.HOME);
    int rc;
    List<String> scrapes;
    try (Scrapes.WhileRunning scraping = new Scrapes.WhileRunning(out)) {
      rc = cmd.execute(new String[] {"-b", "simple-update@1", "-b", "select-only@3", "-c", "2", "-T", "6",
          "--prometheus-port", "0", "--results-dir", results.toString(), "--no-install"}, System.err);
      scrapes = scraping.texts();
    }
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, printed);
    JsonNode run = RunDirectory.JSON.readTree(cmd.runDirectory().resolve("summary.json").toFile()).at("/phases/run");

    List<Scrapes.Sample> last = null;
    long servedWhileRunning = 0;
    Map<String, String> selects = Map.of("phase", "run", "operation", "select-only", "outcome", "success",
        "bench", "pgbench");
    for (String text : scrapes) {
      List<Scrapes.Sample> s = Scrapes.parse(text);
      if (s.stream().noneMatch(x -> x.name().equals("ybbench_operations_total") && x.has(selects))) {
        continue;
      }
      if (Scrapes.sum(s, "ybbench_phase_active", Map.of("phase", "run")) == 1) {
        servedWhileRunning = Math.max(servedWhileRunning, (long) Scrapes.sum(s, "ybbench_operations_total",
            selects));
      } else {
        last = s;
      }
    }
    assertTrue(servedWhileRunning > 0, "no transaction served while the run lasted: " + scrapes.size()
        + " scrapes");
    assertTrue(last != null, "no scrape after the run ended");
    for (String script : List.of("simple-update", "select-only")) {
      Map<String, String> labels = Map.of("phase", "run", "operation", script);
      long successes = run.at("/operations/" + script + "/successes").asLong();
      assertTrue(successes > 0, run.toString());
      assertEquals(successes, (long) Scrapes.sum(last, "ybbench_operations_total", Map.of("phase", "run",
          "operation", script, "outcome", "success")), script);
      assertEquals(run.at("/operations/" + script + "/latency_us/count").asLong(),
          (long) Scrapes.sum(last, "ybbench_latency_seconds_count", labels), script + " latency");
      assertEquals(run.at("/operations/" + script + "/retries").asLong(),
          (long) Scrapes.sum(last, "ybbench_retries_total", labels), script + " retries");
    }
    assertTrue(servedWhileRunning <= run.at("/operations/select-only/successes").asLong());
  }
}
