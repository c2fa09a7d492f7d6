package dev.ybbench.tpcc.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationMetrics;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.core.TpccRandom;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** A terminal whose server is down: a port nothing listens on, so every connect is refused. */
class TerminalTest {
  @Test
  void aRefusingServerSeesAFewAttemptsASecondAndStopEndsTheWaitAtOnce() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/tpcc?connectTimeout=2";
    AtomicInteger connects = new AtomicInteger();
    Supplier<Connection> connections = () -> {
      connects.incrementAndGet();
      try {
        return DriverManager.getConnection(url, "postgres", "");
      } catch (SQLException e) {
        throw new RuntimeException(e);
      }
    };
    TpccConfig config = TpccConfig.read(Path.of("config", "tiny.xml"));
    Metrics metrics = new Metrics();
    Terminals terminal = new Terminals(List.of(new Terminal(1, 1,
        new TpccRandom(1, TpccRandom.Constants.forLoad(new Random(1))))), connections, config, config.works().get(0), 1,
        new Terminals.Setup(1, false, 10), metrics);
    terminal.start();
    Thread.sleep(1600);
    terminal.stop();
    long stopped = System.nanoTime();
    boolean ended = terminal.join(5000);
    long stopMillis = (System.nanoTime() - stopped) / 1_000_000;

    assertTrue(ended);
    assertTrue(stopMillis < 500, "the terminal took " + stopMillis + " ms to stop");
    // Pauses of 100, 200, 400, 800 ms, each drawn from half to all of that: 4 to 6 attempts.
    assertTrue(connects.get() >= 4 && connects.get() <= 6, connects.get() + " connection attempts");
    long connectionErrors = metrics.operations().stream()
        .mapToLong(o -> o.errors().getOrDefault("connection", 0L)).sum();
    assertEquals(connects.get(), connectionErrors);
    assertEquals(0, metrics.successes());
    assertEquals(0, metrics.retries(), "a refused connection is not retried within a transaction");
    assertEquals(1, metrics.outages().intervals(System.nanoTime()).size());
    assertEquals(connectionErrors, metrics.operations().stream().mapToLong(OperationMetrics::errorCount).sum());
  }
}
