package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.testing.Scrapes;
import dev.ybbench.harness.testing.Tools;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --prometheus-port, watched as a user would: scraped while the run runs, by the test and by a
 * real Prometheus (Debian's package), whose answers to every query of deploy/grafana/ybbench.json
 * are checked against summary.json.
 */
class PrometheusIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The Prometheus the tests start, where the package put it. */
  private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");

  @TempDir
  Path results;
  @TempDir
  Path tsdb;

  @Test
  void scrapesRiseDuringTheRunAndEndOnTheSummarysCountsAndPrometheusAnswersTheDashboard() throws Exception {
    int port = freePort();
    String url = "http://127.0.0.1:" + port + "/metrics";
    Process prometheus = null;
    int prometheusPort = 0;
    if (Files.isExecutable(PROMETHEUS)) {
      prometheusPort = freePort();
      prometheus = startPrometheus("127.0.0.1:" + port, prometheusPort);
    }
    try {
      List<String> scrapes = new ArrayList<>();
      // Scrapes while the run runs, until a scrape shows its run phase ended.
      Thread scraper = new Thread(() -> {
        try {
          while (!Thread.currentThread().isInterrupted()) {
            String text = Scrapes.scrape(url);
            if (text != null) {
              synchronized (scrapes) {
                scrapes.add(text);
              }
              if (Scrapes.parse(text).stream().anyMatch(x -> x.name().equals("ybbench_phase_active")
                  && x.has(Map.of("phase", "run")) && x.value() == 0)) {
                return;
              }
            }
            Thread.sleep(300);
          }
        } catch (InterruptedException e) {
          // the run is over
        }
      });
      scraper.start();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
      int rc = cmd.execute(new String[] {"workloada", "--records", "500", "--threads", "2", "--duration", "6",
          "--target", "400", "--label", "watched", "--prometheus-port", Integer.toString(port), "--results-dir",
          results.toString()}, System.err);
      long endedMillis = System.currentTimeMillis();
      scraper.interrupt();
      scraper.join();
      String printed = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, rc, printed);
      assertTrue(printed.contains("Prometheus: serving /metrics on port " + port), printed);
      assertTrue(Scrapes.scrape(url) == null, "the endpoint is closed once the run has ended");
      JsonNode run = JSON.readTree(cmd.runDirectory().resolve("summary.json").toFile()).at("/phases/run");
      String runId = cmd.runDirectory().getFileName().toString();

      // Counts rise while the run phase runs; the scrape after it ended has summary.json's counts exactly.
      List<Double> reads = new ArrayList<>();
      List<Scrapes.Sample> ended = null;
      Map<String, String> labels = Map.of("phase", "run", "run_id", runId, "label", "watched", "bench", "ycsb",
          "workload", "workloada");
      synchronized (scrapes) {
        for (String text : scrapes) {
          List<Scrapes.Sample> s = Scrapes.parse(text);
          double active = Scrapes.sum(s, "ybbench_phase_active", Map.of("phase", "run"));
          if (active == 1) {
            reads.add(Scrapes.sum(s, "ybbench_operations_total", with(with(labels, "operation", "READ"), "outcome",
                "success")));
            assertEquals(400, Scrapes.sum(s, "ybbench_target_ops_per_second", Map.of("phase", "run")));
          } else if (s.stream().anyMatch(x -> x.name().equals("ybbench_phase_active")
              && x.has(Map.of("phase", "run")))) {
            ended = s;
          }
        }
      }
      assertTrue(reads.stream().distinct().count() >= 3 && reads.equals(reads.stream().sorted().toList()),
          "the READ count did not rise across scrapes: " + reads);
      assertTrue(ended != null, "no scrape after the run phase ended");
      for (String op : List.of("READ", "UPDATE")) {
        Map<String, String> opLabels = with(labels, "operation", op);
        for (String outcome : List.of("success", "error", "abort")) {
          String field = outcome.equals("success") ? "successes" : outcome + "s";
          assertEquals(run.at("/operations/" + op + "/" + field).asLong(),
              (long) Scrapes.sum(ended, "ybbench_operations_total", with(opLabels, "outcome", outcome)), op + outcome);
        }
        assertEquals(run.at("/operations/" + op + "/retries").asLong(),
            (long) Scrapes.sum(ended, "ybbench_retries_total", opLabels), op + " retries");
        assertEquals(run.at("/operations/" + op + "/successes").asLong(),
            (long) Scrapes.sum(ended, "ybbench_latency_seconds_count", opLabels), op + ": the histogram's count");
      }

      Path promtool = Path.of("/usr/bin/promtool"); // Prometheus's own linter, in the same package
      if (Files.isExecutable(promtool)) {
        Process check = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
        synchronized (scrapes) {
          check.getOutputStream().write(scrapes.get(scrapes.size() - 1).getBytes(StandardCharsets.UTF_8));
        }
        check.getOutputStream().close();
        String verdict = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, check.waitFor(), "promtool check metrics: " + verdict);
      }
      Tools.require(prometheus != null, "prometheus (the real Prometheus's part of this test)",
          "apt-get install prometheus");
      // Every query is evaluated at Prometheus's last successful scrape (the one the run waited
      // for once its results were written): after it the endpoint closed and the series ended.
      JsonNode ups = query("http://127.0.0.1:" + prometheusPort + "/api/v1/query?time=" + (endedMillis / 1000.0 + 5)
          + "&query=", "up[2m]").at("/0/values");
      double at = 0;
      for (JsonNode sample : ups) {
        if (sample.get(1).asText().equals("1")) {
          at = sample.get(0).asDouble();
        }
      }
      assertTrue(at > 0, "Prometheus never scraped the client: " + ups);
      String api = "http://127.0.0.1:" + prometheusPort + "/api/v1/query?time=" + at + "&query=";
      for (String q : dashboardQueries()) {
        if (!q.contains("ybbench_") || q.contains("ybbench_headline")) {
          continue; // YugabyteDB's own metrics (no tserver here); tpmC is TPC-C's (TpccPrometheusIT)
        }
        String promql = q.replace("$fleet", ".*").replace("$__rate_interval", "5s");
        JsonNode r = query(api, promql);
        assertFalse(r.isEmpty(), "no data for the dashboard's query " + promql);
      }
      // Prometheus's last sample of each counter is summary.json's, or of a moment before it (on a
      // busy machine a scrape may time out while the test's own scrape is the last); increase()
      // over the run is within a couple of scrape intervals' worth of it.
      double perSecond = run.at("/operations/READ/throughput_ops").asDouble();
      for (String op : List.of("READ", "UPDATE")) {
        String series = "{phase=\"run\",operation=\"" + op + "\",run_id=\"" + runId + "\"";
        long successes = run.at("/operations/" + op + "/successes").asLong();
        long last = query(api, "sum(ybbench_operations_total" + series + ",outcome=\"success\"})").at("/0/value/1")
            .asLong();
        assertTrue(last <= successes && last >= successes - perSecond * 2 - 5, op + ": Prometheus's last " + last
            + ", summary.json " + successes);
      }
      long reads1 = run.at("/operations/READ/successes").asLong();
      String readSeries = "ybbench_operations_total{phase=\"run\",operation=\"READ\",outcome=\"success\"}";
      double increase = query(api, "sum(increase(" + readSeries + "[1m]))").at("/0/value/1").asDouble();
      assertEquals(reads1, increase, perSecond * 2.5 + 5, "increase() over the run against summary.json; samples: "
          + query(api, readSeries + "[1m]"));
    } finally {
      if (prometheus != null) {
        prometheus.destroy();
        prometheus.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** The expressions of every panel of the dashboard the project ships. */
  static List<String> dashboardQueries() throws IOException {
    JsonNode dashboard = JSON.readTree(RunYcsbTest.HOME.resolve("deploy/grafana/ybbench.json").toFile());
    List<String> queries = new ArrayList<>();
    for (JsonNode panel : dashboard.get("panels")) {
      for (JsonNode target : panel.path("targets")) {
        queries.add(target.get("expr").asText());
      }
    }
    assertFalse(queries.isEmpty());
    return queries;
  }

  private Process startPrometheus(String target, int port) throws Exception {
    Path config = tsdb.resolve("prometheus.yml");
    Files.writeString(config, "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n"
        + "  - job_name: ybbench\n    static_configs:\n      - targets: ['" + target + "']\n");
    Process p = new ProcessBuilder(PROMETHEUS.toString(), "--config.file=" + config,
        "--storage.tsdb.path=" + tsdb.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
        .redirectErrorStream(true).redirectOutput(tsdb.resolve("prometheus.log").toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Scrapes.ready("http://127.0.0.1:" + port + "/-/ready")) {
      assertTrue(p.isAlive() && System.nanoTime() < deadline,
          "Prometheus did not start: " + Files.readString(tsdb.resolve("prometheus.log")));
      Thread.sleep(200);
    }
    // Its scrape loop starts with its first target discovery, seconds after it is ready: wait for
    // a first scrape (of nothing yet: up is 0), so that it scrapes the run from its start.
    String api = "http://127.0.0.1:" + port + "/api/v1/query?query=up";
    while (JSON.readTree(Scrapes.scrape(api)).at("/data/result").isEmpty()) {
      assertTrue(System.nanoTime() < deadline, "Prometheus never scraped " + target);
      Thread.sleep(200);
    }
    return p;
  }

  /** An instant query's result vector. */
  private static JsonNode query(String api, String promql) throws Exception {
    String body = Scrapes.scrape(api + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    assertTrue(body != null, "Prometheus refused " + promql);
    JsonNode r = JSON.readTree(body);
    assertEquals("success", r.get("status").asText(), body);
    return r.at("/data/result");
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static Map<String, String> with(Map<String, String> labels, String name, String value) {
    Map<String, String> m = new java.util.HashMap<>(labels);
    m.put(name, value);
    return m;
  }
}
