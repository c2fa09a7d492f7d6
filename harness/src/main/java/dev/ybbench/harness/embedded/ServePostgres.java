package dev.ybbench.harness.embedded;

import dev.ybbench.harness.UserError;
import java.util.concurrent.CountDownLatch;

/**
 * Keeps an embedded PostgreSQL running for scripts that drive several clients against one
 * server (the benchmark scripts): prints {@code ready <host:port> <version>}, then waits until
 * standard input closes or the process is signalled, and stops the server.
 *
 * <p>Usage: {@code java … ServePostgres [version] [max_connections]}
 */
public final class ServePostgres {
  private ServePostgres() {}

  public static void main(String[] args) throws Exception {
    String version = args.length > 0 ? args[0] : null;
    int maxConnections = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    EmbeddedPostgres pg;
    try {
      pg = EmbeddedPostgres.start(version, maxConnections, System.err::println);
    } catch (UserError e) {
      System.err.println("error: " + e.getMessage());
      System.exit(2);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      pg.close();
      stopped.countDown();
    }));
    System.out.println("ready " + pg.hostPort() + " " + pg.version());
    System.out.flush();
    while (System.in.read() != -1) {
      // wait for end of input
    }
    System.exit(0);
  }
}
