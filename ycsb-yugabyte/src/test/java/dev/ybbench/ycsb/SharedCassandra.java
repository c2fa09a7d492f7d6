package dev.ybbench.ycsb;

import dev.ybbench.harness.embedded.EmbeddedCassandra;

/**
 * One single-node Cassandra (the default version) for every test class in a test JVM that only
 * needs a server to talk to: started by the first that asks, stopped when the JVM exits. A start
 * costs 10-20 s of both cores; a class that needs another version, several nodes or a node to
 * stop starts its own. Users of it must not close it, and each uses its own keyspace or
 * recreates its table, so the classes before it leave nothing it reads.
 */
public final class SharedCassandra {
  private static EmbeddedCassandra node;

  private SharedCassandra() {}

  public static synchronized EmbeddedCassandra node() {
    if (node == null) {
      EmbeddedCassandra started = EmbeddedCassandra.start(null, 1, System.out::println);
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "stop-shared-cassandra"));
      node = started;
    }
    return node;
  }
}
