package dev.ybbench.ycsb.workload;

import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.RandomByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;
import site.ycsb.Utils;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;
import site.ycsb.generator.AcknowledgedCounterGenerator;
import site.ycsb.generator.ConstantIntegerGenerator;
import site.ycsb.generator.CounterGenerator;
import site.ycsb.generator.DiscreteGenerator;
import site.ycsb.generator.ExponentialGenerator;
import site.ycsb.generator.HistogramGenerator;
import site.ycsb.generator.HotspotIntegerGenerator;
import site.ycsb.generator.NumberGenerator;
import site.ycsb.generator.ScrambledZipfianGenerator;
import site.ycsb.generator.SequentialGenerator;
import site.ycsb.generator.UniformLongGenerator;
import site.ycsb.generator.ZipfianGenerator;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's CoreWorkload (0.17) with 64-bit key numbers, in its place whenever a workload file names
 * {@code site.ycsb.workloads.CoreWorkload}: the same properties with the same defaults, the same
 * generators, key names and values, so workload files mean what they mean in YCSB.
 *
 * <p>What differs, and why:
 * <ul>
 *   <li><b>64 bits.</b> CoreWorkload parses {@code insertcount} and {@code operationcount} as
 *       {@code int} and draws every key number through {@code intValue()}, so past 2,147,483,647
 *       keys it refuses to start or silently wraps (key 29,999,990,000 becomes −64,781,072): the
 *       published large data set has 30 billion keys. Here every count and key number is a long.
 *   <li><b>Clients sharing a table</b> ({@value #CLIENTS}, {@value #CLIENT_INDEX}): YCSB lets each
 *       client load a slice ({@code insertstart} / {@code insertcount}), but in the run phase every
 *       client numbers its new keys from {@code recordcount} up, so two clients insert the same
 *       keys. Client {@code i} of {@code n} turns its k-th new key into {@code recordcount + k·n +
 *       i} ({@link #ownKey}); with one client this is CoreWorkload exactly.
 *   <li><b>A load's keys from a checkpoint</b> ({@link #drawKeysFrom}), so that a crashed load can
 *       be resumed.
 *   <li><b>Separate reader and writer pools</b> ({@link Pool}): a reader does the mix's reads and
 *       scans in their proportions, a writer its inserts and updates.
 *   <li>Its bad values are errors before anything starts ({@code WorkloadCheck}), not {@code
 *       System.exit}; {@code requestdistribution=latest} computes ζ in closed form ({@link Zeta}).
 * </ul>
 */
public class CoreWorkload64 extends Workload implements PooledWorkload {
  /** How many clients share the table, and which one this is (0-based). */
  public static final String CLIENTS = "ybbench.clients";
  public static final String CLIENT_INDEX = "ybbench.client_index";

  /** The workload class names that mean this one: YCSB's own, and this. */
  public static boolean isCore(String workloadClass) {
    return workloadClass == null || workloadClass.equals(CoreWorkload.class.getName())
        || workloadClass.equals(CoreWorkload64.class.getName());
  }

  private String table;
  private List<String> fieldnames;
  private NumberGenerator fieldlengthgenerator;
  private boolean readallfields;
  private boolean writeallfields;
  private boolean dataintegrity;
  private boolean orderedinserts;
  private int zeropadding;
  private long recordcount;
  private int insertionRetryLimit;
  private int insertionRetryInterval;
  private NumberGenerator keysequence;
  private NumberGenerator keychooser;
  private NumberGenerator fieldchooser;
  private NumberGenerator scanlength;
  private AcknowledgedCounterGenerator transactioninsertkeysequence;
  /** The mix, and each pool's share of it. */
  private final Map<Pool, DiscreteGenerator> choosers = new LinkedHashMap<>();
  private final Map<Pool, List<String>> poolOperations = new LinkedHashMap<>();
  /** The operations' weights, as the proportions give them. */
  private final Map<String, Double> mix = new LinkedHashMap<>();
  private long clients = 1;
  private long clientIndex;
  private KeyDraws draws;
  /** What init made of the properties, setting by setting, for a plan printed before the run. */
  private final Map<String, String> settings = new LinkedHashMap<>();

  @Override
  public void init(Properties p) throws WorkloadException {
    table = p.getProperty(CoreWorkload.TABLENAME_PROPERTY, CoreWorkload.TABLENAME_PROPERTY_DEFAULT);
    long fieldcount = longProp(p, CoreWorkload.FIELD_COUNT_PROPERTY, CoreWorkload.FIELD_COUNT_PROPERTY_DEFAULT);
    String prefix = p.getProperty(CoreWorkload.FIELD_NAME_PREFIX, CoreWorkload.FIELD_NAME_PREFIX_DEFAULT);
    fieldnames = new ArrayList<>();
    for (int i = 0; i < fieldcount; i++) {
      fieldnames.add(prefix + i);
    }
    fieldlengthgenerator = fieldLengthGenerator(p);
    recordcount = longProp(p, "recordcount", "0");
    if (recordcount == 0) {
      recordcount = Integer.MAX_VALUE; // as CoreWorkload: 0 records means "no limit"
    }
    String requestdistrib = p.getProperty(CoreWorkload.REQUEST_DISTRIBUTION_PROPERTY,
        CoreWorkload.REQUEST_DISTRIBUTION_PROPERTY_DEFAULT);
    long minscanlength = longProp(p, CoreWorkload.MIN_SCAN_LENGTH_PROPERTY,
        CoreWorkload.MIN_SCAN_LENGTH_PROPERTY_DEFAULT);
    long maxscanlength = longProp(p, CoreWorkload.MAX_SCAN_LENGTH_PROPERTY,
        CoreWorkload.MAX_SCAN_LENGTH_PROPERTY_DEFAULT);
    String scanlengthdistrib = p.getProperty(CoreWorkload.SCAN_LENGTH_DISTRIBUTION_PROPERTY,
        CoreWorkload.SCAN_LENGTH_DISTRIBUTION_PROPERTY_DEFAULT);
    long insertstart = longProp(p, INSERT_START_PROPERTY, INSERT_START_PROPERTY_DEFAULT);
    long insertcount = longProp(p, INSERT_COUNT_PROPERTY, Long.toString(recordcount - insertstart));
    if (recordcount < insertstart + insertcount) {
      throw new WorkloadException("insertstart=" + insertstart + " plus insertcount=" + insertcount
          + " exceeds recordcount=" + recordcount);
    }
    zeropadding = (int) longProp(p, CoreWorkload.ZERO_PADDING_PROPERTY, CoreWorkload.ZERO_PADDING_PROPERTY_DEFAULT);
    readallfields = Boolean.parseBoolean(p.getProperty(CoreWorkload.READ_ALL_FIELDS_PROPERTY,
        CoreWorkload.READ_ALL_FIELDS_PROPERTY_DEFAULT));
    writeallfields = Boolean.parseBoolean(p.getProperty(CoreWorkload.WRITE_ALL_FIELDS_PROPERTY,
        CoreWorkload.WRITE_ALL_FIELDS_PROPERTY_DEFAULT));
    dataintegrity = Boolean.parseBoolean(p.getProperty(CoreWorkload.DATA_INTEGRITY_PROPERTY,
        CoreWorkload.DATA_INTEGRITY_PROPERTY_DEFAULT));
    if (dataintegrity && !p.getProperty(CoreWorkload.FIELD_LENGTH_DISTRIBUTION_PROPERTY,
        CoreWorkload.FIELD_LENGTH_DISTRIBUTION_PROPERTY_DEFAULT).equals("constant")) {
      throw new WorkloadException("dataintegrity=true needs fieldlengthdistribution=constant: the values it checks "
          + "are rebuilt from their key at the length written");
    }
    orderedinserts = !p.getProperty(CoreWorkload.INSERT_ORDER_PROPERTY, CoreWorkload.INSERT_ORDER_PROPERTY_DEFAULT)
        .equals("hashed");
    keysequence = new CounterGenerator(insertstart);
    operations(p);
    transactioninsertkeysequence = new AcknowledgedCounterGenerator(recordcount);
    keychooser = keyChooser(p, requestdistrib, insertstart, insertcount);
    fieldchooser = new UniformLongGenerator(0, fieldcount - 1);
    if (scanlengthdistrib.equals("uniform")) {
      scanlength = new UniformLongGenerator(minscanlength, maxscanlength);
    } else if (scanlengthdistrib.equals("zipfian")) {
      scanlength = new ZipfianGenerator(minscanlength, maxscanlength);
    } else {
      throw new WorkloadException("Distribution \"" + scanlengthdistrib + "\" not allowed for scan length");
    }
    insertionRetryLimit = (int) longProp(p, CoreWorkload.INSERTION_RETRY_LIMIT,
        CoreWorkload.INSERTION_RETRY_LIMIT_DEFAULT);
    insertionRetryInterval = (int) longProp(p, CoreWorkload.INSERTION_RETRY_INTERVAL,
        CoreWorkload.INSERTION_RETRY_INTERVAL_DEFAULT);
    clients = longProp(p, CLIENTS, "1");
    clientIndex = longProp(p, CLIENT_INDEX, "0");
    settings.put("table", table);
    settings.put("fields", String.join(",", fieldnames));
    String lengths = p.getProperty(CoreWorkload.FIELD_LENGTH_DISTRIBUTION_PROPERTY,
        CoreWorkload.FIELD_LENGTH_DISTRIBUTION_PROPERTY_DEFAULT);
    String length = p.getProperty(CoreWorkload.FIELD_LENGTH_PROPERTY, CoreWorkload.FIELD_LENGTH_PROPERTY_DEFAULT);
    settings.put("field_length", switch (lengths) {
      case "constant" -> "constant " + length;
      case "histogram" -> "histogram from " + p.getProperty(CoreWorkload.FIELD_LENGTH_HISTOGRAM_FILE_PROPERTY,
          CoreWorkload.FIELD_LENGTH_HISTOGRAM_FILE_PROPERTY_DEFAULT);
      default -> lengths + " " + p.getProperty(CoreWorkload.MIN_FIELD_LENGTH_PROPERTY,
          CoreWorkload.MIN_FIELD_LENGTH_PROPERTY_DEFAULT) + "…" + length;
    });
    settings.put("read_all_fields", Boolean.toString(readallfields));
    settings.put("write_all_fields", Boolean.toString(writeallfields));
    settings.put("data_integrity", Boolean.toString(dataintegrity));
    settings.put("keys", "user + " + (orderedinserts ? "the number" : "a hash of the number") + ", zero-padded to "
        + zeropadding + " digits; " + insertcount + " loaded from " + insertstart + " of " + recordcount);
    settings.put("request_distribution", requestdistrib + keyChooserDetail(p, requestdistrib));
    settings.put("scan_length", scanlengthdistrib + " " + minscanlength + "…" + maxscanlength);
    settings.put("mix", String.join(", ", mix.entrySet().stream().filter(e -> e.getValue() > 0)
        .map(e -> e.getKey().toLowerCase() + " " + e.getValue()).toList()));
    settings.put("insert_retries", insertionRetryLimit + " every " + insertionRetryInterval + " s");
    settings.put("clients", clientIndex + " of " + clients);
  }

  /** The distribution's own parameters, as the plan shows them. */
  private static String keyChooserDetail(Properties p, String dist) {
    return switch (dist) {
      case "exponential" -> " (percentile " + p.getProperty(ExponentialGenerator.EXPONENTIAL_PERCENTILE_PROPERTY,
          ExponentialGenerator.EXPONENTIAL_PERCENTILE_DEFAULT) + ", frac " + p.getProperty(
          ExponentialGenerator.EXPONENTIAL_FRAC_PROPERTY, ExponentialGenerator.EXPONENTIAL_FRAC_DEFAULT) + ")";
      case "hotspot" -> " (data " + p.getProperty(CoreWorkload.HOTSPOT_DATA_FRACTION,
          CoreWorkload.HOTSPOT_DATA_FRACTION_DEFAULT) + ", operations " + p.getProperty(
          CoreWorkload.HOTSPOT_OPN_FRACTION, CoreWorkload.HOTSPOT_OPN_FRACTION_DEFAULT) + ")";
      case "zipfian" -> " (room for " + p.getProperty("operationcount", "0") + " operations' inserts)";
      default -> "";
    };
  }

  /** What init made of the properties, setting by setting. */
  public Map<String, String> settings() {
    return settings;
  }

  private static NumberGenerator fieldLengthGenerator(Properties p) throws WorkloadException {
    String dist = p.getProperty(CoreWorkload.FIELD_LENGTH_DISTRIBUTION_PROPERTY,
        CoreWorkload.FIELD_LENGTH_DISTRIBUTION_PROPERTY_DEFAULT);
    long length = longProp(p, CoreWorkload.FIELD_LENGTH_PROPERTY, CoreWorkload.FIELD_LENGTH_PROPERTY_DEFAULT);
    long min = longProp(p, CoreWorkload.MIN_FIELD_LENGTH_PROPERTY, CoreWorkload.MIN_FIELD_LENGTH_PROPERTY_DEFAULT);
    String histogram = p.getProperty(CoreWorkload.FIELD_LENGTH_HISTOGRAM_FILE_PROPERTY,
        CoreWorkload.FIELD_LENGTH_HISTOGRAM_FILE_PROPERTY_DEFAULT);
    switch (dist) {
      case "constant":
        return new ConstantIntegerGenerator((int) length);
      case "uniform":
        return new UniformLongGenerator(min, length);
      case "zipfian":
        return new ZipfianGenerator(min, length);
      case "histogram":
        try {
          return new HistogramGenerator(histogram);
        } catch (IOException e) {
          throw new WorkloadException("Couldn't read field length histogram file: " + histogram, e);
        }
      default:
        throw new WorkloadException("Unknown field length distribution \"" + dist + "\"");
    }
  }

  /** CoreWorkload's generators with 64-bit bounds (each of them takes longs; CoreWorkload's casts were the limit). */
  private NumberGenerator keyChooser(Properties p, String dist, long insertstart, long insertcount)
      throws WorkloadException {
    switch (dist) {
      case "uniform":
        return new UniformLongGenerator(insertstart, insertstart + insertcount - 1);
      case "exponential":
        double percentile = Double.parseDouble(p.getProperty(ExponentialGenerator.EXPONENTIAL_PERCENTILE_PROPERTY,
            ExponentialGenerator.EXPONENTIAL_PERCENTILE_DEFAULT));
        double frac = Double.parseDouble(p.getProperty(ExponentialGenerator.EXPONENTIAL_FRAC_PROPERTY,
            ExponentialGenerator.EXPONENTIAL_FRAC_DEFAULT));
        return new ExponentialGenerator(percentile, recordcount * frac);
      case "sequential":
        return new SequentialGenerator(insertstart, insertstart + insertcount - 1);
      case "zipfian":
        // Room for the keys the run will insert, so that they do not shift which keys are popular (CoreWorkload's
        // comment); operationcount sizes it, read as a long here.
        double insertproportion = Double.parseDouble(p.getProperty(CoreWorkload.INSERT_PROPORTION_PROPERTY,
            CoreWorkload.INSERT_PROPORTION_PROPERTY_DEFAULT));
        long opcount = longProp(p, "operationcount", "0");
        long expectednewkeys = (long) (opcount * insertproportion * 2.0); // 2 is CoreWorkload's fudge factor
        return new ScrambledZipfianGenerator(insertstart, insertstart + insertcount + expectednewkeys);
      case "latest":
        return new LatestGenerator(transactioninsertkeysequence);
      case "hotspot":
        double hotsetfraction = Double.parseDouble(p.getProperty(CoreWorkload.HOTSPOT_DATA_FRACTION,
            CoreWorkload.HOTSPOT_DATA_FRACTION_DEFAULT));
        double hotopnfraction = Double.parseDouble(p.getProperty(CoreWorkload.HOTSPOT_OPN_FRACTION,
            CoreWorkload.HOTSPOT_OPN_FRACTION_DEFAULT));
        return new HotspotIntegerGenerator(insertstart, insertstart + insertcount - 1, hotsetfraction, hotopnfraction);
      default:
        throw new WorkloadException("Unknown request distribution \"" + dist + "\"");
    }
  }

  /** The mix, and for each pool the operations of its kind in their proportions. */
  private void operations(Properties p) {
    mix.put("READ", proportion(p, CoreWorkload.READ_PROPORTION_PROPERTY,
        CoreWorkload.READ_PROPORTION_PROPERTY_DEFAULT));
    mix.put("UPDATE", proportion(p, CoreWorkload.UPDATE_PROPORTION_PROPERTY,
        CoreWorkload.UPDATE_PROPORTION_PROPERTY_DEFAULT));
    mix.put("INSERT", proportion(p, CoreWorkload.INSERT_PROPORTION_PROPERTY,
        CoreWorkload.INSERT_PROPORTION_PROPERTY_DEFAULT));
    mix.put("SCAN", proportion(p, CoreWorkload.SCAN_PROPORTION_PROPERTY,
        CoreWorkload.SCAN_PROPORTION_PROPERTY_DEFAULT));
    mix.put("READMODIFYWRITE", proportion(p, CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY,
        CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY_DEFAULT));
    for (Pool pool : Pool.values()) {
      DiscreteGenerator chooser = new DiscreteGenerator();
      List<String> ops = new ArrayList<>();
      mix.forEach((op, weight) -> {
        if (weight > 0 && (pool == Pool.MIX || pool == Pool.of(op))) {
          chooser.addValue(weight, op);
          ops.add(op);
        }
      });
      choosers.put(pool, chooser);
      poolOperations.put(pool, ops);
    }
  }

  @Override
  public void checkPool(Pool pool) {
    if (poolOperations.get(pool).isEmpty()) {
      throw new UserError("the " + pool.label() + " would have nothing to do: the workload's " + (pool == Pool.READ
          ? "readproportion and scanproportion are" : "updateproportion, insertproportion and "
              + "readmodifywriteproportion are") + " 0");
    }
    if (pool != Pool.MIX && poolOperations.get(pool).contains("READMODIFYWRITE")) {
      // It reads and writes one key: in a pool of writers its read would be counted beside the readers' reads.
      throw new UserError("readmodifywriteproportion is both a read and a write, so it has no place in separate "
          + "reader and writer pools; give its share to readproportion and updateproportion");
    }
  }

  @Override
  public Object initThread(Properties p, int threadId, int threadCount) {
    return choosers.get(Pool.MIX);
  }

  @Override
  public Object initThread(Properties p, int threadId, int threadCount, Pool pool) {
    return choosers.get(pool);
  }

  /** The load draws its key numbers from {@code source}, which then knows which keys are in. */
  public void drawKeysFrom(KeyDraws source) {
    this.draws = source;
    keysequence = source.keys(k -> keyName(ownKey(k, recordcount, clients, clientIndex)));
  }

  /** The row key of key number {@code keynum}, as this client names it. */
  public String buildKeyName(long keynum) {
    String drawn = draws == null ? null : draws.drawnName(keynum);
    return drawn != null ? drawn : keyName(ownKey(keynum, recordcount, clients, clientIndex));
  }

  /** CoreWorkload's key name: "user" and the number (hashed unless insertorder=ordered), zero-padded. */
  private String keyName(long keynum) {
    if (!orderedinserts) {
      keynum = Utils.hash(keynum);
    }
    String value = Long.toString(keynum);
    int fill = zeropadding - value.length();
    StringBuilder key = new StringBuilder(4 + Math.max(fill, 0) + value.length()).append("user");
    for (int i = 0; i < fill; i++) {
      key.append('0');
    }
    return key.append(value).toString();
  }

  /** The key number a run-phase insert numbered {@code keynum} becomes for client {@code index} of {@code clients}. */
  public static long ownKey(long keynum, long recordcount, long clients, long index) {
    return keynum < recordcount ? keynum : recordcount + (keynum - recordcount) * clients + index;
  }

  /**
   * Client {@code index}'s share of the {@code count} keys from {@code start} that the clients
   * load: {@code [start + ⌊count·index/clients⌋, start + ⌊count·(index+1)/clients⌋)}, as
   * {start, count}. The shares cover the range exactly, none overlapping.
   */
  public static long[] slice(long start, long count, int clients, int index) {
    long from = Math.multiplyExact(count, (long) index) / clients;
    long to = Math.multiplyExact(count, (long) index + 1) / clients;
    return new long[] {start + from, to - from};
  }

  @Override
  public boolean doInsert(DB db, Object threadstate) {
    long keynum = keysequence.nextValue().longValue();
    String dbkey = buildKeyName(keynum);
    HashMap<String, ByteIterator> values = buildValues(dbkey);
    Status status;
    int retries = 0;
    while (true) {
      status = db.insert(table, dbkey, values);
      if (status != null && status.isOk()) {
        break;
      }
      // CoreWorkload's own retry of a load's insert (core_workload_insertion_retry_limit, 0 by default), on top of
      // the binding's retries of errors it knows to be retryable.
      if (++retries > insertionRetryLimit) {
        break;
      }
      try {
        Thread.sleep((long) (1000 * insertionRetryInterval * (0.8 + 0.4 * Math.random())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return status != null && status.isOk();
  }

  @Override
  public boolean doTransaction(DB db, Object threadstate) {
    DiscreteGenerator chooser = threadstate instanceof DiscreteGenerator d ? d : choosers.get(Pool.MIX);
    String operation = chooser.nextString();
    if (operation == null) {
      return false;
    }
    switch (operation) {
      case "READ" -> doTransactionRead(db);
      case "UPDATE" -> doTransactionUpdate(db);
      case "INSERT" -> doTransactionInsert(db);
      case "SCAN" -> doTransactionScan(db);
      default -> doTransactionReadModifyWrite(db);
    }
    return true;
  }

  /** A key number among those written so far, by the request distribution. */
  long nextKeynum() {
    long keynum;
    if (keychooser instanceof ExponentialGenerator) {
      do {
        keynum = transactioninsertkeysequence.lastValue() - keychooser.nextValue().longValue();
      } while (keynum < 0);
    } else {
      do {
        keynum = keychooser.nextValue().longValue();
      } while (keynum > transactioninsertkeysequence.lastValue());
    }
    return keynum;
  }

  private void doTransactionRead(DB db) {
    String keyname = buildKeyName(nextKeynum());
    Set<String> fields = null;
    if (!readallfields) {
      fields = new HashSet<>(List.of(randomField()));
    } else if (dataintegrity) {
      fields = new HashSet<>(fieldnames); // every field, to verify each
    }
    HashMap<String, ByteIterator> cells = new HashMap<>();
    db.read(table, keyname, fields, cells);
    if (dataintegrity) {
      verifyRow(keyname, cells);
    }
  }

  private void doTransactionReadModifyWrite(DB db) {
    String keyname = buildKeyName(nextKeynum());
    Set<String> fields = readallfields ? null : new HashSet<>(List.of(randomField()));
    HashMap<String, ByteIterator> values = writeallfields ? buildValues(keyname) : buildSingleValue(keyname);
    HashMap<String, ByteIterator> cells = new HashMap<>();
    db.read(table, keyname, fields, cells);
    db.update(table, keyname, values);
    if (dataintegrity) {
      verifyRow(keyname, cells);
    }
  }

  private void doTransactionScan(DB db) {
    String startkeyname = buildKeyName(nextKeynum());
    int len = scanlength.nextValue().intValue();
    Set<String> fields = readallfields ? null : new HashSet<>(List.of(randomField()));
    db.scan(table, startkeyname, len, fields, new Vector<>());
  }

  private void doTransactionUpdate(DB db) {
    String keyname = buildKeyName(nextKeynum());
    db.update(table, keyname, writeallfields ? buildValues(keyname) : buildSingleValue(keyname));
  }

  private void doTransactionInsert(DB db) {
    long keynum = transactioninsertkeysequence.nextValue();
    try {
      String dbkey = buildKeyName(keynum);
      db.insert(table, dbkey, buildValues(dbkey));
    } finally {
      transactioninsertkeysequence.acknowledge(keynum);
    }
  }

  private String randomField() {
    return fieldnames.get(fieldchooser.nextValue().intValue());
  }

  private HashMap<String, ByteIterator> buildSingleValue(String key) {
    HashMap<String, ByteIterator> value = new HashMap<>();
    String field = randomField();
    value.put(field, value(key, field));
    return value;
  }

  private HashMap<String, ByteIterator> buildValues(String key) {
    HashMap<String, ByteIterator> values = new HashMap<>();
    for (String field : fieldnames) {
      values.put(field, value(key, field));
    }
    return values;
  }

  private ByteIterator value(String key, String field) {
    return dataintegrity ? new StringByteIterator(buildDeterministicValue(key, field))
        : new RandomByteIterator(fieldlengthgenerator.nextValue().longValue());
  }

  /** CoreWorkload's checkable value: the key, the field, and hash codes, to the field length. */
  private String buildDeterministicValue(String key, String field) {
    int size = fieldlengthgenerator.nextValue().intValue();
    StringBuilder sb = new StringBuilder(size);
    sb.append(key).append(':').append(field);
    while (sb.length() < size) {
      sb.append(':').append(sb.toString().hashCode());
    }
    sb.setLength(size);
    return sb.toString();
  }

  /**
   * CoreWorkload's check of a read under {@code dataintegrity}, reported as YCSB reports it: to
   * its Measurements as operation VERIFY, which the runner reads and counts (client/Verifications).
   */
  private void verifyRow(String key, HashMap<String, ByteIterator> cells) {
    Status verifyStatus = Status.OK;
    long startTime = System.nanoTime();
    if (!cells.isEmpty()) {
      for (Map.Entry<String, ByteIterator> entry : cells.entrySet()) {
        if (!entry.getValue().toString().equals(buildDeterministicValue(key, entry.getKey()))) {
          verifyStatus = Status.UNEXPECTED_STATE;
          break;
        }
      }
    } else {
      verifyStatus = Status.ERROR; // no data is never valid
    }
    Measurements measurements = Measurements.getMeasurements(); // set up by the phase before the threads start
    measurements.measure("VERIFY", (int) ((System.nanoTime() - startTime) / 1000));
    measurements.reportStatus("VERIFY", verifyStatus);
  }

  private static double proportion(Properties p, String name, String dflt) {
    return Double.parseDouble(p.getProperty(name, dflt).strip());
  }

  /** A whole number; WorkloadCheck refuses a bad one before anything starts, this names it should one get here. */
  static long longProp(Properties p, String name, String dflt) {
    String v = p.getProperty(name, dflt).strip();
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new UserError(name + "=" + v + " is not a whole number");
    }
  }
}
