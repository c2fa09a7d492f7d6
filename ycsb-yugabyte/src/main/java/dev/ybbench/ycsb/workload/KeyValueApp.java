package dev.ybbench.ycsb.workload;

import dev.ybbench.harness.UserError;
import dev.ybbench.ycsb.schema.TableSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.Adler32;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;
import site.ycsb.generator.AcknowledgedCounterGenerator;
import site.ycsb.generator.CounterGenerator;
import site.ycsb.measurements.Measurements;

/**
 * yb-sample-apps' key-value apps as a workload over ybbench's bindings, with their keys, values and
 * threads as the apps make them (read from yugabyte/yb-sample-apps, {@code AppBase}, {@code
 * SimpleLoadGenerator} and each app's class):
 *
 * <ul>
 *   <li>Key n is {@code PREFIX:n}, the prefix a client's uuid or {@code key} ({@code --nouuid}),
 *       so clients with their own uuids write keys of their own.
 *   <li>Writers and readers are separate pools ({@link Pool}). A writer inserts the next new key
 *       until {@value #UNIQUE_KEYS} keys exist (−1: no end), then overwrites a uniformly chosen
 *       one among them. A reader reads a key drawn uniformly below the highest key written with
 *       every key under it written ("max written key"; keys up to {@code recordcount − 1} are
 *       written before the run — the app's {@code --max_written_key}, or a load), and checks its
 *       value: a wrong one is counted as an error of operation VERIFY.
 *   <li>The SQL apps' value is the text {@code val:n}. The Cassandra apps' is the bytes of {@code
 *       val:n} with {@value #VALUE_SIZE} 0, else that many bytes: a marker ('A' ASCII, 'B' binary),
 *       {@code val:n} above 16 bytes, random bytes, and an Adler-32 checksum of the rest.
 * </ul>
 *
 * <p>What sets each app apart:
 *
 * <ul>
 *   <li><b>SqlInserts</b>, <b>CassandraKeyValue</b>: as above, over {@code (k, v)}.
 *   <li><b>CassandraRangeKeyValue</b>: CassandraKeyValue over {@code ((k), r1, r2, r3)}, each range
 *       column holding the key ({@link TableSpec#RANGE_COLUMNS}); a read matches the whole key.
 *   <li><b>CassandraBatchKeyValue</b>: CassandraKeyValue whose one write is one LOGGED batch of
 *       {@value #BATCH_SIZE} INSERTs ({@link BatchInsert}), each row's key drawn as a single write
 *       draws it; its load writes the same batches. Limits and rates count rows, as the app's
 *       {@code --num_writes} and ops/s do ({@link #rowsPerCall}).
 *   <li><b>SqlUpdates</b>: writes no new key. A writer updates a key drawn as a reader draws it
 *       (below the keys SqlInserts wrote) to {@code val:n:<epoch millis>}; a reader accepts {@code
 *       val:n} or that.
 *   <li><b>SqlSecondaryIndex</b>: reads by value through the table's index ({@link IndexRead},
 *       {@code WHERE v = 'val:n'}), and the read is right when it finds exactly key n's row. Its
 *       writes are INSERTs even once the keys run out, as the app's are: an existing key's INSERT
 *       fails as a duplicate, and is counted as that error.
 * </ul>
 */
public class KeyValueApp extends Workload implements PooledWorkload {
  /** One of {@link #APPS}. */
  public static final String APP = "app.name";
  /** The keys' prefix: the client's uuid, or "key". */
  public static final String KEY_PREFIX = "app.key_prefix";
  /** How many keys the writers insert before they overwrite (−1: no end). */
  public static final String UNIQUE_KEYS = "app.unique_keys";
  /** CassandraKeyValue's value size in bytes (0: "val:n"). */
  public static final String VALUE_SIZE = "app.value_size";
  /** CassandraKeyValue's random bytes printable (--use_ascii_values). */
  public static final String ASCII_VALUES = "app.ascii_values";
  /** CassandraBatchKeyValue's rows per write, one LOGGED batch (--batch_size). */
  public static final String BATCH_SIZE = "app.batch_size";
  /** CassandraBatchKeyValue's batch size, its static block's {@code appConfig.batchSize = 10}. */
  public static final int DEFAULT_BATCH_SIZE = 10;

