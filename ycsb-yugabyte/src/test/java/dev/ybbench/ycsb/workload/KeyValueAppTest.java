package dev.ybbench.ycsb.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import site.ycsb.measurements.Measurements;

/**
 * The sample apps' keys and values, the check a read makes (shown failing on a changed value),
 * and the pools: writers insert new keys then overwrite, readers read only keys already written.
 */
class KeyValueAppTest {
  @BeforeAll
  static void ycsbMeasurements() {
    Measurements.setProperties(new Properties());
  }

  private static KeyValueApp app(String... kv) throws Exception {
    Properties p = new Properties();
    p.setProperty("table", "t");
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    KeyValueApp a = new KeyValueApp();
    a.init(p);
    return a;
  }

  @Test
  void keysAndValuesAreTheApps() throws Exception {
    KeyValueApp sql = app(KeyValueApp.APP, "SqlInserts", KeyValueApp.KEY_PREFIX,
        "00000000-0000-0000-0000-000000000001");
    assertEquals("00000000-0000-0000-0000-000000000001:42", sql.key(42));
    assertTrue(sql.verify(42, "val:42".getBytes(StandardCharsets.UTF_8)));
    assertFalse(sql.verify(42, "val:43".getBytes(StandardCharsets.UTF_8)));

    KeyValueApp kv = app(KeyValueApp.APP, "CassandraKeyValue", KeyValueApp.VALUE_SIZE, "256");
    byte[] v = kv.randomValue(7);
    assertEquals(256, v.length);
    assertEquals('B', v[0], "the binary marker");
    assertEquals("val:7", new String(v, 1, 5, StandardCharsets.UTF_8));
    assertTrue(kv.verify(7, v));
    assertFalse(kv.verify(8, v), "another key's value");
    byte[] broken = Arrays.copyOf(v, v.length);
    broken[100] ^= 1;
    assertFalse(kv.verify(7, broken), "one bit changed: the checksum says so");

    KeyValueApp small = app(KeyValueApp.APP, "CassandraKeyValue", KeyValueApp.VALUE_SIZE, "16");
    byte[] sixteen = small.randomValue(3);
    assertEquals(16, sixteen.length);
    assertTrue(small.verify(3, sixteen));
    sixteen[5] ^= 1;
    assertFalse(small.verify(3, sixteen), "16 bytes: no key prefix, but a checksum");

    KeyValueApp ascii = app(KeyValueApp.APP, "CassandraKeyValue", KeyValueApp.VALUE_SIZE, "40",
        KeyValueApp.ASCII_VALUES, "true");
    byte[] a = ascii.randomValue(9);
    assertEquals('A', a[0]);
    for (byte b : a) {
      assertTrue(b >= 32 && b < 127, "printable: " + b);
    }
    assertTrue(ascii.verify(9, a));

    KeyValueApp plain = app(KeyValueApp.APP, "CassandraKeyValue");
    assertTrue(plain.verify(5, "val:5".getBytes(StandardCharsets.UTF_8)), "value_size 0: the bytes of val:n");
  }

  @Test
  void writersInsertNewKeysThenOverwriteAndReadersReadOnlyWhatIsWritten() throws Exception {
    KeyValueApp a = app(KeyValueApp.APP, "SqlInserts", KeyValueApp.UNIQUE_KEYS, "50", "recordcount", "10");
    CoreWorkload64Test.Calls db = new CoreWorkload64Test.Calls();
    Object writer = a.initThread(new Properties(), 0, 2, Pool.WRITE);
    Object reader = a.initThread(new Properties(), 1, 2, Pool.READ);
    for (int i = 0; i < 200; i++) {
      a.doTransaction(db, reader);
    }
    for (String k : db.keys.get("READ")) {
      assertTrue(Long.parseLong(k.substring(4)) < 9, "keys 0 … 9 were written before, and 9 is never read: " + k);
    }
    for (int i = 0; i < 100; i++) {
      a.doTransaction(db, writer);
    }
    List<String> inserted = db.keys.get("INSERT");
    assertEquals(40, inserted.size(), "keys 10 … 49 are new");
    assertEquals("key:10", inserted.get(0));
    assertEquals("key:49", inserted.get(39));
    assertEquals(60, db.keys.get("UPDATE").size(), "then the writers overwrite");
    Set<String> overwritten = new HashSet<>(db.keys.get("UPDATE"));
    for (String k : overwritten) {
      assertTrue(Long.parseLong(k.substring(4)) < 49, k);
    }
    db.keys.clear();
    for (int i = 0; i < 500; i++) {
      a.doTransaction(db, reader);
    }
    long highest = db.keys.get("READ").stream().mapToLong(k -> Long.parseLong(k.substring(4))).max().orElseThrow();
    assertTrue(highest > 9 && highest < 49, "the readers follow the writes: " + highest);
  }

  @Test
  void loadWritesFromInsertstart() throws Exception {
    KeyValueApp a = app(KeyValueApp.APP, "SqlInserts", "insertstart", "1000", "recordcount", "1003");
    CoreWorkload64Test.Calls db = new CoreWorkload64Test.Calls();
    for (int i = 0; i < 3; i++) {
      assertTrue(a.doInsert(db, null));
    }
    assertArrayEquals(new Object[] {"key:1000", "key:1001", "key:1002"}, db.keys.get("INSERT").toArray());
  }
}
