package dev.ybbench.ycsb.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import dev.ybbench.ycsb.schema.TableSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;

/**
 * The sample apps' keys and values, the check a read makes (shown failing on a changed value),
 * and the pools: writers insert new keys then overwrite, readers read only keys already written;
 * CassandraBatchKeyValue's writes and load as whole batches.
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

  /** Records each batch's keys and values, and the single-row calls apart. */
  static final class Batches extends DB implements BatchInsert {
    final List<List<String>> batches = new ArrayList<>();
    final List<byte[]> values = new ArrayList<>();
    final CoreWorkload64Test.Calls single = new CoreWorkload64Test.Calls();

    @Override
    public Status insertBatch(String table, List<String> keys, List<Map<String, ByteIterator>> rows) {
      batches.add(List.copyOf(keys));
      rows.forEach(r -> values.add(r.get("v").toArray()));
      return Status.OK;
    }

    @Override
    public Status read(String t, String key, Set<String> f, Map<String, ByteIterator> r) {
      return single.read(t, key, f, r);
    }

    @Override
    public Status scan(String t, String key, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
      return single.scan(t, key, n, f, r);
    }

    @Override
    public Status update(String t, String key, Map<String, ByteIterator> v) {
      return single.update(t, key, v);
    }

    @Override
    public Status insert(String t, String key, Map<String, ByteIterator> v) {
      return single.insert(t, key, v);
    }

    @Override
    public Status delete(String t, String key) {
      return single.delete(t, key);
    }
  }

  /**
   * One write is one batch of app.batch_size rows: new keys in order until the unique keys run out
   * (the last batch holding the last new ones and the first overwrites), then existing keys, each
   * row CassandraKeyValue's value; readers read only keys whose batch is written.
   */
  @Test
  void aBatchWriteIsBatchSizeRowsDrawnAsSingleWritesDrawThem() throws Exception {
    KeyValueApp a = app(KeyValueApp.APP, "CassandraBatchKeyValue", KeyValueApp.UNIQUE_KEYS, "25",
        KeyValueApp.BATCH_SIZE, "10", "recordcount", "0");
    assertTrue(a.batches());
    assertEquals(10, a.rowsPerCall(Pool.WRITE), "the writers' limit and rate count rows");
    assertEquals(10, a.rowsPerCall(Pool.MIX), "the load writes batches too");
    assertEquals(1, a.rowsPerCall(Pool.READ));
    Batches db = new Batches();
    Object writer = a.initThread(new Properties(), 0, 2, Pool.WRITE);
    Object reader = a.initThread(new Properties(), 1, 2, Pool.READ);
    a.doTransaction(db, writer);
    assertEquals(List.of(List.of("key:0", "key:1", "key:2", "key:3", "key:4", "key:5", "key:6", "key:7", "key:8",
        "key:9")), db.batches);
    assertEquals("val:3", new String(db.values.get(3), StandardCharsets.UTF_8));
    for (int i = 0; i < 100; i++) {
      a.doTransaction(db, reader);
    }
    for (String k : db.single.keys.get("READ")) {
      assertTrue(Long.parseLong(k.substring(4)) < 10, "only the written batch is read: " + k);
    }
    a.doTransaction(db, writer);
    a.doTransaction(db, writer);
    assertEquals(List.of("key:20", "key:21", "key:22", "key:23", "key:24"), db.batches.get(2).subList(0, 5));
    for (String k : db.batches.get(2).subList(5, 10)) {
      assertTrue(Long.parseLong(k.substring(4)) < 24, "then existing keys, as the app draws them: " + k);
    }
    a.doTransaction(db, writer);
    assertEquals(4, db.batches.size());
    assertTrue(db.batches.stream().allMatch(b -> b.size() == 10), "every batch whole");
    assertTrue(db.single.keys.get("INSERT") == null && db.single.keys.get("UPDATE") == null,
        "no row is written alone: " + db.single.keys);
  }

  /** The pure-read setup's load writes its keys in batches, from insertstart to its end and no further. */
  @Test
  void aBatchLoadWritesItsKeysInBatchesUpToItsEnd() throws Exception {
    KeyValueApp a = app(KeyValueApp.APP, "CassandraBatchKeyValue", KeyValueApp.BATCH_SIZE, "4",
        "insertstart", "100", "insertcount", "10", "recordcount", "110");
    Batches db = new Batches();
    for (int i = 0; i < 4; i++) {
      assertTrue(a.doInsert(db, null));
    }
    assertEquals(List.of(List.of("key:100", "key:101", "key:102", "key:103"), List.of("key:104", "key:105",
        "key:106", "key:107"), List.of("key:108", "key:109")), db.batches);
  }

  @Test
  void onlyTheBatchAppTakesABatchSize() throws Exception {
    assertEquals(KeyValueApp.DEFAULT_BATCH_SIZE, app(KeyValueApp.APP, "CassandraBatchKeyValue")
        .rowsPerCall(Pool.WRITE), "the app's static block: 10");
    assertEquals("app.batch_size is CassandraBatchKeyValue's; CassandraKeyValue writes one row per statement, as the "
        + "sample app does: leave it out", assertThrows(UserError.class, () -> app(KeyValueApp.APP,
            "CassandraKeyValue", KeyValueApp.BATCH_SIZE, "5")).getMessage());
    assertEquals("app.batch_size=0: a batch holds at least 1 row and at most 2147483647", assertThrows(UserError.class,
        () -> app(KeyValueApp.APP, "CassandraBatchKeyValue", KeyValueApp.BATCH_SIZE, "0")).getMessage());
    assertEquals("CassandraBatchKeyValue writes LOGGED batches, which only the YCQL binding sends; run it with --api "
        + "ycql", assertThrows(UserError.class, () -> app(KeyValueApp.APP, "CassandraBatchKeyValue")
            .doTransaction(new CoreWorkload64Test.Calls(), Pool.WRITE)).getMessage());
  }

  /**
   * SqlUpdates' writers update keys below recordcount (the app's --max_written_key) to
   * val:n:<epoch millis> and insert nothing; its readers take that value as right, SqlInserts' do
   * not; with no keys written it is refused.
   */
  @Test
  void sqlUpdatesUpdatesTheKeysWrittenAndInsertsNone() throws Exception {
    KeyValueApp a = app(KeyValueApp.APP, "SqlUpdates", "recordcount", "10");
    List<String> values = new ArrayList<>();
    CoreWorkload64Test.Calls db = new CoreWorkload64Test.Calls() {
      @Override
      public Status update(String t, String key, Map<String, ByteIterator> v) {
        values.add(v.get("v").toString());
        return super.update(t, key, v);
      }
    };
    Object writer = a.initThread(new Properties(), 0, 1, Pool.WRITE);
    long before = System.currentTimeMillis();
    for (int i = 0; i < 200; i++) {
      a.doTransaction(db, writer);
    }
    assertEquals(null, db.keys.get("INSERT"), "no new key");
    assertEquals(200, db.keys.get("UPDATE").size());
    Set<Long> updated = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      long n = Long.parseLong(db.keys.get("UPDATE").get(i).substring(4));
      updated.add(n);
      String[] parts = values.get(i).split(":");
      assertEquals("val", parts[0]);
      assertEquals(n, Long.parseLong(parts[1]), "the key's own value, then the time");
      assertTrue(Long.parseLong(parts[2]) >= before && Long.parseLong(parts[2]) <= System.currentTimeMillis());
    }
    assertEquals(Set.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L), updated, "keys below 9, as the app's getKeyToRead");
    assertTrue(a.verify(5, "val:5".getBytes(StandardCharsets.UTF_8)), "not updated yet");
    assertTrue(a.verify(5, "val:5:1732752000000".getBytes(StandardCharsets.UTF_8)), "updated");
    for (String wrong : List.of("val:5:", "val:5:17a", "val:50", "val:6:1732752000000", "val:5:1:2")) {
      assertFalse(a.verify(5, wrong.getBytes(StandardCharsets.UTF_8)), wrong);
    }
    assertFalse(app(KeyValueApp.APP, "SqlInserts").verify(5, "val:5:1732752000000".getBytes(StandardCharsets.UTF_8)),
        "SqlInserts never writes a time after the value");
    assertEquals("SqlUpdates updates keys SqlInserts wrote, and recordcount=1 says none: give --records N (the sample "
        + "app's --max_written_key N-1, above 0)", assertThrows(UserError.class, () -> app(KeyValueApp.APP,
            "SqlUpdates", "recordcount", "1")).getMessage());
  }

  /** Rows by value as a DB with an index would find them: a table of keys and values. */
  static final class ByValue extends CoreWorkload64Test.Calls implements IndexRead {
    final Map<String, List<String>> keysOfValue = new HashMap<>();
    final List<String> looked = new ArrayList<>();

    @Override
    public Status readByValue(String table, String column, String value, List<Map<String, ByteIterator>> rows) {
      looked.add(value);
      for (String k : keysOfValue.getOrDefault(value, List.of())) {
        Map<String, ByteIterator> row = new HashMap<>();
        row.put("k", new site.ycsb.StringByteIterator(k));
        row.put(column, new site.ycsb.StringByteIterator(value));
        rows.add(row);
      }
      return rows.isEmpty() ? Status.NOT_FOUND : Status.OK;
    }
  }

  /**
   * SqlSecondaryIndex reads by value, of keys already written, and a read is right only when it
   * finds exactly its key's row (two rows, or another key's, are wrong: shown failing); its
   * writers go on inserting once the keys run out, as the app does.
   */
  @Test
  void sqlSecondaryIndexReadsByValueAndKeepsInserting() throws Exception {
    KeyValueApp a = app(KeyValueApp.APP, "SqlSecondaryIndex", TableSpec.COLUMNS, "k,v", TableSpec.INDEX, "v",
        KeyValueApp.UNIQUE_KEYS, "5", "recordcount", "3");
    ByValue db = new ByValue();
    db.keysOfValue.put("val:0", List.of("key:0"));
    db.keysOfValue.put("val:1", List.of("key:1", "other:1")); // two clients' keys share a value
    Object reader = a.initThread(new Properties(), 0, 2, Pool.READ);
    Map<String, Long> before = dev.ybbench.ycsb.client.Verifications.counts();
    for (int i = 0; i < 200; i++) {
      a.doTransaction(db, reader);
    }
    assertEquals(Set.of("val:0", "val:1"), new HashSet<>(db.looked), "keys below 2, by value");
    assertEquals(null, db.keys.get("READ"), "no read by key");
    Map<String, Long> after = dev.ybbench.ycsb.client.Verifications.counts();
    long right = after.getOrDefault("OK", 0L) - before.getOrDefault("OK", 0L);
    long wrong = after.getOrDefault("UNEXPECTED_STATE", 0L) - before.getOrDefault("UNEXPECTED_STATE", 0L);
    assertEquals(db.looked.stream().filter("val:0"::equals).count(), right, "key 0's one row");
    assertEquals(db.looked.stream().filter("val:1"::equals).count(), wrong, "two rows for val:1");
    assertTrue(right > 0 && wrong > 0);

    Object writer = a.initThread(new Properties(), 1, 2, Pool.WRITE);
    for (int i = 0; i < 10; i++) {
      a.doTransaction(db, writer);
    }
    assertEquals(10, db.keys.get("INSERT").size(), "INSERTs only, new keys then existing ones");
    assertEquals(List.of("key:3", "key:4"), db.keys.get("INSERT").subList(0, 2));
    assertEquals(null, db.keys.get("UPDATE"));
    assertEquals("SqlSecondaryIndex reads by v through its index: give yb.index=v, as workloads/SqlSecondaryIndex does",
        assertThrows(UserError.class, () -> app(KeyValueApp.APP, "SqlSecondaryIndex", TableSpec.COLUMNS, "k,v"))
            .getMessage());
  }
}