  /** The sample apps it runs. */
  public static final List<String> APPS = List.of("SqlInserts", "SqlUpdates", "SqlSecondaryIndex", "CassandraKeyValue",
      "CassandraBatchKeyValue", "CassandraRangeKeyValue");

  // AppBase's value layout.
  private static final int CHECKSUM_SIZE = 4;
  private static final int CHECKSUM_ASCII_SIZE = 2 * CHECKSUM_SIZE;
  private static final int VALUE_SIZE_TO_USE_PREFIX = 16;
  private static final byte ASCII_MARKER = (byte) 'A';
  private static final byte BINARY_MARKER = (byte) 'B';

  private String table;
  private String keyColumn;
  private String valueColumn;
  private boolean sql;
  /** SqlUpdates: the writers update existing keys and insert none. */
  private boolean updatesOnly;
  /** SqlSecondaryIndex: the readers read by value through the index, the writers only insert. */
  private boolean readsByValue;
  private String prefix;
  private long uniqueKeys;
  private int valueSize;
  private boolean ascii;
  /** CassandraBatchKeyValue's rows per batch; 0 for the apps that write one row per statement. */
  private int batchSize;
  private CounterGenerator loadKeys;
  /** The load's end: keys from insertstart below this. */
  private long loadEnd;
  /** The writers' next new key. */
  private AtomicLong nextKey;
  /** Keys written (or given up on), and the highest with every key below it settled: the readers' bound. */
  private AcknowledgedCounterGenerator written;
  private final Map<String, String> settings = new LinkedHashMap<>();

  @Override
  public void init(Properties p) throws WorkloadException {
    table = p.getProperty("table", "usertable");
    List<String> columns = List.of(p.getProperty(TableSpec.COLUMNS, "k,v").split("\\s*,\\s*"));
    keyColumn = columns.get(0);
    valueColumn = columns.get(columns.size() - 1);
    String app = p.getProperty(APP, "SqlInserts").strip();
    if (!APPS.contains(app)) {
      throw new UserError(APP + "=" + app + " is not one of " + String.join(", ", APPS));
    }
    sql = app.startsWith("Sql");
    updatesOnly = app.equals("SqlUpdates");
    readsByValue = app.equals("SqlSecondaryIndex");
    String batch = p.getProperty(BATCH_SIZE);
    if (app.equals("CassandraBatchKeyValue")) {
      long b = batch == null ? DEFAULT_BATCH_SIZE : CoreWorkload64.longProp(p, BATCH_SIZE, "0");
      if (b < 1 || b > Integer.MAX_VALUE) {
        throw new UserError(BATCH_SIZE + "=" + b + ": a batch holds at least 1 row and at most " + Integer.MAX_VALUE);
      }
      batchSize = (int) b;
    } else if (batch != null) {
      throw new UserError(BATCH_SIZE + " is CassandraBatchKeyValue's; " + app + " writes one row per statement, as "
          + "the sample app does: leave it out");
    }
    prefix = p.getProperty(KEY_PREFIX, "key").strip();
    uniqueKeys = CoreWorkload64.longProp(p, UNIQUE_KEYS, "-1");
    valueSize = (int) CoreWorkload64.longProp(p, VALUE_SIZE, "0");
    ascii = Boolean.parseBoolean(p.getProperty(ASCII_VALUES, "false").strip());
    long records = CoreWorkload64.longProp(p, "recordcount", "0");
    long insertStart = CoreWorkload64.longProp(p, INSERT_START_PROPERTY, "0");
    loadKeys = new CounterGenerator(insertStart);
    loadEnd = insertStart + CoreWorkload64.longProp(p, "insertcount", Long.toString(Math.max(0, records - insertStart)));
    // Keys below recordcount were written before this phase: the readers may read them from the start.
    nextKey = new AtomicLong(records);
    written = new AcknowledgedCounterGenerator(records);
    if (updatesOnly && records < 2) {
      // SqlUpdates' "Workload requires option --max_written_key to be set" (above 0).
      throw new UserError("SqlUpdates updates keys SqlInserts wrote, and recordcount=" + records + " says none: give "
          + "--records N (the sample app's --max_written_key N-1, above 0)");
    }
    if (app.equals("CassandraRangeKeyValue") && TableSpec.names(p, TableSpec.RANGE_COLUMNS).isEmpty()) {
      throw new UserError("CassandraRangeKeyValue's key has range columns after it: give " + TableSpec.RANGE_COLUMNS
          + "=r1,r2,r3, as workloads/CassandraRangeKeyValue does");
    }
    if (readsByValue && !TableSpec.names(p, TableSpec.INDEX).equals(List.of(valueColumn))) {
      throw new UserError("SqlSecondaryIndex reads by " + valueColumn + " through its index: give " + TableSpec.INDEX
          + "=" + valueColumn + ", as workloads/SqlSecondaryIndex does");
    }
    settings.put("app", app);
    settings.put("keys", prefix + ":<n>, " + (uniqueKeys < 0 ? "no end" : uniqueKeys + " before overwriting")
        + "; written before the run: " + records);
    settings.put("values", sql || valueSize == 0 ? "val:<n>" : valueSize + " bytes" + (ascii ? " (ASCII)" : ""));
    List<String> all = new ArrayList<>(columns.subList(0, 1));
    all.addAll(TableSpec.names(p, TableSpec.RANGE_COLUMNS)); // CassandraRangeKeyValue's r1, r2, r3 hold the key
    all.addAll(columns.subList(1, columns.size()));
    settings.put("table", table + " (" + String.join(", ", all) + ")");
    if (batchSize > 0) {
      settings.put("writes", "one LOGGED batch of " + batchSize + " INSERTs each; limits and rates count rows");
    } else if (updatesOnly) {
      settings.put("writes", "UPDATE of a key below " + records + " to val:<n>:<epoch millis>; no new key");
    } else if (readsByValue) {
      settings.put("writes", "INSERT, also once the keys run out (an existing key's fails as a duplicate)");
    }
    if (readsByValue) {
      settings.put("reads", "by " + valueColumn + " = 'val:<n>' through " + table + "_index: exactly key n's row");
    }
  }

