package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The key split of clients sharing a table: exact values, and the shares covering the range once. */
class ClientSlicesTest {
  @Test
  void sharesOfTheLoad() {
    assertArrayEquals(new long[] {0, 3333}, ClientSlices.slice(0, 10_000, 3, 0));
    assertArrayEquals(new long[] {3333, 3333}, ClientSlices.slice(0, 10_000, 3, 1));
    assertArrayEquals(new long[] {6666, 3334}, ClientSlices.slice(0, 10_000, 3, 2));
    assertArrayEquals(new long[] {500, 1000}, ClientSlices.slice(500, 1000, 1, 0), "one client: YCSB's own range");
    assertArrayEquals(new long[] {15_000_000_000L, 7_500_000_000L}, ClientSlices.slice(0, 30_000_000_000L, 4, 2),
        "beyond 32 bits");
    for (int n = 1; n <= 7; n++) {
      long next = 100;
      for (int i = 0; i < n; i++) {
        long[] s = ClientSlices.slice(100, 1001, n, i);
        assertEquals(next, s[0], "client " + i + " of " + n + " starts where the one before ended");
        next = s[0] + s[1];
      }
      assertEquals(1101, next, n + " clients cover the range exactly");
    }
  }

  @Test
  void newKeysOfEachClientAreItsOwn() {
    assertEquals(999, ClientSlices.ownKey(999, 1000, 4, 3), "a loaded key is every client's");
    assertEquals(1000, ClientSlices.ownKey(1000, 1000, 4, 0));
    assertEquals(1003, ClientSlices.ownKey(1000, 1000, 4, 3));
    assertEquals(1000 + 4 * 7 + 2, ClientSlices.ownKey(1007, 1000, 4, 2));
    Set<Long> keys = new HashSet<>();
    for (int client = 0; client < 4; client++) {
      for (long k = 1000; k < 1100; k++) {
        assertTrue(keys.add(ClientSlices.ownKey(k, 1000, 4, client)), "two clients' new keys met at " + k);
      }
    }
  }

  @Test
  void withOneClientTheKeysAreCoreWorkloads() throws Exception {
    Properties p = new Properties();
    p.setProperty("recordcount", "1000");
    p.setProperty("operationcount", "10");
    ClientSlices one = new ClientSlices();
    one.init(p);
    p.setProperty(ClientSlices.CLIENTS, "3");
    p.setProperty(ClientSlices.CLIENT_INDEX, "2");
    ClientSlices third = new ClientSlices();
    third.init(p);
    // One client names key 1000 as CoreWorkload does; client 2 of 3 names its first new key as key 1002.
    assertEquals(new site.ycsb.workloads.CoreWorkload() { String key(long k) throws Exception {
      init(p);
      return buildKeyName(k);
    } }.key(1000), one.buildKeyName(1000));
    assertEquals(one.buildKeyName(1002), third.buildKeyName(1000));
    assertEquals(one.buildKeyName(5), third.buildKeyName(5));
  }
}
