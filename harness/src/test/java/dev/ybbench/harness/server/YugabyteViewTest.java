package dev.ybbench.harness.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.ybbench.harness.results.NodeRates;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** YugabyteDB's per-node Prometheus endpoints, from samples of their format. */
class YugabyteViewTest {
  static String sample(String name) throws IOException {
    try (InputStream in = YugabyteViewTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void theParserReadsEveryNamedSeriesWhateverTheLabelOrder() throws Exception {
    List<PrometheusText.Sample> samples = PrometheusText.parse(sample("yugabyte-tserver-9000.txt"));
    // 19 sample lines; the nameless "_count{…}" is dropped.
    assertEquals(18, samples.size());
    PrometheusText.Sample writeSum = samples.stream()
        .filter(s -> s.name().equals("handler_latency_yb_tserver_TabletServerService_Write_sum")).findFirst()
        .orElseThrow();
    assertEquals(31_961_500.0, writeSum.value());
    assertEquals(Map.of("metric_type", "server", "metric_id", "yb.tabletserver", "exported_instance",
        "yb-1.local:9000"), writeSum.labels());
    assertNull(PrometheusText.line("# TYPE cpu_utime counter"));
    assertNull(PrometheusText.line("x{a=\"1\" 5"));
    assertEquals("a \"quoted\"\nname", PrometheusText.line("t{table_name=\"a \\\"quoted\\\"\\nname\"} 1 2")
        .label("table_name"));
    assertEquals(7.0, PrometheusText.line("up 7").value());
  }

  @Test
  void aNodeIsItsTserversReadAndWriteRpcsAndCpuAndTheStatementsAreSummed() throws Exception {
    List<PrometheusText.Sample> samples = new ArrayList<>(PrometheusText.parse(sample("yugabyte-tserver-9000.txt")));
    samples.addAll(PrometheusText.parse(sample("yugabyte-ysql-13000.txt")));
    Map<String, Long> sums = new TreeMap<>();
    ServerView.NodeCounters node = YugabyteView.read(samples, sums);
    assertEquals(new ServerView.NodeCounters(123_120, 25_570, 61_560_000.0, 31_961_500.0, null, null,
        (5_423_310L + 1_200_690L) * 1_000_000L), node);
    assertEquals(120_000L, sums.get("handler_latency_yb_ysqlserver_SQLProcessor_SelectStmt_count"));
    assertEquals(24_000L, sums.get("handler_latency_yb_ysqlserver_SQLProcessor_UpdateStmt_count"));
    assertEquals(123_120L, sums.get("handler_latency_yb_tserver_TabletServerService_Read_count"));
    // The per-table ql_read_latency, quantiles, other RPCs and gauges are not a node's own ops.
    assertEquals(16, sums.size(), sums.keySet().toString());
  }

  @Test
  void twoScrapesOfTwoNodesGiveEachNodesRatesAndLatency() throws Exception {
    AtomicInteger scrapes = new AtomicInteger();
    AtomicReference<String> query = new AtomicReference<>();
    String tserver = sample("yugabyte-tserver-9000.txt");
    HttpServer t = serve(exchange -> {
      query.set(exchange.getRequestURI().getQuery());
      // From the second scrape on: 1,000 more reads taking 500,000 µs more, and 2 s more CPU.
      boolean later = scrapes.incrementAndGet() > 2;
      return later ? tserver.replace("} 123120 ", "} 124120 ").replace("} 61560000 ", "} 62060000 ")
          .replace("} 5423310 ", "} 5425310 ") : tserver;
    });
    HttpServer y = serve(exchange -> sample("yugabyte-ysql-13000.txt"),
        exchange -> sample("yugabyte-ysql-13000-statements.json"));
    try {
      List<String> notes = new ArrayList<>();
      YugabyteView view = new YugabyteView(List.of("127.0.0.1", "localhost"),
          List.of(t.getAddress().getPort(), y.getAddress().getPort()), notes::add);
      ServerView.Snapshot before = view.snapshot(ServerView.Moment.PHASE_START);
      ServerView.Snapshot after = view.snapshot(ServerView.Moment.PHASE_END);
      assertEquals(List.of(), notes);
      assertEquals("reset_histograms=false&show_help=false", query.get());
      assertEquals(2, after.nodes().size());
      assertEquals(2 * 120_000L, after.counters().get("handler_latency_yb_ysqlserver_SQLProcessor_SelectStmt_count"));
      for (NodeRates r : ServerView.nodeRates(before, after, 2.0)) {
        assertEquals(500.0, r.readsPerS(), r.toString());
        assertEquals(500.0, r.readMeanUs(), r.toString());
        assertEquals(0.0, r.writesPerS(), r.toString());
        assertEquals(1.0, r.cpuCores(), r.toString());
      }
      assertTrue(view.source().contains("2 nodes"), view.source());
    } finally {
      t.stop(0);
      y.stop(0);
    }
  }

  @Test
  void endpointsThatCannotBeReachedLeaveTheViewUnavailableWithOneNoteEach() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    List<String> notes = new ArrayList<>();
    YugabyteView view = new YugabyteView(List.of("127.0.0.1"), List.of(closed), notes::add);
    assertNull(view.snapshot(ServerView.Moment.PHASE_START));
    assertNull(view.snapshot(ServerView.Moment.PHASE_START));
    assertEquals(1, notes.size(), notes.toString());
    assertTrue(notes.get(0).startsWith("note: no server metrics from http://127.0.0.1:" + closed
        + "/prometheus-metrics ("), notes.get(0));
  }

  interface Body {
    String of(com.sun.net.httpserver.HttpExchange exchange) throws IOException;
  }

  private static HttpServer serve(Body body) throws IOException {
    return serve(body, null);
  }

  /** A node's endpoint: {@code metrics} on /prometheus-metrics, {@code statements} (if any) on /statements. */
  private static HttpServer serve(Body metrics, Body statements) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/prometheus-metrics", exchange -> answer(exchange, metrics.of(exchange)));
    if (statements != null) {
      server.createContext("/statements", exchange -> answer(exchange, statements.of(exchange)));
    }
    server.start();
    return server;
  }