  /** Whether a write is a batch of rows in one statement (CassandraBatchKeyValue). */
  public boolean batches() {
    return batchSize > 0;
  }

  /** A batch writer's load and writers write a batch of rows per call; its readers one row. */
  @Override
  public int rowsPerCall(Pool pool) {
    return batchSize > 0 && pool != Pool.READ ? batchSize : 1;
  }

  /** What init made of the properties, for the plan. */
  public Map<String, String> settings() {
    return settings;
  }

  @Override
  public void checkPool(Pool pool) {
    if (pool == Pool.MIX) {
      throw new UserError("the sample apps run readers and writers apart: give --read-threads and --write-threads");
    }
  }

  @Override
  public Object initThread(Properties p, int threadId, int threadCount, Pool pool) {
    return pool;
  }

  /** The key name of key number n. */
  String key(long n) {
    return prefix + ":" + n;
  }

  /** A load writes keys from insertstart on, as the app's writers do before its readers start (its pure-read setup). */
  @Override
  public boolean doInsert(DB db, Object threadstate) {
    if (batchSize > 0) {
      // The app's pure-read setup writes with its own writes, batches: up to the load's end.
      Batch b = new Batch(batchSize);
      for (long n = loadKeys.nextValue(); n < loadEnd; n = loadKeys.nextValue()) {
        b.add(n);
        if (b.keys.size() == batchSize) {
          break;
        }
      }
      return b.keys.isEmpty() || batches(db).insertBatch(table, b.keys, b.values).isOk();
    }
    long n = loadKeys.nextValue();
    return db.insert(table, key(n), value(n)).isOk();
  }

  @Override
  public boolean doTransaction(DB db, Object threadstate) {
    if (threadstate == Pool.READ) {
      read(db);
    } else {
      write(db);
    }
    return true;
  }

