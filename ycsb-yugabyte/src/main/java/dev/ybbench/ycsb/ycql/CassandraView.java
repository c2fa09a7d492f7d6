package dev.ybbench.ycsb.ycql;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.server.ProcessCpu;
import dev.ybbench.harness.server.ServerView;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Cassandra's view of the benchmark's table, node by node, from its virtual tables (Cassandra
 * 4.0 and later): each node's {@code system_views.coordinator_read_latency},
 * {@code coordinator_scan_latency} and {@code coordinator_write_latency} — the requests it
 * coordinated for the table, and the p99 of their recent latency (Cassandra keeps decaying
 * percentiles, not sums, and these to the millisecond). Virtual tables are local to a node, so each query is sent to one node.
 * The requests of all nodes together are what the audit counts: a client request is coordinated
 * by exactly one node, however many replicas it touches.
 */
final class CassandraView implements ServerView, AutoCloseable {
  private static final String QUERY = "SELECT count, p99th_ms FROM system_views.%s "
      + "WHERE keyspace_name = ? AND table_name = ?";

  private final YcqlConfig config;
  /** Each node's pid by its address, for an embedded cluster; empty otherwise. */
  private final Map<String, Long> pids;
  private final Consumer<String> log;
  private CqlSession session;
  private boolean unavailable;
  private final Set<String> noted = new HashSet<>();

  CassandraView(YcqlConfig config, Map<String, Long> pids, Consumer<String> log) {
    this.config = config;
    this.pids = pids;
    this.log = log;
  }

  @Override
  public String source() {
    return "system_views.coordinator_*_latency on every node" + (pids.isEmpty() ? "" : " + /proc");
  }

  @Override
  public synchronized Snapshot snapshot(Moment moment, Runnable counting) {
    if (unavailable) {
      return null;
    }
    List<Node> all;
    try {
      if (session == null) {
        session = config.withPartitionMetadata(false).open();
      }
      all = new ArrayList<>(session.getMetadata().getNodes().values());
    } catch (RuntimeException e) {
      unavailable = true;
      log.accept("note: Cassandra's system_views could not be read (" + ErrorText.firstLine(e)
          + "), so the server's view is not available");
      return null;
    }
    all.sort(Comparator.comparing(CassandraView::name));
    String table = config.table().table();
    counting.run(); // the nodes' counts are read one after another from here
    Map<String, NodeCounters> nodes = new LinkedHashMap<>();
    long[] sums = new long[3];
    Long cpu = null;
    List<String> silent = new ArrayList<>();
    for (Node node : all) {
      Row read;
      Row scan;
      Row write;
      try {
        read = one(node, "coordinator_read_latency", table);
        scan = one(node, "coordinator_scan_latency", table);
        write = one(node, "coordinator_write_latency", table);
      } catch (RuntimeException e) {
        silent.add(name(node));
        if (noted.add(name(node))) {
          log.accept("note: node " + name(node) + " did not answer for its system_views (" + ErrorText.firstLine(e)
              + "); it is left out of the server's view, and the audit with it");
        }
        continue;
      }
      Long nodeCpu = cpuOf(node);
      if (nodeCpu != null) {
        cpu = cpu == null ? nodeCpu : cpu + nodeCpu;
      }
      sums[0] += count(read);
      sums[1] += count(scan);
      sums[2] += count(write);
      nodes.put(name(node), new NodeCounters(count(read) + count(scan), count(write), null, null, p99Us(read, scan),
          p99Us(write, null), nodeCpu));
    }
    if (nodes.isEmpty()) {
      return null;
    }
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("coordinator_reads", sums[0]);
    counters.put("coordinator_range_reads", sums[1]);
    counters.put("coordinator_writes", sums[2]);
    // Every request is coordinated by one node: with one silent, the requests counted are not all of them.
    Map<String, StatementCount> requests = new TreeMap<>();
    if (silent.isEmpty()) {
      String on = config.keyspace() + "." + table;
      requests.put("coordinator reads on " + on, new StatementCount(sums[0], 0, null));
      requests.put("coordinator range reads on " + on, new StatementCount(sums[1], 0, null));
      requests.put("coordinator writes on " + on, new StatementCount(sums[2], 0, null));
    }
    return new Snapshot(counters, requests, cpu, nodes);
  }

  private Row one(Node node, String view, String table) {
    return session.execute(SimpleStatement.newInstance(String.format(QUERY, view), config.keyspace(), table)
        .setNode(node)).one();
  }

  private static long count(Row r) {
    return r == null ? 0 : r.getLong("count");
  }

  /**
   * The larger of the two p99s (reads and range reads) in µs, null without rows. Despite its
   * name, {@code p99th_ms} holds the JMX timer's microseconds times 10⁻⁶ — seconds, rounded to
   * the millisecond (Cassandra 4.1 and 5.0): beside a client-side read p99 of 3.8 ms it read
   * 0.002. Hence × 10⁶, and a resolution of 1 ms.
   */
  private static Double p99Us(Row a, Row b) {
    Double v = null;
    for (Row r : new Row[] {a, b}) {
      if (r != null && r.getLong("count") > 0) {
        double us = r.getDouble("p99th_ms") * 1_000_000;
        v = v == null ? us : Math.max(v, us);
      }
    }
    return v;
  }

  private Long cpuOf(Node node) {
    Long pid = pids.get(address(node));
    return pid == null ? null : ProcessCpu.nanos(pid);
  }

  private static String address(Node node) {
    return node.getEndPoint().resolve() instanceof InetSocketAddress a ? a.getHostString() : null;
  }

  private static String name(Node node) {
    return node.getEndPoint().resolve() instanceof InetSocketAddress a ? a.getHostString() + ":" + a.getPort()
        : node.getEndPoint().toString();
  }

  @Override
  public synchronized void close() {
    if (session != null) {
      session.close();
      session = null;
    }
  }
}
