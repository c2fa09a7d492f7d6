package dev.ybbench.ycsb.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.generator.CounterGenerator;
import site.ycsb.generator.ScrambledZipfianGenerator;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * CoreWorkload in 64 bits: the key split of clients sharing a table, key names equal to YCSB's
 * where YCSB's are right, key numbers beyond 2^31 that do not wrap, the pools' operations, and ζ.
 */
class CoreWorkload64Test {
  /** Records what the workload asks of a database, and answers every read. */
  static class Calls extends DB {
    final Map<String, List<String>> keys = new TreeMap<>();

    private Status add(String op, String key) {
      keys.computeIfAbsent(op, k -> new ArrayList<>()).add(key);
      return Status.OK;
    }

    @Override
    public Status read(String t, String key, Set<String> f, Map<String, ByteIterator> r) {
      return add("READ", key);
    }

    @Override
    public Status scan(String t, String key, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
      return add("SCAN", key);
    }

    @Override
    public Status update(String t, String key, Map<String, ByteIterator> v) {
      return add("UPDATE", key);
    }

    @Override
    public Status insert(String t, String key, Map<String, ByteIterator> v) {
      return add("INSERT", key);
    }

    @Override
    public Status delete(String t, String key) {
      return add("DELETE", key);
    }
  }

  private static Properties props(String... kv) {
    Properties p = new Properties();
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  private static CoreWorkload64 init(Properties p) throws Exception {
    CoreWorkload64 w = new CoreWorkload64();
    w.init(p);
    return w;
  }

  @BeforeAll
  static void ycsbMeasurements() {
    Measurements.setProperties(new Properties()); // YCSB's CoreWorkload, compared with below, needs them
  }

  @Test
  void sharesOfTheLoad() {
    assertArrayEquals(new long[] {0, 3333}, CoreWorkload64.slice(0, 10_000, 3, 0));
    assertArrayEquals(new long[] {3333, 3333}, CoreWorkload64.slice(0, 10_000, 3, 1));
    assertArrayEquals(new long[] {6666, 3334}, CoreWorkload64.slice(0, 10_000, 3, 2));
    assertArrayEquals(new long[] {500, 1000}, CoreWorkload64.slice(500, 1000, 1, 0), "one client: YCSB's own range");
    assertArrayEquals(new long[] {15_000_000_000L, 7_500_000_000L}, CoreWorkload64.slice(0, 30_000_000_000L, 4, 2),
        "beyond 32 bits");
    for (int n = 1; n <= 7; n++) {
      long next = 100;
      for (int i = 0; i < n; i++) {
        long[] s = CoreWorkload64.slice(100, 1001, n, i);
        assertEquals(next, s[0], "client " + i + " of " + n + " starts where the one before ended");
        next = s[0] + s[1];
      }
      assertEquals(1101, next, n + " clients cover the range exactly");
    }
  }

  @Test
  void newKeysOfEachClientAreItsOwn() {
    assertEquals(999, CoreWorkload64.ownKey(999, 1000, 4, 3), "a loaded key is every client's");
    assertEquals(1000, CoreWorkload64.ownKey(1000, 1000, 4, 0));
    assertEquals(1003, CoreWorkload64.ownKey(1000, 1000, 4, 3));
    assertEquals(1000 + 4 * 7 + 2, CoreWorkload64.ownKey(1007, 1000, 4, 2));
    Set<Long> keys = new HashSet<>();
    for (int client = 0; client < 4; client++) {
      for (long k = 1000; k < 1100; k++) {
        assertTrue(keys.add(CoreWorkload64.ownKey(k, 1000, 4, client)), "two clients' new keys met at " + k);
      }
    }
  }

  @Test
  void withOneClientTheKeysAreCoreWorkloads() throws Exception {
    Properties p = props("recordcount", "1000", "operationcount", "10");
    CoreWorkload64 one = init(p);
    p.setProperty(CoreWorkload64.CLIENTS, "3");
    p.setProperty(CoreWorkload64.CLIENT_INDEX, "2");
    CoreWorkload64 third = init(p);
    for (String order : List.of("hashed", "ordered")) {
      Properties q = props("recordcount", "1000", "insertorder", order, "zeropadding", "12");
      CoreWorkload64 ours = init(q);
      var ycsb = new CoreWorkload() {
        String key(long k) {
          return buildKeyName(k);
        }
      };
      ycsb.init(q);
      for (long k : new long[] {0, 7, 999, 123_456, Integer.MAX_VALUE}) {
        assertEquals(ycsb.key(k), ours.buildKeyName(k), order + " key " + k);
      }
    }
    // Client 2 of 3 names its first new key (number 1000) as key 1002.
    assertEquals(one.buildKeyName(1002), third.buildKeyName(1000));
    assertEquals(one.buildKeyName(5), third.buildKeyName(5));
  }

  /**
   * YCSB 0.17 turns key 29,999,990,000 into −64,781,072 (doInsert's intValue()); here it stays
   * itself: a load from there writes exactly those keys, and reads choose only among them.
   */
  @Test
  void keyNumbersBeyond32BitsDoNotWrap() throws Exception {
    long start = 29_999_990_000L;
    Properties p = props("recordcount", "30000000000", "insertstart", Long.toString(start), "insertcount", "1000",
        "insertorder", "ordered", "zeropadding", "12", "readproportion", "1", "updateproportion", "0",
        "requestdistribution", "uniform");
    CoreWorkload64 w = init(p);
    Calls db = new Calls();
    for (int i = 0; i < 1000; i++) {
      assertTrue(w.doInsert(db, null));
    }
    List<String> inserted = db.keys.get("INSERT");
    assertEquals("user029999990000", inserted.get(0), "zero-padded to 12 digits");
    assertEquals("user029999990999", inserted.get(999));
    assertEquals(1000, new HashSet<>(inserted).size());
    Object state = w.initThread(p, 0, 1);
    for (int i = 0; i < 2000; i++) {
      w.doTransaction(db, state);
    }
    for (String key : db.keys.get("READ")) {
      long n = Long.parseLong(key.substring(4));
      assertTrue(n >= start && n < start + 1000, "a read outside the loaded keys: " + key);
    }
    // The hashed name of the same number is YCSB's hash of the full 64-bit number.
    CoreWorkload64 hashed = init(props("recordcount", "30000000000", "insertstart", Long.toString(start),
        "insertcount", "10"));
    assertEquals("user4271472959794059960", hashed.buildKeyName(start));
  }

  @Test
  void eachPoolDoesOnlyItsKindOfOperation() throws Exception {
    Properties p = props("recordcount", "1000", "operationcount", "1000", "readproportion", "0.5",
        "updateproportion", "0.2", "insertproportion", "0.1", "scanproportion", "0.2");
    CoreWorkload64 w = init(p);
    Map<Pool, Set<String>> seen = new HashMap<>();
    for (Pool pool : Pool.values()) {
      w.checkPool(pool);
      Calls db = new Calls();
      Object state = w.initThread(p, 0, 1, pool);
      for (int i = 0; i < 2000; i++) {
        w.doTransaction(db, state);
      }
      seen.put(pool, db.keys.keySet());
    }
    assertEquals(Set.of("READ", "SCAN", "UPDATE", "INSERT"), seen.get(Pool.MIX));
    assertEquals(Set.of("READ", "SCAN"), seen.get(Pool.READ));
    assertEquals(Set.of("UPDATE", "INSERT"), seen.get(Pool.WRITE));

    CoreWorkload64 readOnly = init(props("recordcount", "10", "readproportion", "1", "updateproportion", "0"));
    assertTrue(assertThrows(UserError.class, () -> readOnly.checkPool(Pool.WRITE)).getMessage()
        .contains("the writers would have nothing to do"));
    CoreWorkload64 f = init(props("recordcount", "10", "readproportion", "0.5", "updateproportion", "0",
        "readmodifywriteproportion", "0.5"));
    assertTrue(assertThrows(UserError.class, () -> f.checkPool(Pool.WRITE)).getMessage()
        .contains("readmodifywriteproportion is both a read and a write"));
  }

  @Test
  void zetaInClosedFormMatchesTheSum() {
    for (long n : new long[] {1, 2, 10, 999_999, 1_000_000, 1_000_001, 3_000_000}) {
      for (double theta : new double[] {0.5, 0.99, 1.0, 1.2}) {
        double sum = 0;
        double c = 0; // Kahan summation, from the smallest terms up
        for (long i = n; i >= 1; i--) {
          double y = Math.pow(i, -theta) - c;
          double t = sum + y;
          c = (t - sum) - y;
          sum = t;
        }
        assertEquals(sum, Zeta.of(n, theta), sum * 1e-13, "n=" + n + " θ=" + theta);
      }
    }
    assertEquals(Zeta.of(5_000_000, 0.99), Zeta.of(2_000_000, 0.99) + Zeta.between(2_000_000, 5_000_000, 0.99),
        1e-12);
    // YCSB's own constant for 10^10 items, summed term by term in doubles.
    assertEquals(ScrambledZipfianGenerator.ZETAN, Zeta.of(10_000_000_000L, 0.99), 1e-6);
  }

  @Test
  void latestFavoursTheNewestKeyAndStaysAmongThoseWritten() {
    CounterGenerator basis = new CounterGenerator(30_000_000_000L);
    basis.nextValue(); // last value 30,000,000,000
    long begin = System.nanoTime();
    LatestGenerator latest = new LatestGenerator(basis);
    assertTrue(System.nanoTime() - begin < 5_000_000_000L, "ζ over 30 billion keys without summing them");
    long newest = 0;
    for (int i = 0; i < 100_000; i++) {
      long k = latest.nextValue();
      assertTrue(k >= 0 && k <= 30_000_000_000L, "key " + k);
      if (k == 30_000_000_000L) {
        newest++;
      }
    }
    // The most popular item's share is 1/ζ(n), about 3.8 % at 30 billion keys.
    double share = newest / 100_000.0;
    assertEquals(1 / Zeta.of(30_000_000_000L, 0.99), share, 0.005);
  }
}
