package dev.ybbench.tpcc;

import static dev.ybbench.tpcc.RunTpccTest.HOME;
import static dev.ybbench.tpcc.RunTpccTest.assertTheMixRanEveryType;
import static dev.ybbench.tpcc.RunTpccTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.tpcc.RunTpccTest.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** run_tpcc.sh's works, throughput and spec runs and aborts, end to end against embedded PostgreSQL servers. */
class RunTpccIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  /** BenchBase runs every <work> in turn; so do we, each with its own time and weights, each its own phase. */
  @Test
  void everyWorkRunsInOrderWithItsOwnTimeAndWeights() throws Exception {
    Path config = results.resolve("two-works.xml");
    Files.writeString(config, Files.readString(HOME.resolve("tpcc/config/tiny.xml")).replaceFirst(
        "(?s)<works>.*</works>", "<works><work><warmup>0</warmup><time>4</time><rate>unlimited</rate>"
            + "<weights>45,43,4,4,4</weights></work><work><warmup>0</warmup><time>3</time><rate>unlimited</rate>"
            + "<weights>0,100,0,0,0</weights></work></works>"));
    Outcome o = run("--config", config.toString(), "--results-dir", results.toString());
    assertEquals(0, o.exitCode(), o.err() + o.out());
    JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
    JsonNode mix = summary.at("/phases/execute");
    JsonNode payments = summary.at("/phases/execute-2");
    assertEquals(4, mix.get("duration_s").asDouble(), 1.5);
    assertEquals(3, payments.get("duration_s").asDouble(), 1.5);
    assertTrue(mix.at("/operations/NewOrder/successes").asLong() > 0, mix.toString());
    assertTrue(payments.at("/operations/Payment/successes").asLong() > 0, payments.toString());
    assertEquals(List.of("Payment"), iterable(payments.get("operations").fieldNames()), "the second work's weights");
    assertTrue(o.out().indexOf("Executing execute:") < o.out().indexOf("Executing execute-2:"), "in order");
    assertTrue(o.out().matches("(?s).*Works \\(.*\\n  execute +\\[45,43,4,4,4\\] .*\\n  execute-2 +\\[0,100,0,0,0\\] .*"),
        o.out());
    assertTrue(Files.readString(o.runDir().resolve("timeseries.csv")).contains("\nexecute-2,"));
    assertEquals("[0, 100, 0, 0, 0]", JSON.readTree(o.runDir().resolve("run.json").toFile())
        .at("/parameters/execute-2.weights").asText());
    assertTrue(summary.at("/tpcc/consistency/all_pass").asBoolean(), summary.at("/tpcc/consistency").toString());
  }

  /** ./run_tpcc.sh --warehouses N: the 2.1 post's throughput run, ending with its six-row table. */
  @Test
  void theThroughputRunGivesTheMixAndEachTypeAloneWithoutEfficiency() throws Exception {
    // One warehouse, four terminals: Delivery alone on its ten districts conflicts by design. What
    // outlasts its retries is an abort, counted apart, and does not fail the run as errors would.
    Outcome o = run("--warehouses", "1", "--terminals", "4", "--duration", "3", "--warmup", "0", "--results-dir",
        results.toString());
    assertEquals(0, o.exitCode(), o.err() + o.out());
    JsonNode phases = JSON.readTree(o.runDir().resolve("summary.json").toFile()).get("phases");
    JsonNode deliveryAlone = phases.get("execute-5");
    assertEquals(0, deliveryAlone.get("errors").asLong(), deliveryAlone.toString());
    assertTrue(deliveryAlone.has("aborts"), deliveryAlone.toString());
    List<String> types = List.of("NewOrder", "Payment", "OrderStatus", "Delivery", "StockLevel");
    assertTheMixRanEveryType(phases.get("execute"));
    for (int i = 0; i < types.size(); i++) {
      JsonNode alone = phases.get("execute-" + (i + 2));
      assertTrue(alone.at("/operations/" + types.get(i) + "/successes").asLong() > 0, types.get(i) + " alone");
      assertFalse(alone.path("tpcc").has("efficiency_pct"));
    }
    assertFalse(phases.get("execute").path("tpcc").has("efficiency_pct"), "no think times, no efficiency");
    String table = o.out().substring(o.out().indexOf("Works ("));
    assertEquals(7, table.lines().takeWhile(l -> !l.startsWith("Consistency") && !l.startsWith("Run ")).count(),
        table);
    assertEquals(List.of(45, 43, 4, 4, 4).toString(), JSON.readTree(o.runDir().resolve("run.json").toFile())
        .at("/parameters/weights").asText());
    // The 2.1 post's picture and the charts of each work over time (where gnuplot is installed).
    if (new ProcessBuilder("sh", "-c", "command -v gnuplot").start().waitFor() == 0) {
      for (String svg : List.of("works.svg", "execute-tpmC.svg", "execute-types.svg", "execute-p90.svg",
          "execute-3-types.svg", "execute-3-p90.svg")) {
        assertTrue(Files.size(o.runDir().resolve("plots").resolve(svg)) > 1000, svg);
      }
      assertFalse(Files.exists(o.runDir().resolve("plots/execute-3-tpmC.svg")), "Payment alone has no tpmC");
      assertTrue(Files.readString(o.runDir().resolve("plots/works.svg")).contains("StockLevel alone"));
    }
  }

  /**
   * Conflicts that outlast their retries are aborts: per type and class in summary.json, on the
   * status line, apart from errors and from the throughput; --max-abort-pct fails the run with its
   * own reason (here 0, and no retries, so that any conflict is an abort).
   */
  @Test
  void conflictsThatOutlastTheirRetriesAreAbortsWithTheirOwnLimit() throws Exception {
    Path config = results.resolve("delivery.xml");
    Files.writeString(config, Files.readString(HOME.resolve("tpcc/config/tiny.xml")).replaceFirst(
        "(?s)<works>.*</works>", "<works><work><warmup>0</warmup><time>3</time><rate>unlimited</rate>"
            + "<weights>0,0,0,100,0</weights></work></works>"));
    Outcome o = run("--config", config.toString(), "--max-retries", "0", "--max-abort-pct", "0", "--results-dir",
        results.toString());
    assertEquals(1, o.exitCode(), o.err() + o.out());
    JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
    JsonNode delivery = summary.at("/phases/execute/operations/Delivery");
    long aborts = delivery.get("aborts").asLong();
    assertTrue(aborts > 0, "four terminals delivering on one warehouse never conflicted: " + delivery);
    assertEquals(aborts, delivery.at("/aborts_by_class/sqlstate-40001").asLong(0)
        + delivery.at("/aborts_by_class/sqlstate-40P01").asLong(0), delivery.toString());
    assertEquals(0, delivery.get("errors").asLong(), delivery.toString());
    assertEquals(0, delivery.get("retries").asLong(), "--max-retries 0");
    assertEquals(aborts, summary.at("/phases/execute/aborts").asLong());
    // duration_s is rounded to 0.1 s: the throughput lies between successes over its bounds.
    double successes = delivery.get("successes").asLong();
    double duration = summary.at("/phases/execute/duration_s").asDouble();
    double throughput = delivery.get("throughput_ops").asDouble();
    assertTrue(throughput >= successes / (duration + 0.05) - 0.05 && throughput <= successes / (duration - 0.05) + 0.05,
        "throughput counts successes only: " + throughput + " ops/s, " + successes + " successes in " + duration + " s");
    String reason = JSON.readTree(o.runDir().resolve("run.json").toFile()).get("reason").asText();
    assertTrue(reason.matches("[0-9.]+ % of the execute phase's operations aborted on conflicts after their retries "
        + "\\(" + aborts + " of \\d+: sqlstate-40\\w+ \\d+.*\\), above --max-abort-pct 0"), reason);
    assertTrue(o.out().matches("(?s).*tpmC .*, errors 0, aborts " + aborts + ", retries 0.*"), o.out());
  }

  /**
   * --spec at 2 warehouses: 20 terminals over 2 connections, each terminal keying and thinking
   * (here a hundredth of the spec's times, so that a few seconds hold hundreds of cycles),
   * Deliveries deferred. The waits the run reports must be the config's: keying exactly, think
   * times a truncated negative exponential whose mean is the config's within sampling error; and
   * no terminal may submit faster than its waits allow.
   */
  @Test
  void theSpecRunKeepsEveryTerminalsKeyingAndThinkTimesOverAFewConnections() throws Exception {
    long[][] waits = {{180, 120}, {30, 120}, {20, 100}, {20, 50}, {20, 50}}; // keying, mean think: ms
    List<String> types = List.of("NewOrder", "Payment", "OrderStatus", "Delivery", "StockLevel");
    StringBuilder tx = new StringBuilder("<transactiontypes>");
    for (int i = 0; i < types.size(); i++) {
      tx.append("<transactiontype><name>").append(types.get(i)).append("</name><preExecutionWait>")
          .append(waits[i][0]).append("</preExecutionWait><postExecutionWait>").append(waits[i][1])
          .append("</postExecutionWait></transactiontype>");
    }
    Path config = results.resolve("fast-spec.xml");
    Files.writeString(config, Files.readString(HOME.resolve("tpcc/config/tiny.xml"))
        .replaceFirst("(?s)<transactiontypes>.*</transactiontypes>", tx + "</transactiontypes>"));
    int seconds = 12;
    Outcome o = run("--config", config.toString(), "--spec", "--warehouses", "2", "--connections", "2",
        "--duration", Integer.toString(seconds), "--warmup", "0", "--results-dir", results.toString());
    System.out.println(o.out());
    assertEquals(0, o.exitCode(), o.err() + o.out());
    JsonNode parameters = JSON.readTree(o.runDir().resolve("run.json").toFile()).get("parameters");
    assertEquals("20", parameters.get("terminals").asText(), "10 terminals per warehouse");
    assertEquals("2", parameters.get("connections").asText());
    assertEquals("true", parameters.get("deferred_delivery").asText());
    JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
    assertTrue(summary.at("/tpcc/consistency/all_pass").asBoolean(), summary.at("/tpcc/consistency").toString());
    JsonNode exec = summary.at("/phases/execute");
    assertFalse(exec.path("tpcc").has("efficiency_pct"), "not the spec's waits: no efficiency");
    assertEquals(80.0, exec.at("/tpcc/response_time_limits/Delivery/limit_s").asDouble(), "Delivery judged deferred");
    double meanCycleS = 0;
    long submitted = 0;
    double[] mix = {0.45, 0.43, 0.04, 0.04, 0.04};
    for (int i = 0; i < types.size(); i++) {
      JsonNode w = exec.at("/tpcc/terminal_waits/" + types.get(i));
      long n = w.get("transactions").asLong();
      submitted += n;
      assertTrue(n > (i < 2 ? 100 : 5), types.get(i) + " submitted " + n + " times: " + exec);
      double keying = waits[i][0] / 1000.0;
      assertEquals(keying, w.at("/keying_s/min").asDouble(), 1e-9, types.get(i));
      assertEquals(keying, w.at("/keying_s/max").asDouble(), 1e-9, types.get(i));
      // An exponential's spread is its mean: 4 standard errors either side; truncated at 10 means.
      double think = waits[i][1] / 1000.0 * (1 - Math.exp(-10));
      double thinks = w.at("/think_s/mean").asDouble();
      assertEquals(think, thinks, 4 * think / Math.sqrt(n) + 0.001, types.get(i) + " mean think over " + n);
      assertTrue(w.at("/think_s/max").asDouble() <= 10 * waits[i][1] / 1000.0 + 0.001, types.get(i));
      meanCycleS += mix[i] * (waits[i][0] + waits[i][1]) / 1000.0;
    }
    // No terminal submits before its waits are over: 20 terminals cannot submit more than one
    // cycle's worth each in the window (allowing the draw's spread and one cycle in flight each).
    double mostCycles = 20 * seconds / meanCycleS;
    assertTrue(submitted <= mostCycles * 1.15 + 20, submitted + " submissions in " + seconds + " s; at most "
        + mostCycles);
    assertTrue(exec.at("/operations/Delivery/successes").asLong() > 0, "deferred Deliveries ran: " + exec);
    assertTrue(o.out().contains("Delivery deferred"), o.out());
  }

  private static List<String> iterable(Iterator<String> it) {
    List<String> out = new java.util.ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }
}
