package dev.ybbench.harness.embedded;

import java.lang.module.ModuleDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one embedded Cassandra node is started with: its cassandra.yaml (every directory under the
 * node's own, small memtables, no auth), a quiet logback.xml, and the JDK opens its JVM needs.
 */
final class CassandraNodeFiles {
  private CassandraNodeFiles() {}

  /** {@code d}: the node's directory; {@code seed}: the first node's address. */
  static String yaml(Path d, String address, String seed, int storagePort, int nativePort) {
    return String.join("\n",
        "# Written by ybbench for one embedded node; every path is under this node's directory.",
        "cluster_name: ybbench",
        "num_tokens: 16",
        "allocate_tokens_for_local_replication_factor: 3",
        "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
        "data_file_directories:",
        "  - " + d.resolve("data"),
        "commitlog_directory: " + d.resolve("commitlog"),
        "saved_caches_directory: " + d.resolve("saved_caches"),
        "hints_directory: " + d.resolve("hints"),
        "cdc_raw_directory: " + d.resolve("cdc_raw"),
        "commitlog_sync: periodic",
        "commitlog_sync_period: 10000ms",
        "commitlog_segment_size: 8MiB",
        "memtable_heap_space: 128MiB",
        "memtable_offheap_space: 128MiB",
        "seed_provider:",
        "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
        "    parameters:",
        "      - seeds: \"" + seed + ":" + storagePort + "\"",
        "listen_address: " + address,
        "rpc_address: " + address,
        "storage_port: " + storagePort,
        "native_transport_port: " + nativePort,
        "start_native_transport: true",
        "endpoint_snitch: SimpleSnitch",
        "authenticator: AllowAllAuthenticator",
        "authorizer: AllowAllAuthorizer",
        // Dropping a table between runs should not copy it first.
        "auto_snapshot: false",
        // A LOGGED batch above 5 KiB draws a warning on every request, which the driver prints each time: the
        // YCQL key-value page's batches (25 rows of 256 bytes, ~8 KiB) would flood the console. Warn only
        // where Cassandra refuses a batch (batch_size_fail_threshold, 50 KiB by default).
        "batch_size_warn_threshold: 50KiB",
        "");
  }

  static final String LOGBACK = """
      <configuration>
        <appender name="STDOUT" class="ch.qos.logback.core.ConsoleAppender">
          <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{0} %msg%n</pattern></encoder>
        </appender>
        <!-- Quiet, but keep the gossip lines that say when peers come and go. -->
        <logger name="org.apache.cassandra.gms.Gossiper" level="INFO"/>
        <logger name="org.apache.cassandra.service.StorageService" level="INFO"/>
        <root level="WARN"><appender-ref ref="STDOUT"/></root>
      </configuration>
      """;

  /**
   * Cassandra reaches into JDK internals (its own jvm17-server.options lists the opens), and 4.1,
   * which predates JDK 17, reaches into more of them at query time. Every package of the modules
   * it touches is opened, which covers both release lines.
   */
  static List<String> jdkOpens() {
    Set<String> modules = Set.of("java.base", "java.management", "java.management.rmi", "java.rmi", "java.sql",
        "jdk.management", "jdk.unsupported", "java.desktop");
    List<String> flags = new ArrayList<>();
    for (Module m : ModuleLayer.boot().modules()) {
      if (!modules.contains(m.getName())) {
        continue;
      }
      ModuleDescriptor d = m.getDescriptor();
      for (String pkg : new TreeSet<>(d.packages())) {
        flags.add("--add-exports=" + m.getName() + "/" + pkg + "=ALL-UNNAMED");
        flags.add("--add-opens=" + m.getName() + "/" + pkg + "=ALL-UNNAMED");
      }
    }
    return flags;
  }
}