  private void write(DB db) {
    if (batchSize > 0) {
      writeBatch(db);
      return;
    }
    if (updatesOnly) {
      long k = drawWritten();
      Map<String, ByteIterator> v = new HashMap<>(2);
      v.put(valueColumn, new StringByteIterator("val:" + k + ":" + System.currentTimeMillis()));
      db.update(table, key(k), v); // a key that is not there updates no row: NOT_FOUND, as the app counts 0
      return;
    }
    long n = nextKey.getAndIncrement();
    if (isNew(n)) {
      try {
        db.insert(table, key(n), value(n));
      } finally {
        written.acknowledge(n); // written or given up on, as the app's tracker counts it
      }
      return;
    }
    long k = overwritten();
    if (readsByValue) {
      db.insert(table, key(k), value(k)); // the app's INSERT, which an existing key fails
    } else {
      db.update(table, key(k), value(k));
    }
  }

  /** Whether the writers' n-th draw is a new key (the app's keys run out at uniqueKeys). */
  private boolean isNew(long n) {
    return uniqueKeys < 0 || n < uniqueKeys;
  }

  /** Every key is in: the one to overwrite, as the app draws it (uniform below uniqueKeys − 1). */
  private long overwritten() {
    return uniqueKeys > 1 ? ThreadLocalRandom.current().nextLong(uniqueKeys - 1) : 0;
  }

  /**
   * CassandraBatchKeyValue's write: each row's key drawn as a single write draws it (a new key, or
   * once they have run out an existing one, all by INSERT as in the app's batch), the rows sent as
   * one batch, and the new keys acknowledged to the readers only once the batch is settled.
   */
  private void writeBatch(DB db) {
    Batch b = new Batch(batchSize);
    List<Long> fresh = new ArrayList<>();
    for (int i = 0; i < batchSize; i++) {
      long n = nextKey.getAndIncrement();
      if (isNew(n)) {
        fresh.add(n);
        b.add(n);
      } else {
        b.add(overwritten());
      }
    }
    try {
      batches(db).insertBatch(table, b.keys, b.values);
    } finally {
      for (long n : fresh) {
        written.acknowledge(n); // written or given up on, as the app's tracker counts it
      }
    }
  }

  /** One batch's rows: keys and values in the same order. */
  private final class Batch {
    final List<String> keys;
    final List<Map<String, ByteIterator>> values;

    Batch(int size) {
      int room = Math.min(size, 1024); // a batch size far past what a server takes fails there, not here
      keys = new ArrayList<>(room);
      values = new ArrayList<>(room);
    }

    void add(long n) {
      keys.add(key(n));
      values.add(value(n));
    }
  }

  private static BatchInsert batches(DB db) {
    if (db instanceof BatchInsert b) {
      return b;
    }
    throw new UserError("CassandraBatchKeyValue writes LOGGED batches, which only the YCQL binding sends; run it "
        + "with --api ycql");
  }

  private void read(DB db) {
    long n = drawWritten();
    if (n < 0) {
      return; // stopped before anything was written
    }
    boolean right;
    if (readsByValue) {
      List<Map<String, ByteIterator>> rows = new ArrayList<>(1);
      if (!indexReads(db).readByValue(table, valueColumn, "val:" + n, rows).isOk()) {
        return;
      }
      // The app's check: one row ("expected 1 row in result, got more"), key n's, with its value.
      right = rows.size() == 1 && key(n).equals(String.valueOf(rows.get(0).get(keyColumn)))
          && verify(n, rows.get(0).get(valueColumn).toArray());
    } else {
      Map<String, ByteIterator> cells = new HashMap<>();
      if (!db.read(table, key(n), null, cells).isOk()) {
        return;
      }
      ByteIterator v = cells.get(valueColumn);
      right = v != null && verify(n, v.toArray());
    }
    Measurements.getMeasurements().reportStatus("VERIFY", right ? Status.OK : Status.UNEXPECTED_STATE);
  }

  /**
   * A key drawn as the app's getKeyToRead draws it: uniformly below the highest key written with
   * every key under it written; −1 when the phase stops before there is one.
   */
  private long drawWritten() {
    long max = written.lastValue();
    while (max < 0) { // nothing written yet: wait for the first key rather than spin
      if (isStopRequested()) {
        return -1;
      }
      LockSupport.parkNanos(1_000_000);
      max = written.lastValue();
    }
    return max == 0 ? 0 : ThreadLocalRandom.current().nextLong(max);
  }

