package dev.ybbench.harness.server;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.ybbench.harness.results.RunDirectory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * YugabyteDB's view of a run, from each node's Prometheus endpoints: the tserver's
 * ({@code :9000/prometheus-metrics}) Read and Write RPCs with their handler latency — the "Read
 * ops/sec" and "Write ops/sec" of a node as YugabyteDB's own UI and published results show them
 * — and its process CPU; and the statements the API's server executed (YSQL {@code :13000},
 * YCQL {@code :12000}), summed over the nodes: the statement families of its Prometheus
 * endpoint, and each normalized statement of its {@code /statements} ({@link StatementsJson}:
 * every node keeps its own, so the cluster's are their sum, which no one SQL connection sees;
 * YCQL has no other per-statement view). Only server-level series are read
 * ({@code metric_type="server"}, no quantile). Histograms are read with
 * {@code reset_histograms=false} so that the harness does not reset the percentiles another
 * scraper (Prometheus, YugabyteDB Anywhere) sees. A node whose endpoint cannot be reached is left
 * out with a one-line note; with none reachable the view is not available.
 *
 * <p>The CPU is the tserver process's ({@code cpu_utime + cpu_stime}); YSQL's PostgreSQL
 * backends are processes of their own and not in it.
 */
public final class YugabyteView implements ServerView {
  public static final int TSERVER_PORT = 9000;
  public static final int YSQL_PORT = 13000;
  public static final int YCQL_PORT = 12000;
  static final String PATH = "/prometheus-metrics?reset_histograms=false&show_help=false";
  /** The API server's statements as JSON (YSQL :13000, YCQL :12000). */
  static final String STATEMENTS_PATH = "/statements";
  private static final String RPC = "handler_latency_yb_tserver_TabletServerService_";
  /** The statement families kept as counters, summed over the nodes. */
  private static final List<String> STATEMENT_FAMILIES = List.of("handler_latency_yb_ysqlserver_SQLProcessor_",
      "handler_latency_yb_cqlserver_SQLProcessor_");
  private static final int MAX_NOTES = 5;

  private final List<String> hosts;
  private final List<Integer> ports;
  private final Consumer<String> log;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final Set<String> noted = new HashSet<>();
  /** The YSQL endpoint whose statements' plans are recorded; null for YCQL. */
  private final YsqlEndpoint ysql;
  /** The benchmark database's oid, whose YSQL statements are kept; null for YCQL or when it could not be had. */
  private Long dbid;
  /** Whether the oid was asked for: once a run, not once a reading when the endpoint does not answer. */
  private boolean dbidAsked;
  /** The reader of a node's pg_stat_statements over SQL, for its work counters; null until first read. */
  private StatStatements workReader;
  /** The last reading's statement ids (pg_stat_statements' queryid) to their texts, every node's. */
  private Map<Long, String> ids = Map.of();

  /**
   * @param hosts the nodes' host names or addresses
   * @param ports the endpoints' ports on every node; the first is the tserver's
   */
  public YugabyteView(List<String> hosts, List<Integer> ports, Consumer<String> log) {
    this(hosts, ports, log, null);
  }

  private YugabyteView(List<String> hosts, List<Integer> ports, Consumer<String> log, YsqlEndpoint ysql) {
    this.hosts = List.copyOf(new LinkedHashSet<>(hosts));
    this.ports = List.copyOf(ports);
    this.log = log;
    this.ysql = ysql;
  }

  @Override
  public ServerView withPlans(YsqlEndpoint endpoint) {
    return new YugabyteView(hosts, ports, log, endpoint);
  }

  /**
   * YSQL keeps pg_stat_statements per node, so the statements to explain are those the node a
   * connection lands on has seen in the benchmark's database (every node runs the same texts).
   */
  @Override
  public StatementPlans.Explained plans(Map<String, StatementCount> phaseStatements) {
    if (ysql == null) {
      return null;
    }
    try {
      return StatementPlans.explain(ysql, phaseStatements.isEmpty() ? StatementPlans.nodeStatements(ysql) : phaseStatements.keySet(),
          log);
    } catch (SQLException e) {
      String why = "the statements' plans could not be read (" + ErrorText.firstLine(e) + ")";
      log.accept("note: " + why);
      return StatementPlans.Explained.none(why);
    }
  }

