package dev.ybbench.harness.embedded;

import dev.ybbench.harness.FileTrees;
import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A real Apache Cassandra cluster of one or more nodes, each its own JVM running
 * {@code CassandraDaemon} from {@code org.apache.cassandra:cassandra-all} on Maven Central, for
 * the YCQL path when no hosts are given (YCQL speaks CQL). Node i listens on 127.0.0.i, all on
 * the same two free ports, so several nodes share one machine without a port plan.
 *
 * <p>Layout under {@code <tmp>/ybbench-<uid>/instances/cassandra-<port>/}: its owner ({@link
 * Instances}: a cluster left by a killed run is stopped on the next start), and per node {@code
 * node<i>/} with its cassandra.yaml, data, log and pid file.
 */
public final class EmbeddedCassandra implements AutoCloseable {
  private static final String DAEMON = "org.apache.cassandra.service.CassandraDaemon";
  /** Per node; Cassandra idles at ~600 MB RSS with it (measured). No -Xms: as root Cassandra locks its heap. */
  private static final String HEAP = "-Xmx1G";
  private static final long START_TIMEOUT_S = 180;
  /**
   * How long a joining node waits for gossip (Cassandra's default is 30 s); short, as the nodes
   * share one machine. The retry of a node that gave up waits longer.
   */
  private static final int RING_DELAY_MS = 1000;
  private static final int RETRY_RING_DELAY_MS = 10_000;
  /** The system property naming extra JVM options for every node. */
  private static final String JVM_OPTIONS = "ybbench.cassandra.jvm-options";

  private final String version;
  private final int storagePort;
  private final int nativePort;
  private final Path clusterDir;
  private final String extraYaml;
  /** Node number → its process. */
  private final Map<Integer, Process> processes = new ConcurrentSkipListMap<>();
  private final Consumer<String> log;
  private boolean closed;

  private EmbeddedCassandra(String version, int storagePort, int nativePort, Path clusterDir, String extraYaml,
      Consumer<String> log) {
    this.version = version;
    this.storagePort = storagePort;
    this.nativePort = nativePort;
    this.clusterDir = clusterDir;
    this.extraYaml = extraYaml;
    this.log = log;
  }

  /**
   * Refuses a cluster this machine cannot hold: at most 9 nodes (127.0.0.1 … 127.0.0.9), and
   * each node's 1 GB heap plus ~0.6 GB beside it must fit in the machine's memory with room left
   * for the client.
   */
  public static void checkNodes(int nodes) {
    long memoryMb = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getTotalMemorySize() >> 20;
    int fits = (int) Math.max(1, Math.min(9, (memoryMb - 2048) / 1700));
    if (nodes < 1 || nodes > fits) {
      throw new UserError("--nodes must be between 1 and " + fits + " for the embedded Cassandra on this machine ("
          + (memoryMb >> 10) + " GB of memory, ~1.7 GB a node), was " + nodes);
    }
  }

  /**
   * Starts a cluster and returns once every node answers CQL and sees the others as up.
   *
   * @param requestedVersion "5.0", "4.1", an exact release, or null for the default
   * @param nodes            1 or more nodes on 127.0.0.1 … 127.0.0.n
   */
  public static EmbeddedCassandra start(String requestedVersion, int nodes, Consumer<String> log) {
    return start(requestedVersion, nodes, "", log);
  }