  private static void answer(com.sun.net.httpserver.HttpExchange exchange, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(200, b.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(b);
    }
  }

  /**
   * Each node's /statements, added up over the nodes (each keeps its own), with the server's
   * buckets: YSQL's audited, YCQL's not (it counts no rows), a disabled module named.
   */
  @Test
  void theNodesStatementsAreAddedUpAndNamedWhenTheyCannotBeRead() throws Exception {
    String ysqlStatements = sample("yugabyte-ysql-13000-statements.json");
    HttpServer t = serve(exchange -> sample("yugabyte-tserver-9000.txt"));
    HttpServer y = serve(exchange -> sample("yugabyte-ysql-13000.txt"), exchange -> ysqlStatements);
    HttpServer c = serve(exchange -> "", exchange -> sample("yugabyte-ycql-12000-statements.json"));
    HttpServer off = serve(exchange -> "", exchange -> "{\"statements\":\"PG Stat Statements module is disabled.\"}");
    try {
      List<String> notes = new ArrayList<>();
      List<Integer> ysqlPorts = List.of(t.getAddress().getPort(), y.getAddress().getPort());
      ServerView.Snapshot ysql = new YugabyteView(List.of("127.0.0.1", "localhost"), ysqlPorts, notes::add)
          .snapshot(ServerView.Moment.PHASE_END);
      ServerView.StatementCount read = ysql.statements().get("SELECT * FROM usertable WHERE ycsb_key = $1");
      assertEquals(2 * 60_000, read.calls());
      assertEquals(2 * 60_000, read.rows());
      assertEquals(2 * 21_000.5, read.timeMs());
      assertEquals(2 * 30_000, read.latencyHistogram().buckets().get(1).count());
      assertEquals(0.4, read.latencyHistogram().percentileMs(50));
      assertEquals(1.3, read.latencyHistogram().percentileMs(99));
      assertEquals(7.2, read.latencyHistogram().percentileMs(99.9));
      assertEquals(3, ysql.statements().size(), "no database's oid to tell the benchmark's: all kept");
      assertEquals(Map.of(), ysql.unavailable());
      assertEquals(List.of(), notes);

      ServerView.Snapshot ycql = new YugabyteView(List.of("127.0.0.1"), List.of(t.getAddress().getPort(),
          c.getAddress().getPort()), notes::add).snapshot(ServerView.Moment.PHASE_END);
      ServerView.StatementCount cql = ycql.statements().get("SELECT * FROM usertable WHERE y_id = ?");
      assertEquals(50_010, cql.calls(), "prepared and unprepared alike");
      assertEquals(15_005.0, cql.timeMs());
      assertNull(cql.latencyHistogram());
      assertTrue(ycql.unavailable().get(ServerView.AUDIT).startsWith("YCQL's /statements counts a statement's calls, "
          + "not the rows it wrote"), ycql.unavailable().toString());

      ServerView.Snapshot disabled = new YugabyteView(List.of("127.0.0.1"), List.of(t.getAddress().getPort(),
          off.getAddress().getPort()), notes::add).snapshot(ServerView.Moment.PHASE_END);
      assertEquals(Map.of(), disabled.statements());
      String why = disabled.unavailable().get(ServerView.STATEMENTS);
      assertTrue(why.endsWith("/statements could not be read (PG Stat Statements module is disabled)"), why);
      assertEquals(1, notes.size(), notes.toString());
    } finally {
      t.stop(0);
      y.stop(0);
      c.stop(0);
      off.stop(0);
    }
  }
}
