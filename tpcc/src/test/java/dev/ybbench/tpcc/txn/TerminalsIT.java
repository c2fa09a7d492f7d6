package dev.ybbench.tpcc.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.tpcc.config.TpccConfig;
import dev.ybbench.tpcc.core.TpccRandom;
import dev.ybbench.tpcc.load.LoadPhase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Terminals with the spec's waits start out of step: each one's first submission at a random
 * point of one mean cycle.
 *
 * <p>Clause 2.7.2: a deferred Delivery leaves its terminal free. Another session locks warehouse
 * 1's undelivered orders, so a Delivery cannot finish; a terminal running half Deliveries and
 * half Order-Status goes on when Deliveries are deferred (hundreds of Order-Status in 2 s), and
 * is stuck behind the first Delivery when they are not.
 */
class TerminalsIT {
  @Test
  void withTheSpecsWaitsTheTerminalsStartSpreadOverOneMeanCycle() throws Exception {
    TpccConfig config = TpccConfig.read(Path.of("config", "postgres_100w_spec.xml"));
    TpccConfig.Work work = config.works().get(0);
    List<Terminal> list = new ArrayList<>();
    Random seeds = new Random(42); // seeded as ExecutePhase seeds its terminals
    for (int i = 0; i < 500; i++) {
      list.add(new Terminal(1 + i / 10, 1 + i % 10, new TpccRandom(seeds.nextLong(), LoadPhase.LOAD_CONSTANTS)));
    }
    Terminals terminals = new Terminals(list, () -> {
      throw new AssertionError("no transaction is due within the test");
    }, config, work, 50, new Terminals.Setup(2, true, 10), new Metrics());
    // (45 × (18 + 12) + 43 × (3 + 12) + 4 × (2 + 10) + 4 × (2 + 5) + 4 × (2 + 5)) / 100 s
    assertEquals(20_990_000_000L, terminals.meanCycleNanos());
    long before = System.nanoTime();
    terminals.start();
    long after = System.nanoTime();
    terminals.stop();
    assertTrue(terminals.join(5_000));
    long first = list.stream().mapToLong(t -> t.due).min().orElseThrow();
    long last = list.stream().mapToLong(t -> t.due).max().orElseThrow();
    assertTrue(first >= before && last <= after + 20_990_000_000L, "a first submission outside one cycle");
    assertTrue(last - first > 19_000_000_000L, "the terminals start in step: " + (last - first) / 1e9 + " s apart");
    long inFirstHalf = list.stream().filter(t -> t.due - first < 10_495_000_000L).count();
    assertTrue(inFirstHalf > 200 && inFirstHalf < 300, "not spread evenly: " + inFirstHalf + " of 500 in the first half");
  }

  @Test
  void aDeferredDeliveryLeavesItsTerminalFreeWhileTheBusinessTransactionWaits() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println)) {
      String url = OneWarehouse.load(pg);
      TpccConfig config = TpccConfig.read(Path.of("config", "tiny.xml"));
      TpccConfig.Work work = new TpccConfig.Work(60, 0, null, List.of(0, 0, 50, 50, 0));
      for (boolean deferred : List.of(true, false)) {
        Metrics metrics = new Metrics();
        Terminals terminals = new Terminals(List.of(new Terminal(1, 1, new TpccRandom(3, LoadPhase.LOAD_CONSTANTS))),
            OneWarehouse.connections(url), config, work, 1, new Terminals.Setup(1, deferred, 10), metrics);
        long statusDuringLock;
        try (Connection blocker = DriverManager.getConnection(url, "postgres", "");
            Statement st = blocker.createStatement()) {
          blocker.setAutoCommit(false);
          st.execute("SELECT * FROM new_order WHERE no_w_id = 1 FOR UPDATE");
          terminals.start();
          Thread.sleep(2000);
          statusDuringLock = metrics.operation("OrderStatus").successes();
          assertEquals(0, metrics.operation("Delivery").successes(), "a Delivery got past the lock");
          blocker.rollback();
        }
        Thread.sleep(1000);
        terminals.stop();
        assertTrue(terminals.join(20_000));
        if (deferred) {
          assertTrue(statusDuringLock >= 20, "the terminal stopped while its Delivery waited: " + statusDuringLock);
          assertTrue(terminals.waits().get("Delivery").transactions() >= 5, "the terminal queued few Deliveries");
          assertTrue(metrics.operation("Delivery").successes() > 0, "the deferred Deliveries never ran");
        } else {
          // Each pick is a Delivery with even odds: the terminal is stuck after a few Order-Status at most.
          assertTrue(statusDuringLock < 12, "run inline, a Delivery holds its terminal: " + statusDuringLock);
        }
      }
    }
  }
}