  /**
   * YSQL's Active Session History on every node ({@link AshSampler}); the node samples at its own
   * interval, so {@code intervalMillis} only says that a profile is wanted. None for YCQL.
   */
  @Override
  public WaitSampler waits(long intervalMillis) {
    return ysql == null ? null : new AshSampler(ysql, this::statementOf);
  }

  synchronized String statementOf(long queryId) {
    return ids.get(queryId);
  }

  /**
   * What a run against {@code target} will read over HTTP, for its plan: on YugabyteDB, each
   * node's metrics ports ({@code metricsPorts}, null for the API's default) and its API server's
   * statements; an embedded server is read over its own connection.
   */
  public static List<String> planned(ServerTarget target, List<Integer> metricsPorts) {
    boolean ycql = target.api() == ServerTarget.Api.YCQL;
    if (target.embedded()) {
      return List.of("none: the embedded " + (ycql ? "Cassandra's virtual tables, over CQL"
          : "PostgreSQL's statistics views, over SQL"));
    }
    List<Integer> ports = metricsPorts != null ? metricsPorts : List.of(TSERVER_PORT, ycql ? YCQL_PORT : YSQL_PORT);
    if (ports.isEmpty()) {
      return List.of("none (--metrics-ports none)");
    }
    String nodes = target.hosts().hosts().stream().map(HostList.HostPort::host).distinct()
        .collect(Collectors.joining(", "));
    List<String> out = new ArrayList<>();
    out.add("on YugabyteDB, each node's (" + nodes + ") " + ports.stream().map(p -> ":" + p)
        .collect(Collectors.joining(" and ")) + "/prometheus-metrics"
        + (ports.size() > 1 ? ports.subList(1, ports.size()).stream().map(p -> ":" + p)
            .collect(Collectors.joining(" and ", " and ", STATEMENTS_PATH)) : ""));
    out.add(ycql ? "on Cassandra, its virtual tables over CQL" : "on PostgreSQL, its statistics views over SQL");
    return out;
  }

  /**
   * The view of the nodes in {@code hosts} (their host names; the ports there are the API's),
   * on {@code ports}, or {@code defaultPorts} when null; none when empty.
   */
  public static ServerView of(HostList hosts, List<Integer> ports, List<Integer> defaultPorts,
      Consumer<String> log) {
    List<Integer> use = ports == null ? defaultPorts : ports;
    return use.isEmpty() ? ServerView.NONE
        : new YugabyteView(hosts.hosts().stream().map(HostList.HostPort::host).toList(), use, log);
  }

  @Override
  public String source() {
    return "YugabyteDB /prometheus-metrics on port" + (ports.size() == 1 ? " " : "s ")
        + ports.stream().map(String::valueOf).collect(Collectors.joining(", ")) + " of " + hosts.size()
        + (hosts.size() == 1 ? " node" : " nodes");
  }

