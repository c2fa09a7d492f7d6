package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.testing.Scrapes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --prometheus-port 0 on a TPC-C run: the port printed, counts rising, the last scrape equal to summary.json. */
class TpccPrometheusIT {
  @TempDir
  Path results;

  @Test
  void aTpccRunServesItsTransactionsAndTpmcAsItRuns() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Tpcc(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunTpccTest.HOME);
    int rc;
    List<String> scrapes;
    try (Scrapes.WhileRunning scraping = new Scrapes.WhileRunning(out)) {
      rc = cmd.execute(new String[] {"--duration", "6", "--warmup", "1", "--prometheus-port", "0", "--results-dir",
          results.toString()}, System.err);
      scrapes = scraping.texts();
    }
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, printed);
    JsonNode execute = new ObjectMapper().readTree(cmd.runDirectory().resolve("summary.json").toFile())
        .at("/phases/execute");

    List<Long> newOrders = new ArrayList<>();
    List<Scrapes.Sample> last = null;
    Map<String, String> newOrder = Map.of("phase", "execute", "operation", "NewOrder", "outcome", "success",
        "bench", "tpcc", "workload", "tiny");
    for (String text : scrapes) {
      List<Scrapes.Sample> s = Scrapes.parse(text);
      if (s.stream().anyMatch(x -> x.name().equals("ybbench_operations_total") && x.has(newOrder))) {
        newOrders.add((long) Scrapes.sum(s, "ybbench_operations_total", newOrder));
        if (Scrapes.sum(s, "ybbench_phase_active", Map.of("phase", "execute")) == 0) {
          last = s;
        }
      }
    }
    assertTrue(newOrders.stream().distinct().count() >= 3, "New-Orders did not rise across scrapes: " + newOrders);
    assertTrue(last != null, "no scrape after the execute phase ended");
    for (String txn : List.of("NewOrder", "Payment", "OrderStatus", "Delivery", "StockLevel")) {
      Map<String, String> labels = Map.of("phase", "execute", "operation", txn);
      for (String outcome : List.of("success", "error", "abort")) {
        String field = outcome.equals("success") ? "successes" : outcome + "s";
        assertEquals(execute.at("/operations/" + txn + "/" + field).asLong(),
            (long) Scrapes.sum(last, "ybbench_operations_total", with(labels, "outcome", outcome)),
            txn + " " + outcome);
      }
      assertEquals(execute.at("/operations/" + txn + "/retries").asLong(),
          (long) Scrapes.sum(last, "ybbench_retries_total", labels), txn + " retries");
    }
    double tpmc = Scrapes.sum(last, "ybbench_headline", Map.of("phase", "execute", "metric", "tpmC"));
    assertEquals(execute.at("/tpcc/tpmC").asDouble(), tpmc, execute.at("/tpcc/tpmC").asDouble() * 0.05,
        "tpmC served against summary.json's (the phase's length measured a moment apart)");
  }

  private static Map<String, String> with(Map<String, String> labels, String name, String value) {
    Map<String, String> m = new java.util.HashMap<>(labels);
    m.put(name, value);
    return m;
  }
}