  /**
   * As {@link #start(String, int, Consumer)}, with {@code yaml} appended to every node's
   * cassandra.yaml (the server as a test needs it: e.g. client_encryption_options for TLS).
   */
  public static EmbeddedCassandra start(String requestedVersion, int nodes, String yaml, Consumer<String> log) {
    checkNodes(nodes);
    int javaMajor = Runtime.version().feature();
    if (javaMajor < 17 || javaMajor > 23) {
      throw new UserError("The embedded Cassandra runs on JDK 17 to 23 (it needs the SecurityManager), but this is JDK "
          + javaMajor + "; set JAVA_HOME to a JDK 17");
    }
    String version = CassandraVersions.resolve(requestedVersion);
    List<Path> classpath = MavenClasspath.resolve(CassandraVersions.artifact(version), "Cassandra " + version);
    Path base = Instances.root();
    EmbeddedCassandra cluster;
    try {
      Files.createDirectories(base);
      stopAbandoned(log);
      int storagePort = freePort(nodes);
      int nativePort = freePort(nodes);
      Path dir = base.resolve("cassandra-" + nativePort);
      FileTrees.delete(dir);
      Files.createDirectories(dir);
      Instances.claim(dir);
      cluster = new EmbeddedCassandra(version, storagePort, nativePort, dir, yaml, log);
    } catch (IOException e) {
      throw new UserError("Cannot prepare the embedded Cassandra under " + base + ": " + e.getMessage());
    }
    try {
      for (int i = 1; i <= nodes; i++) {
        // One at a time: nodes that join together may agree on their tokens yet not on who is up
        // (seen: a node killed later took a live peer's replicas down with it, for QUORUM).
        cluster.startAndAwait(i, classpath);
      }
      cluster.awaitAllUp(nodes);
      return cluster;
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  public String version() {
    return version;
  }

  public int nodes() {
    return processes.size();
  }

  public static String address(int node) {
    return "127.0.0." + node;
  }

  /** "127.0.0.1:port,127.0.0.2:port,…", the form --hosts takes. */
  public String hostList() {
    return IntStream.rangeClosed(1, nodes()).mapToObj(i -> address(i) + ":" + nativePort)
        .collect(Collectors.joining(","));
  }

  public int nativePort() {
    return nativePort;
  }

  /** The process id of node {@code node} (1-based), for its CPU time. */
  public long pid(int node) {
    return processes.get(node).pid();
  }

  public boolean isRunning(int node) {
    return processes.get(node).isAlive();
  }

  /**
   * Stops one node: {@code kill} sends SIGKILL (a crash), otherwise SIGTERM (Cassandra drains and
   * stops). Returns once the process is gone.
   */
  public void stopNode(int node, boolean kill) {
    Process p = processes.get(node);
    if (kill) {
      p.destroyForcibly();
    } else {
      p.destroy();
    }
    awaitExit(p);
  }

  /** Waits for a node to stop (a minute, as Cassandra drains), then kills it. */
  private static void awaitExit(Process p) {
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Stops every node and deletes the cluster's data. Idempotent. The nodes are killed, not
   * drained: their data is deleted next, and a drain costs ~5 s a node (and a Ctrl-C that long).
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    processes.values().forEach(Process::destroyForcibly);
    processes.values().forEach(EmbeddedCassandra::awaitExit);
    FileTrees.delete(clusterDir);
  }

  private Path nodeDir(int node) {
    return clusterDir.resolve("node" + node);
  }

  private void startNode(int node, List<Path> classpath, int ringDelayMs) {
    Path dir = nodeDir(node);
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("cassandra.yaml"), CassandraNodeFiles.yaml(nodeDir(node), address(node),
          address(1), storagePort, nativePort) + extraYaml);
      Files.writeString(dir.resolve("logback.xml"), CassandraNodeFiles.LOGBACK);
    } catch (IOException e) {
      throw new UserError("Cannot write the configuration of Cassandra node " + node + ": " + e.getMessage());
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add(HEAP);
    cmd.add("-XX:+UseG1GC");
    cmd.addAll(extraJvmOptions());
    if (Runtime.version().feature() > 17) {
      // Cassandra installs a SecurityManager at start; JDK 18 to 23 allow that only when asked.
      cmd.add("-Djava.security.manager=allow");
    }
    cmd.add("-Djava.net.preferIPv4Stack=true");
    cmd.add("-Dcassandra.config=" + dir.resolve("cassandra.yaml").toUri());
    cmd.add("-Dcassandra.storagedir=" + dir);
    // Stay in the foreground: otherwise the daemon closes stdout and stderr.
    cmd.add("-Dcassandra-foreground=true");
    cmd.add("-Dcassandra.skip_wait_for_gossip_to_settle=0");
    cmd.add("-Dcassandra.ring_delay_ms=" + ringDelayMs);
    cmd.add("-Dcassandra.superuser_setup_delay_ms=0");
    cmd.add("-Dlogback.configurationFile=" + dir.resolve("logback.xml"));
    cmd.add("-Dybbench.cluster=" + clusterDir);
    classpath.stream().filter(p -> p.getFileName().toString().startsWith("jamm-")).findFirst()
        .ifPresent(jamm -> cmd.add("-javaagent:" + jamm));
    cmd.addAll(CassandraNodeFiles.jdkOpens());
    cmd.add("-cp");
    cmd.add(classpath.stream().map(Path::toString).collect(Collectors.joining(":")));
    cmd.add(DAEMON);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(dir.resolve("node.log").toFile());
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    try {
      Process p = pb.start();
      processes.put(node, p);
      Files.writeString(dir.resolve("pid"), Long.toString(p.pid()));
    } catch (IOException e) {
      throw new UserError("Cannot start Cassandra node " + node + ": " + e.getMessage());
    }
  }

  /**
   * Options added to every node's JVM from the system property {@value #JVM_OPTIONS} (split at
   * spaces). The tests start nodes with {@code -XX:TieredStopAtLevel=1}: a start then costs 6 CPU
   * seconds instead of 10 (measured), which matters where tests share two cores; a benchmark's
   * server keeps the JVM's defaults.
   */
  private static List<String> extraJvmOptions() {
    String options = System.getProperty(JVM_OPTIONS, "").strip();
    return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
  }

  /**
   * Starts a node and waits until it answers CQL. A node that exits while joining gets one more
   * try from an empty directory, with a longer ring delay: with the short one used first, a node
   * whose seed is slow to answer gossip (seen on a busy 2-core machine) gives up within a second,
   * "Unable to contact any seeds".
   */
  private void startAndAwait(int node, List<Path> classpath) {
    startNode(node, classpath, RING_DELAY_MS);
    try {
      awaitCql(node);
    } catch (UserError first) {
      if (processes.get(node).isAlive()) {
        throw first;
      }
      log.accept("warning: " + first.getMessage() + "; starting it once more");
      processes.remove(node);
      FileTrees.delete(nodeDir(node));
      startNode(node, classpath, RETRY_RING_DELAY_MS);
      awaitCql(node);
    }
  }

  private void awaitCql(int node) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
    while (System.nanoTime() < deadline) {
      if (!processes.get(node).isAlive()) {
        throw new UserError("Cassandra " + version + " node " + node + " exited during start: " + logTail(node));
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(address(node), nativePort), 500);
        log.accept("Cassandra " + version + " node " + node + " answers CQL on " + address(node) + ":" + nativePort);
        return;
      } catch (IOException notYet) {
        sleep(250);
      }
    }
    throw new UserError("Cassandra " + version + " node " + node + " did not answer CQL within " + START_TIMEOUT_S
        + " s: " + logTail(node));
  }

  /** Every node's log says every other node is up (gossip has converged). */
  private void awaitAllUp(int nodes) {
    if (nodes == 1) {
      return;
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
    while (System.nanoTime() < deadline) {
      boolean all = true;
      for (int i = 1; i <= nodes && all; i++) {
        String text = readLog(i);
        for (int j = 1; j <= nodes && all; j++) {
          all = i == j || text.contains("/" + address(j) + ":" + storagePort + " is now UP");
        }
      }
      if (all) {
        log.accept("Cassandra cluster of " + nodes + " nodes is up");
        return;
      }
      sleep(250);
    }
    throw new UserError("The " + nodes + " Cassandra nodes did not all see each other within " + START_TIMEOUT_S
        + " s: " + logTail(1));
  }

  private String readLog(int node) {
    try {
      return Files.readString(nodeDir(node).resolve("node.log"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  /** The first error the node logged, if any, then its last lines. */
  private String logTail(int node) {
    List<String> lines = readLog(node).lines().filter(l -> !l.isBlank()).toList();
    String firstError = lines.stream().filter(l -> l.contains(" ERROR ") || l.contains("Exception:")).findFirst()
        .map(l -> l + " | … | ").orElse("");
    return firstError + String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
  }

  /** A port free on every node address. */
  private static int freePort(int nodes) throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int port;
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(address(1)))) {
        port = s.getLocalPort();
      }
      boolean free = true;
      for (int i = 2; i <= nodes && free; i++) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName(address(i)))) {
          free = true;
        } catch (IOException e) {
          free = false;
        }
      }
      if (free) {
        return port;
      }
    }
    throw new IOException("no port is free on " + address(1) + " … " + address(nodes));
  }

  /** Stops the nodes of clusters whose owning harness process has gone (a run that was killed). */
  private static void stopAbandoned(Consumer<String> log) throws IOException {
    Instances.stopAbandoned("cassandra-*", (dir, owner) -> {
      try (DirectoryStream<Path> nodes = Files.newDirectoryStream(dir, "node*")) {
        for (Path node : nodes) {
          Optional<ProcessHandle> p = Instances.readPid(node.resolve("pid")).flatMap(ProcessHandle::of)
              .filter(h -> runsFrom(h, dir));
          if (p.isPresent()) {
            log.accept("Stopping a Cassandra node left running by an earlier run (" + node + ")");
            p.get().destroyForcibly();
            Commands.awaitGone(p.get(), java.time.Duration.ofSeconds(30)); // or stuck: the directory goes
          }
        }
      }
    });
  }

  /**
   * Whether the process's command line names {@code dir} (a reused pid does not). Read from /proc:
   * the JDK gives no arguments for a command line longer than it reads (4 KB), as a node's is with
   * its class path, and then no abandoned node was ever recognised.
   */
  private static boolean runsFrom(ProcessHandle process, Path dir) {
    try {
      return new String(Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline")),
          StandardCharsets.UTF_8).contains(dir.toString());
    } catch (IOException e) {
      return process.info().commandLine().map(c -> c.contains(dir.toString())).orElse(false);
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("Interrupted while starting Cassandra");
    }
  }
}