  @Override
  public synchronized Snapshot snapshot(Moment moment, Runnable counting) {
    counting.run(); // every node's counters are asked for at once, from here
    Map<String, CompletableFuture<String>> bodies = new LinkedHashMap<>();
    for (String host : hosts) {
      for (int port : ports) {
        String url = "http://" + host + ":" + port + PATH;
        bodies.put(url, get(url));
      }
    }
    Map<String, CompletableFuture<String>> statementBodies = new LinkedHashMap<>();
    for (String host : hosts) {
      for (int port : ports.subList(1, ports.size())) {
        String url = "http://" + host + ":" + port + STATEMENTS_PATH;
        statementBodies.put(url, get(url));
      }
    }
    Map<String, Long> counters = new TreeMap<>();
    Map<String, NodeCounters> nodes = new LinkedHashMap<>();
    for (String host : hosts) {
      List<PrometheusText.Sample> samples = new ArrayList<>();
      for (int port : ports) {
        String url = "http://" + host + ":" + port + PATH;
        String body = body(url, bodies.get(url));
        if (body != null) {
          samples.addAll(PrometheusText.parse(body));
        }
      }
      NodeCounters node = read(samples, counters);
      if (node != null) {
        nodes.put(host + ":" + ports.get(0), node);
      }
    }
    if (nodes.isEmpty() && counters.isEmpty()) {
      return null;
    }
    Map<String, String> unavailable = new LinkedHashMap<>();
    Map<String, StatementCount> statements = statements(statementBodies, unavailable);
    if (moment != Moment.DURING && !statements.isEmpty()) {
      statements = withWork(statements, unavailable);
    }
    return new Snapshot(counters, statements, null, nodes, unavailable);
  }

  /**
   * Each YSQL node, by host, as a connection that reaches only it (the smart driver's balancing
   * off): what is kept per node (pg_stat_statements, ASH) is read from every one.
   */
  static Map<String, YsqlEndpoint> nodes(YsqlEndpoint ysql) {
    Map<String, YsqlEndpoint> out = new LinkedHashMap<>();
    for (HostList.HostPort hp : ysql.hosts().hosts()) {
      out.putIfAbsent(hp.host(), ysql.withHosts(new HostList(List.of(hp))).withLoadBalance(false));
    }
    return out;
  }

  /**
   * The statements with their work counters, read over SQL from every node's pg_stat_statements
   * (its {@code docdb_*} and retry columns, where the build has them: /statements does not serve
   * them) and summed by text; as they were, with why in {@code unavailable}, when a node cannot
   * be read: a partial sum would read as work the cluster did not do.
   */
  private Map<String, StatementCount> withWork(Map<String, StatementCount> statements,
      Map<String, String> unavailable) {
    if (ysql == null) {
      return statements;
    }
    Map<String, StatementCount> sum = new HashMap<>();
    for (Map.Entry<String, YsqlEndpoint> node : nodes(ysql).entrySet()) {
      try (Connection c = node.getValue().connect(true); Statement st = c.createStatement()) {
        if (workReader == null) {
          workReader = StatStatements.of(StatStatements.columns(st));
        }
        workReader.read(st, new HashMap<>()).forEach((q, count) -> sum.merge(q, count, StatementCount::plus));
      } catch (SQLException | IllegalArgumentException e) {
        String why = "node " + node.getKey() + "'s pg_stat_statements could not be read over SQL ("
            + ErrorText.firstLine(e) + "), so the statements' work per call is not recorded";
        unavailable.put(WORK, why);
        if (noted.add(WORK)) {
          log.accept("note: " + why);
        }
        return statements;
      }
    }
    Map<String, StatementCount> out = new TreeMap<>();
    statements.forEach((q, c) -> {
      Map<String, Double> work = sum.containsKey(q) ? sum.get(q).work() : null;
      out.put(q, new StatementCount(c.calls(), c.rows(), c.timeMs(), c.blksHit(), c.blksRead(),
          work == null ? Map.of() : work, c.latencyHistogram()));
    });
    return out;
  }

  private CompletableFuture<String> get(String url) {
    return http.sendAsync(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString()).thenApply(r -> {
          if (r.statusCode() != 200) {
            throw new IllegalStateException("HTTP " + r.statusCode());
          }
          return r.body();
        });
  }

