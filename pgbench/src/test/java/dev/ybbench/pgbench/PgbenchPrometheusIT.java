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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --prometheus-port 0 on a pgbench run: pgbench's per-transaction log followed as it is written,
 * each script's transactions served while the run lasts, and the last scrape equal to summary.json.
 */
class PgbenchPrometheusIT {
  private static final Pattern PORT = Pattern.compile("Prometheus: serving /metrics on port (\\d+)");

  @TempDir
  Path results;

  @BeforeAll
  static void pgbench() {
    Tools.requireInstalled("pgbench", PgbenchBinary.PACKAGE);
  }

  @Test
  void eachScriptsTransactionsAreServedAsTheyRunAndAtTheEndAsRecorded() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> scrapes = new ArrayList<>();
    Thread scraper = new Thread(() -> {
      try {
        String url = null;
        while (!Thread.currentThread().isInterrupted()) {
          if (url == null) {
            Matcher m = PORT.matcher(out.toString(StandardCharsets.UTF_8));
            url = m.find() ? "http://127.0.0.1:" + m.group(1) + "/metrics" : null;
          }
          String text = url == null ? null : Scrapes.scrape(url);
          if (text != null) {
            synchronized (scrapes) {
              scrapes.add(text);
            }
          }
          Thread.sleep(200);
        }
      } catch (InterruptedException e) {
        // the run is over
      }
    });
    scraper.start();
    Runner cmd = new Runner(new Pgbench(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)),
        RunPgbenchTest.HOME);
    int rc = cmd.execute(new String[] {"-b", "simple-update@1", "-b", "select-only@3", "-c", "2", "-T", "6",
        "--prometheus-port", "0", "--results-dir", results.toString(), "--no-install"}, System.err);
    scraper.interrupt();
    scraper.join();
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, printed);
    JsonNode run = RunDirectory.JSON.readTree(cmd.runDirectory().resolve("summary.json").toFile()).at("/phases/run");

    List<Scrapes.Sample> last = null;
    long servedWhileRunning = 0;
    Map<String, String> selects = Map.of("phase", "run", "operation", "select-only", "outcome", "success",
        "bench", "pgbench");
    synchronized (scrapes) {
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
