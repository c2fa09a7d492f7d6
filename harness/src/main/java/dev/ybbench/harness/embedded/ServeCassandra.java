package dev.ybbench.harness.embedded;

import dev.ybbench.harness.UserError;

/**
 * Keeps an embedded Cassandra cluster running for scripts: prints
 * {@code ready <host:port,…> <version>}, waits until standard input closes or the process is
 * signalled, and stops the cluster.
 *
 * <p>Usage: {@code java … ServeCassandra [version] [nodes]}
 */
public final class ServeCassandra {
  private ServeCassandra() {}

  public static void main(String[] args) throws Exception {
    EmbeddedCassandra c;
    try {
      c = EmbeddedCassandra.start(args.length > 0 ? args[0] : null, args.length > 1 ? Integer.parseInt(args[1]) : 1,
          System.err::println);
    } catch (UserError e) {
      System.err.println("error: " + e.getMessage());
      System.exit(2);
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(c::close));
    System.out.println("ready " + c.hostList() + " " + c.version());
    System.out.flush();
    while (System.in.read() != -1) {
      // wait for end of input
    }
    System.exit(0);
  }
}
