package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** JIT, connections and cold caches stay out of the measured window: a warm-up runs first, recorded apart. */
class WarmupIT {
  @TempDir
  Path results;

  @Test
  void aRunWithAWarmupReportsOnlyItsMeasuredWindow() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = cmd.execute(new String[] {"workloadc", "--records", "500", "--threads", "2", "--warmup", "5",
        "--duration", "10", "--results-dir", results.toString()}, System.err);
    String printed = out.toString(StandardCharsets.UTF_8);
    System.out.println(printed);
    assertEquals(0, rc, printed);
    JsonNode phases = new ObjectMapper().readTree(cmd.runDirectory().resolve("summary.json").toFile()).get("phases");
    assertEquals(List.of("load", "warmup", "run"), iterate(phases));
    double warmup = phases.at("/warmup/duration_s").asDouble();
    double measured = phases.at("/run/duration_s").asDouble();
    assertTrue(warmup >= 4.5 && warmup < 7, "warm-up " + warmup + " s");
    assertTrue(measured >= 9 && measured < 11, "measured " + measured + " s, the warm-up included?");
    long reads = phases.at("/run/operations/READ/successes").asLong();
    assertEquals(reads, RunYcsbTest.hlogTotal(cmd.runDirectory().resolve("latency/run-READ.hlog")));
    assertEquals(phases.at("/warmup/operations/READ/successes").asLong(),
        RunYcsbTest.hlogTotal(cmd.runDirectory().resolve("latency/warmup-READ.hlog")));
    assertEquals(reads / measured, phases.at("/run/throughput_ops").asDouble(), reads / measured * 0.01 + 0.1);
    // The audit holds as in a run without a warm-up: the window opened just before the server's statements
    // were counted, while the threads ran. The server may miss only the reads that ended between the two
    // or were in flight then (it counts a read before the client sees its rows): never more than the
    // harness, and 14 of 832,833 here. A window opened after the snapshot had the server 1,122 of
    // 1,021,901 ahead here, 4-7 % against a server the run did not start.
    long harness = phases.at("/run/server/harness_operations").asLong();
    long server = phases.at("/run/server/server_statements").asLong();
    assertEquals(reads, harness);
    assertTrue(server <= harness && harness - server <= Math.max(50, harness / 1000),
        "harness " + harness + ", server " + server);
    List<String> rows = Files.readAllLines(cmd.runDirectory().resolve("timeseries.csv"));
    assertTrue(rows.stream().anyMatch(r -> r.startsWith("warmup,")), "the warm-up is not marked in the timeseries");
    assertTrue(rows.stream().anyMatch(r -> r.startsWith("run,")));

    // No row is a fragment of the window's edge, and every row's rate is over its real length.
    double previous = 0;
    double counted = 0;
    for (String r : rows.stream().filter(r -> r.startsWith("run,")).toList()) {
      String[] f = r.split(",");
      double elapsed = Double.parseDouble(f[1]);
      assertTrue(elapsed - previous >= 0.5, "a row of " + (elapsed - previous) + " s: " + r);
      counted += Double.parseDouble(f[2]) * (elapsed - previous);
      previous = elapsed;
    }
    assertEquals(reads, counted, reads * 0.01, "rates times row lengths do not add up to the successes");
  }

  private static List<String> iterate(JsonNode object) {
    List<String> names = new java.util.ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
