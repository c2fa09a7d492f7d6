package dev.ybbench.tpcc.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TpccConfigTest {
  static final Path CONFIGS = Path.of("config").toAbsolutePath();

  @TempDir
  Path dir;

  @Test
  void theShippedHundredWarehouseConfigs() {
    // The throughput run of the 2.1 post: 64 terminals, no waits, the mix and then each type alone.
    for (String name : List.of("yugabyte_100w.xml", "postgres_100w.xml")) {
      TpccConfig c = TpccConfig.read(CONFIGS.resolve(name));
      assertEquals(100, c.scaleFactor(), name);
      assertEquals(64, c.terminals(), name);
      assertEquals(List.of(List.of(45, 43, 4, 4, 4), List.of(100, 0, 0, 0, 0), List.of(0, 100, 0, 0, 0),
          List.of(0, 0, 100, 0, 0), List.of(0, 0, 0, 100, 0), List.of(0, 0, 0, 0, 100)),
          c.works().stream().map(TpccConfig.Work::weights).toList(), name);
      assertEquals(600, c.works().get(0).timeSeconds());
      assertNull(c.works().get(0).rate(), "unlimited");
      assertFalse(c.hasWaits(), name);
      assertFalse(c.hasSpecWaits(), name);
      assertEquals(TpccConfig.TRANSACTIONS, c.transactionTypes().stream().map(TpccConfig.TransactionType::name).toList());
    }
    // The spec's run: 10 terminals a warehouse with the spec's keying and think times.
    for (String name : List.of("yugabyte_100w_spec.xml", "postgres_100w_spec.xml")) {
      TpccConfig c = TpccConfig.read(CONFIGS.resolve(name));
      assertEquals(1000, c.terminals(), name);
      assertEquals(List.of(45, 43, 4, 4, 4), c.works().get(0).weights());
      assertEquals(1, c.works().size());
      assertEquals(new TpccConfig.TransactionType("NewOrder", 18000, 12000), c.transaction("NewOrder"));
      assertEquals(new TpccConfig.TransactionType("StockLevel", 2000, 5000), c.transaction("StockLevel"));
      assertTrue(c.hasSpecWaits(), name);
    }
    assertEquals("com.yugabyte.Driver", TpccConfig.read(CONFIGS.resolve("yugabyte_100w.xml")).driver());
  }

  /** Efficiency is defined for the spec's mix only: a New-Order-only work at the spec's waits gets none. */
  @Test
  void onlyTheSpecsMinimumMixIsTheSpecMix() {
    assertTrue(new TpccConfig.Work(10, 0, null, List.of(45, 43, 4, 4, 4)).isSpecMix());
    assertTrue(new TpccConfig.Work(10, 0, null, List.of(40, 44, 5, 5, 6)).isSpecMix());
    assertFalse(new TpccConfig.Work(10, 0, null, List.of(100, 0, 0, 0, 0)).isSpecMix());
    assertFalse(new TpccConfig.Work(10, 0, null, List.of(47, 42, 4, 4, 3)).isSpecMix());
    assertFalse(new TpccConfig.Work(10, 0, null, List.of(0, 100, 0, 0, 0)).isSpecMix());
  }

  @Test
  void theTinyConfigHasNoWaits() {
    TpccConfig c = TpccConfig.read(CONFIGS.resolve("tiny.xml"));
    assertEquals(1, c.scaleFactor());
    assertEquals(4, c.terminals());
    assertEquals(60, c.works().get(0).timeSeconds());
    assertTrue(c.transactionTypes().stream().allMatch(t -> t.preExecutionWaitMs() == 0 && t.postExecutionWaitMs() == 0));
    assertFalse(c.hasWaits());
    assertFalse(c.hasSpecWaits(), "no efficiency for it");
    TpccConfig spec = c.withSpecWaits();
    assertTrue(spec.hasSpecWaits());
    assertEquals(new TpccConfig.TransactionType("Payment", 3000, 12000), spec.transaction("Payment"));
    assertEquals(new TpccConfig.TransactionType("OrderStatus", 2000, 10000), spec.transaction("OrderStatus"));
    assertEquals(new TpccConfig.TransactionType("Delivery", 2000, 5000), spec.transaction("Delivery"));
    assertEquals(128, c.batchSize());
    TpccConfig bigger = c.with(10, 16);
    assertEquals(10, bigger.scaleFactor());
    assertEquals(16, bigger.terminals());
  }

  private String error(String xml) throws Exception {
    Path f = dir.resolve("c.xml");
    Files.writeString(f, xml);
    return assertThrows(UserError.class, () -> TpccConfig.read(f)).getMessage().replace(f.toString(), "c.xml");
  }

  private static String config(String scale, String weights, String tx) {
    return """
        <?xml version="1.0"?>
        <parameters>
          <type>POSTGRES</type>
          %s
          <terminals>2</terminals>
          <works><work><time>10</time><weights>%s</weights></work></works>
          <transactiontypes>
            <transactiontype><name>NewOrder</name></transactiontype>
            <transactiontype><name>Payment</name></transactiontype>
            <transactiontype><name>OrderStatus</name></transactiontype>
            <transactiontype><name>Delivery</name></transactiontype>
            <transactiontype><name>%s</name></transactiontype>
          </transactiontypes>
        </parameters>
        """.formatted(scale, weights, tx);
  }

  @Test
  void badConfigsAreOneLineNamingTheProblemAndLine() throws Exception {
    assertEquals("c.xml: <scalefactor> is missing",
        error(config("", "45,43,4,4,4", "StockLevel")));
    assertEquals("c.xml:6: <weights> 45,43,4,4,5 sum to 101, not 100",
        error(config("<scalefactor>1</scalefactor>", "45,43,4,4,5", "StockLevel")));
    assertEquals("c.xml:12: unknown transaction 'StockCheck'; TPC-C has NewOrder, Payment, OrderStatus, "
        + "Delivery, StockLevel", error(config("<scalefactor>1</scalefactor>", "45,43,4,4,4", "StockCheck")));
    assertEquals("c.xml: <scalefactor> must be at least 1, not 0",
        error(config("<scalefactor>0</scalefactor>", "45,43,4,4,4", "StockLevel")));
    assertEquals("c.xml: <scalefactor> must be at least 1, not -3",
        error(config("<scalefactor>-3</scalefactor>", "45,43,4,4,4", "StockLevel")));
    assertEquals("c.xml:4: unknown element <scalefactr> in <parameters>",
        error(config("<scalefactr>1</scalefactr>", "45,43,4,4,4", "StockLevel")));
    assertEquals("c.xml:4: <dbtype> is yugabyte/tpcc's config format; run_tpcc.sh reads BenchBase's: start from "
        + "tpcc/config/yugabyte_100w_spec.xml (the flags of yugabyte/tpcc's command line work as they are)",
        error(config("<dbtype>yugabyte</dbtype>", "45,43,4,4,4", "StockLevel")));
    String malformed = error("<?xml version=\"1.0\"?>\n<parameters>\n  <scalefactor>1</scalefactor>\n</parameter>\n");
    assertTrue(malformed.startsWith("c.xml:4: malformed XML:"), malformed);
  }
}
