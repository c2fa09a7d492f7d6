package dev.ybbench.harness.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationMetrics;
import dev.ybbench.harness.metrics.PhaseRecorder;
import dev.ybbench.harness.metrics.Timeseries;
import dev.ybbench.harness.testing.Scrapes;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The endpoint over HTTP, on a phase whose counts are known exactly. */
class PrometheusEndpointTest {
  @TempDir
  Path dir;

  @Test
  void servesThePhasesCountersAndLatencyBucketsExactly() throws Exception {
    Metrics metrics = new Metrics();
    OperationMetrics read = metrics.operation("READ");
    for (int i = 0; i < 3; i++) {
      read.success(50); // 50 µs: the first bucket, 100 µs
    }
    read.success(150); // 250 µs
    read.success(2_000_000); // 2 s: the 2.5 s bucket
    read.error("sqlstate-08006", 2);
    read.abort("sqlstate-40001", 1);
    for (int i = 0; i < 4; i++) {
      read.retry("sqlstate-40001");
    }
    metrics.begin(); // one operation under way
    try (Timeseries ts = new Timeseries(dir.resolve("timeseries.csv"));
        PrometheusEndpoint endpoint = PrometheusEndpoint.start(0, "ycsb", "workloadc", "v1", "3", "f1",
            () -> 2_500_000_000L)) {
      String url = "http://127.0.0.1:" + endpoint.port() + "/metrics";
      List<Scrapes.Sample> before = Scrapes.parse(Scrapes.scrape(url));
      assertEquals(2.5, Scrapes.sum(before, "ybbench_client_cpu_seconds_total", Map.of("client", "3", "fleet", "f1")));
      assertEquals(0, Scrapes.sum(before, "ybbench_operations_total", Map.of()), "no run yet");

      PhaseRecorder recorder = new PhaseRecorder("run", metrics, dir.resolve("latency"), ts);
      endpoint.runStarted("20261125T000000Z_ycsb_workloadc", ts);
      recorder.close(); // the totals are final
      List<Scrapes.Sample> s = Scrapes.parse(Scrapes.scrape(url));
      Map<String, String> run = Map.of("run_id", "20261125T000000Z_ycsb_workloadc", "phase", "run", "operation", "READ",
          "bench", "ycsb", "workload", "workloadc", "label", "v1", "client", "3", "fleet", "f1");
      assertEquals(5, Scrapes.sum(s, "ybbench_operations_total", with(run, "outcome", "success")));
      assertEquals(2, Scrapes.sum(s, "ybbench_operations_total", with(run, "outcome", "error")));
      assertEquals(1, Scrapes.sum(s, "ybbench_operations_total", with(run, "outcome", "abort")));
      assertEquals(0, Scrapes.sum(s, "ybbench_operations_total", with(run, "outcome", "unknown")));
      assertEquals(1, s.stream().filter(x -> x.name().equals("ybbench_operations_total") && x.has(with(run, "outcome",
          "unknown"))).count(), "every outcome is served, at 0 when none");
      assertEquals(2, Scrapes.sum(s, "ybbench_failures_total", with(with(run, "outcome", "error"), "class",
          "sqlstate-08006")));
      assertEquals(1, Scrapes.sum(s, "ybbench_failures_total", with(with(run, "outcome", "abort"), "class",
          "sqlstate-40001")));
      assertEquals(4, Scrapes.sum(s, "ybbench_retries_total", run));
      // Classic buckets are cumulative: 3 within 100 µs, 4 within 250 µs, all 5 within 2.5 s.
      assertEquals(3, Scrapes.sum(s, "ybbench_latency_seconds_bucket", with(run, "le", "1.0E-4")));
      assertEquals(4, Scrapes.sum(s, "ybbench_latency_seconds_bucket", with(run, "le", "2.5E-4")));
      assertEquals(4, Scrapes.sum(s, "ybbench_latency_seconds_bucket", with(run, "le", "1.0")));
      assertEquals(5, Scrapes.sum(s, "ybbench_latency_seconds_bucket", with(run, "le", "2.5")));
      assertEquals(5, Scrapes.sum(s, "ybbench_latency_seconds_bucket", with(run, "le", "+Inf")));
      assertEquals(5, Scrapes.sum(s, "ybbench_latency_seconds_count", run));
      double sum = Scrapes.sum(s, "ybbench_latency_seconds_sum", run);
      assertTrue(Math.abs(sum - (3 * 50e-6 + 150e-6 + 2.0)) < 0.002, "sum " + sum);
      assertEquals(0, Scrapes.sum(s, "ybbench_phase_active", Map.of("phase", "run")), "the phase has ended");
      assertEquals(1, Scrapes.sum(s, "ybbench_in_flight_operations", Map.of("client", "3")));
    }
  }

  @Test
  void aPortInUseIsTheUsersToChange() {
    try (PrometheusEndpoint first = PrometheusEndpoint.start(0, "tpcc", "tiny", null, "0", "", () -> 0)) {
      UserError e = assertThrows(UserError.class,
          () -> PrometheusEndpoint.start(first.port(), "tpcc", "tiny", null, "0", "", () -> 0));
      assertEquals("--prometheus-port " + first.port() + " is in use: choose another port, or 0 for any free one",
          e.getMessage());
    }
    UserError e = assertThrows(UserError.class,
        () -> PrometheusEndpoint.start(70000, "tpcc", "tiny", null, "0", "", () -> 0));
    assertNotNull(e.getMessage());
  }

  private static Map<String, String> with(Map<String, String> labels, String name, String value) {
    Map<String, String> m = new java.util.HashMap<>(labels);
    m.put(name, value);
    return m;
  }
}