  /**
   * Every node's statements added up, or none (with why in {@code unavailable}) unless every
   * node answered: one node's missing would read as statements the cluster did not run.
   */
  private Map<String, StatementCount> statements(Map<String, CompletableFuture<String>> bodies,
      Map<String, String> unavailable) {
    if (bodies.isEmpty()) {
      unavailable.put(STATEMENTS, "no API server port among the metrics ports " + ports + " to read /statements from");
      return Map.of();
    }
    Map<String, StatementCount> sum = new TreeMap<>();
    Map<Long, String> named = new HashMap<>();
    boolean rows = true;
    for (Map.Entry<String, CompletableFuture<String>> e : bodies.entrySet()) {
      try {
        StatementsJson.NodeStatements node = StatementsJson.parse(RunDirectory.JSON.readTree(e.getValue().join()),
            dbid());
        node.statements().forEach((q, c) -> sum.merge(q, c, StatementCount::plus));
        named.putAll(node.ids());
        rows &= node.countsRows();
      } catch (RuntimeException | JsonProcessingException ex) {
        Throwable cause = ex instanceof CompletionException && ex.getCause() != null ? ex.getCause() : ex;
        String why = e.getKey() + " could not be read (" + ErrorText.firstLine(cause) + ")";
        unavailable.put(STATEMENTS, why);
        if (noted.add(STATEMENTS)) {
          log.accept("note: " + why + ", so statements are not recorded and not audited");
        }
        return Map.of();
      }
    }
    ids = named;
    if (!rows) {
      unavailable.put(AUDIT, "YCQL's /statements counts a statement's calls, not the rows it wrote, so the "
          + "audit is not made from it");
    }
    return sum;
  }

  /** The benchmark database's oid, asked once of the YSQL endpoint; null for YCQL or when it cannot be had. */
  private Long dbid() {
    if (!dbidAsked && ysql != null) {
      dbidAsked = true;
      try (Connection c = ysql.connect(true); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT oid FROM pg_database WHERE datname = current_database()")) {
        dbid = rs.next() ? rs.getLong(1) : null;
      } catch (SQLException e) {
        // Every database's statements, then: the benchmark's own are among them.
      }
    }
    return dbid;
  }

  private String body(String url, CompletableFuture<String> f) {
    try {
      return f.join();
    } catch (RuntimeException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      if (noted.add(url) && noted.size() <= MAX_NOTES) {
        log.accept("note: no server metrics from " + url.substring(0, url.indexOf('?')) + " ("
            + ErrorText.firstLine(cause) + "); --metrics-ports sets the ports, none skips them"
            + (noted.size() == MAX_NOTES ? " (further such notes are left out)" : ""));
      }
      return null;
    }
  }

  /**
   * One node's server-level series: its tserver's Read and Write RPCs and CPU as its counters
   * (null without a tserver endpoint), and every statement family added into {@code sums}.
   */
  static NodeCounters read(List<PrometheusText.Sample> samples, Map<String, Long> sums) {
    Map<String, Double> tserver = new LinkedHashMap<>();
    for (PrometheusText.Sample s : samples) {
      if (!"server".equals(s.label("metric_type")) || s.label("quantile") != null) {
        continue;
      }
      String id = s.label("metric_id");
      if ("yb.tabletserver".equals(id) && (s.name().startsWith(RPC + "Read_") || s.name().startsWith(RPC + "Write_")
          || s.name().equals("cpu_utime") || s.name().equals("cpu_stime"))) {
        tserver.put(s.name(), s.value());
        sums.merge(s.name(), (long) s.value(), Long::sum);
      } else if (STATEMENT_FAMILIES.stream().anyMatch(s.name()::startsWith)
          && (s.name().endsWith("_count") || s.name().endsWith("_sum"))) {
        sums.merge(s.name(), (long) s.value(), Long::sum);
      }
    }
    Double reads = tserver.get(RPC + "Read_count");
    Double writes = tserver.get(RPC + "Write_count");
    if (reads == null && writes == null) {
      return null;
    }
    Double utime = tserver.get("cpu_utime");
    Double stime = tserver.get("cpu_stime");
    return new NodeCounters(reads == null ? 0 : reads.longValue(), writes == null ? 0 : writes.longValue(),
        tserver.get(RPC + "Read_sum"), tserver.get(RPC + "Write_sum"), null, null,
        utime == null || stime == null ? null : (long) ((utime + stime) * 1_000_000)); // ms → ns
  }
}
