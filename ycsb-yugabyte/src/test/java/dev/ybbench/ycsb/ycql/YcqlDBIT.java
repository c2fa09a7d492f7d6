package dev.ybbench.ycsb.ycql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.embedded.EmbeddedCassandra;
import dev.ybbench.ycsb.SharedCassandra;
import dev.ybbench.harness.metrics.Metrics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/** The YCQL binding against a real one-node Cassandra 5.0. */
class YcqlDBIT {
  private static EmbeddedCassandra cassandra;

  @BeforeAll
  static void startServer() {
    cassandra = SharedCassandra.node();
  }


  private static Properties props(String... kv) {
    Properties p = new Properties();
    p.setProperty(YcqlConfig.HOSTS, cassandra.hostList());
    p.setProperty(YcqlConfig.DIALECT, "CASSANDRA");
    p.setProperty(YcqlConfig.PARTITION_METADATA, "false");
    p.setProperty("fieldcount", "3");
    for (int i = 0; i < kv.length; i += 2) {
      p.setProperty(kv[i], kv[i + 1]);
    }
    return p;
  }

  private static YcqlDB open(Properties p, Metrics metrics) throws Exception {
    YcqlDB db = new YcqlDB();
    db.setProperties(p);
    db.setEvents(metrics);
    db.init();
    return db;
  }

  private static Map<String, ByteIterator> row(String... values) {
    Map<String, ByteIterator> m = new HashMap<>();
    for (int i = 0; i < values.length; i++) {
      m.put("field" + i, new StringByteIterator(values[i]));
    }
    return m;
  }

  private static Map<String, String> strings(Map<String, ByteIterator> m) {
    Map<String, String> out = new HashMap<>();
    m.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  @Test
  void detectsCassandraAndItsRelease() {
    ServerInfo info = YcqlSetup.detect(YcqlConfig.from(props()));
    assertEquals("Cassandra", info.product());
    assertEquals("5.0.9", info.version());
  }

  @Test
  void theFiveOperations() throws Exception {
    Properties p = props("table", "ops");
    YcqlSetup.createSchema(YcqlConfig.from(p), null, s -> { }, stop -> { }).close();
    YcqlDB db = open(p, new Metrics());
    assertEquals(Status.OK, db.insert("ops", "user1", row("a", "b", "c")));
    assertEquals(Status.OK, db.insert("ops", "user2", row("d", "e", "f")));

    Map<String, ByteIterator> read = new HashMap<>();
    assertEquals(Status.OK, db.read("ops", "user2", null, read));
    assertEquals(Map.of("field0", "d", "field1", "e", "field2", "f"), strings(read));
    Map<String, ByteIterator> one = new HashMap<>();
    assertEquals(Status.OK, db.read("ops", "user2", Set.of("field2"), one));
    assertEquals(Map.of("field2", "f"), strings(one));

    assertEquals(Status.OK, db.update("ops", "user2", Map.of("field1", new StringByteIterator("E"))));
    read.clear();
    db.read("ops", "user2", null, read);
    assertEquals("E", read.get("field1").toString());

    Vector<HashMap<String, ByteIterator>> scanned = new Vector<>();
    assertEquals(Status.OK, db.scan("ops", "user1", 10, null, scanned));
    assertTrue(scanned.size() >= 1 && scanned.size() <= 2, scanned.toString());

    assertEquals(Status.OK, db.delete("ops", "user2"));
    assertEquals(Status.NOT_FOUND, db.read("ops", "user2", null, new HashMap<>()));
    db.cleanup();
  }

  @Test
  void everyRecordOfAnAsynchronousLoadIsReadable(@TempDir Path work) throws Exception {
    Properties p = props("table", "loaded", YcqlConfig.IN_FLIGHT, "32");
    YcqlSetup.createSchema(YcqlConfig.from(p), null, s -> { }, stop -> { }).close();
    Metrics metrics = new Metrics();
    YcqlDB db = open(p, metrics);
    for (int i = 0; i < 2000; i++) {
      assertEquals(Status.BATCHED_OK, db.insert("loaded", "user" + i, row("v" + i, "x", "y")));
    }
    db.cleanup(); // waits for the writes still in flight
    assertEquals(0, metrics.errors());
    // Each write counts once it completed, with its round trip from the hand-over, not the hand-over alone.
    assertEquals(2000, metrics.operation("INSERT").successes());
    dev.ybbench.harness.metrics.PhaseRecorder recorder = new dev.ybbench.harness.metrics.PhaseRecorder("load",
        metrics, work, new dev.ybbench.harness.metrics.Timeseries(work.resolve("timeseries.csv")));
    recorder.close();
    org.HdrHistogram.Histogram written = recorder.totals().get("INSERT");
    assertEquals(2000, written.getTotalCount());
    assertTrue(written.getMinValue() >= 20, "a CQL write acknowledged in " + written.getMinValue() + " µs");
    YcqlDB reader = open(props("table", "loaded"), new Metrics());
    for (int i = 0; i < 2000; i++) {
      Map<String, ByteIterator> r = new HashMap<>();
      assertEquals(Status.OK, reader.read("loaded", "user" + i, null, r), "user" + i);
      assertEquals("v" + i, r.get("field0").toString());
    }
    reader.cleanup();
  }

  @Test
  void workloadEScanReadsOnePartitionInPostOrder() throws Exception {
    Properties p = props("table", "threads", "yb.layout", "hash-range", "yb.split", "10");
    YcqlSetup.createSchema(YcqlConfig.from(p), null, s -> { }, stop -> { }).close();
    YcqlDB db = open(p, new Metrics());
    List<Integer> keys = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      keys.add(i);
    }
    Collections.shuffle(keys, new java.util.Random(3));
    for (int k : keys) {
      assertEquals(Status.OK, db.insert("threads", "user" + k, row(Integer.toString(k), "", "")));
    }
    Vector<HashMap<String, ByteIterator>> scanned = new Vector<>();
    assertEquals(Status.OK, db.scan("threads", "user23", 100, Set.of("field0"), scanned));
    assertEquals(List.of("23", "24", "25", "26", "27", "28", "29"),
        scanned.stream().map(r -> r.get("field0").toString()).toList());
    scanned.clear();
    assertEquals(Status.OK, db.scan("threads", "user40", 3, null, scanned));
    assertEquals(List.of("40", "41", "42"), scanned.stream().map(r -> r.get("field0").toString()).toList());
    db.cleanup();
    try (CqlSession s = YcqlConfig.from(p).open()) {
      assertEquals(50, s.execute("SELECT count(*) FROM ycsb.threads").one().getLong(0));
    }
  }
}