  private static IndexRead indexReads(DB db) {
    if (db instanceof IndexRead i) {
      return i;
    }
    throw new UserError("SqlSecondaryIndex reads by value through an index, which only the YSQL binding does; run it "
        + "with --api ysql");
  }

  private Map<String, ByteIterator> value(long n) {
    Map<String, ByteIterator> v = new HashMap<>(2);
    if (sql) {
      v.put(valueColumn, new StringByteIterator("val:" + n));
    } else {
      v.put(valueColumn, new ByteArrayByteIterator(valueSize == 0 ? ("val:" + n).getBytes(StandardCharsets.UTF_8)
          : randomValue(n)));
    }
    return v;
  }

  /** AppBase.getRandomValue: marker, "val:n" above 16 bytes, random bytes, an Adler-32 checksum when there is room. */
  byte[] randomValue(long n) {
    byte[] out = new byte[valueSize];
    byte[] keyValue = ("val:" + n).getBytes(StandardCharsets.UTF_8);
    out[0] = ascii ? ASCII_MARKER : BINARY_MARKER;
    int checksumSize = ascii ? CHECKSUM_ASCII_SIZE : CHECKSUM_SIZE;
    boolean useChecksum = valueSize > checksumSize + 1;
    int contentSize = valueSize - (useChecksum ? checksumSize : 0);
    int i = 1;
    if (valueSize > VALUE_SIZE_TO_USE_PREFIX) {
      int prefixSize = Math.min(contentSize - 1, keyValue.length);
      System.arraycopy(keyValue, 0, out, 1, prefixSize);
      i += prefixSize;
    }
    ThreadLocalRandom random = ThreadLocalRandom.current();
    while (i < contentSize) {
      out[i++] = ascii ? (byte) (32 + random.nextInt(95)) : (byte) random.nextInt();
    }
    if (useChecksum) {
      Adler32 checksum = new Adler32();
      checksum.update(out, 0, contentSize);
      long cs = checksum.getValue();
      if (ascii) {
        String hex = Long.toHexString(cs);
        while (i < valueSize - hex.length()) {
          out[i++] = (byte) '0';
        }
        System.arraycopy(hex.getBytes(StandardCharsets.US_ASCII), 0, out, i, hex.length());
      } else {
        while (i < valueSize) {
          out[i++] = (byte) cs;
          cs >>= Byte.SIZE;
        }
      }
    }
    return out;
  }

  /** The app's check of a value read back for key n (Key.verify, AppBase.verifyRandomValue). */
  boolean verify(long n, byte[] value) {
    String expected = "val:" + n;
    if (sql || valueSize == 0) {
      String got = new String(value, StandardCharsets.UTF_8);
      // SqlUpdates' writers append ":<epoch millis>" (the app's own check then logs a mismatch and counts the read).
      return expected.equals(got) || updatesOnly && got.startsWith(expected + ":")
          && got.length() > expected.length() + 1
          && got.substring(expected.length() + 1).chars().allMatch(c -> c >= '0' && c <= '9');
    }
    if (value.length == 0) {
      return false;
    }
    boolean isAscii = value[0] == ASCII_MARKER;
    int checksumSize = isAscii ? CHECKSUM_ASCII_SIZE : CHECKSUM_SIZE;
    boolean hasChecksum = value.length > checksumSize + 1;
    if (value.length > VALUE_SIZE_TO_USE_PREFIX) {
      int prefixSize = Math.min(expected.length(), value.length - (hasChecksum ? checksumSize : 0) - 1);
      if (!new String(value, 1, prefixSize, StandardCharsets.UTF_8).equals(expected.substring(0, prefixSize))) {
        return false;
      }
    }
    if (hasChecksum) {
      Adler32 checksum = new Adler32();
      checksum.update(value, 0, value.length - checksumSize);
      long stored;
      if (isAscii) {
        stored = Long.parseUnsignedLong(new String(value, value.length - checksumSize, checksumSize,
            StandardCharsets.US_ASCII), 16);
      } else {
        stored = 0;
        for (int i = value.length - 1; i >= value.length - checksumSize; --i) {
          stored = (stored << Byte.SIZE) | (value[i] & 0xFF);
        }
      }
      return checksum.getValue() == stored;
    }
    return true;
  }
}
