package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedCassandra;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.ycsb.ycql.YcqlConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.Adler32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The published experiments' yb-sample-apps command lines, copied as published except that
 * {@code --nodes} names a server the test started and {@code --run_time 3} bounds them, run
 * against real servers: each ends complete, writes the app's keys and values into the app's
 * table, and reads back only what was written, every value checked. CassandraBatchKeyValue's
 * writes are whole LOGGED batches, each counted as its rows and timed once.
 */
class SampleAppsRunIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UUID = "00000000-0000-0000-0000-000000000001";

  @TempDir
  Path results;

  record Outcome(String out, Path runDir) {
    JsonNode run() throws Exception {
      return JSON.readTree(runDir.resolve("summary.json").toFile()).at("/phases/run");
    }

    long successes(String op) throws Exception {
      return successes("run", op);
    }

    long successes(String phase, String op) throws Exception {
      return JSON.readTree(runDir.resolve("summary.json").toFile()).at("/phases/" + phase + "/operations/" + op
          + "/successes").asLong();
    }

    /** Reads whose value was checked against what was written, all matching (else fails). */
    long checkedReads() {
      Matcher m = Pattern.compile("Data integrity \\(run\\): (\\d+) reads checked against what was written, "
          + "(\\d+) did not match").matcher(out);
      assertTrue(m.find(), out);
      assertEquals("0", m.group(2), "no value read differs from what was written: " + out);
      return Long.parseLong(m.group(1));
    }

    /** The batch statements of {@code phase}: how many, and their latency. */
    JsonNode batches(String phase) throws Exception {
      return JSON.readTree(runDir.resolve("summary.json").toFile()).at("/phases/" + phase + "/batches/INSERT");
    }
  }

  private Outcome run(String line) {
    return run(line, 0);
  }

  private Outcome run(String line, int exitCode) {
    List<String> all = new ArrayList<>(List.of(line.split(" ")));
    all.addAll(List.of("--results-dir", results.toString(), "--no-install"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = cmd.execute(all.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    System.out.println(printed.lines().filter(l -> !l.startsWith("[READ]") && !l.startsWith("[INSERT]"))
        .reduce("", (a, b) -> a + b + "\n"));
    assertEquals(exitCode, rc, printed);
    assertTrue(printed.startsWith("As ybbench: ./run_ycsb.sh "), "the first line is the run in ybbench's words");
    return new Outcome(printed, cmd.runDirectory());
  }

  /**
   * The 100-node YSQL post's two commands: 400 writers inserting new keys under one uuid, then 400
   * readers over the keys written (its --max_written_key, here the count the write reached).
   */
  @Test
  void sqlInsertsWritesThenReadsOnly() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 450, System.out::println)) {
      Outcome write = run("--workload SqlInserts --nodes " + pg.hostPort() + " --num_unique_keys 5000000000 "
          + "--num_threads_write 400 --num_threads_read 0 --uuid " + UUID + " --run_time 3");
      long inserts = write.successes("INSERT");
      assertTrue(inserts > 0, write.run().toString());
      assertTrue(write.run().at("/operations/READ").isMissingNode(), "no readers");
      String url = "jdbc:postgresql://" + pg.hostPort() + "/postgres";
      try (Connection c = DriverManager.getConnection(url, "postgres", "");
          ResultSet rs = c.createStatement().executeQuery("SELECT count(*), count(*) FILTER (WHERE v = 'val:' "
              + "|| split_part(k, ':', 2)), count(*) FILTER (WHERE k LIKE '" + UUID + ":%'), "
              + "max(split_part(k, ':', 2)::bigint) FROM postgresqlkeyvalue")) {
        rs.next();
        assertEquals(inserts, rs.getLong(1), "every insert counted is a row");
        assertEquals(inserts, rs.getLong(2), "each value is 'val:' and its key's number");
        assertEquals(inserts, rs.getLong(3), "each key is the client's uuid and a number");
        assertEquals(inserts - 1, rs.getLong(4), "keys 0 … n-1, none skipped");
      }
      Outcome read = run("--workload SqlInserts --nodes " + pg.hostPort() + " --max_written_key " + inserts
          + " --num_writes 0 --num_reads 50000000000 --num_threads_write 0 --num_threads_read 400 --read_only "
          + "--uuid " + UUID + " --run_time 3");
      assertTrue(read.successes("READ") > 0, read.run().toString());
      assertEquals(0, read.run().get("errors").asLong(), "every key read was there: " + read.run());
      assertTrue(read.run().at("/operations/INSERT").isMissingNode(), "read only");
      assertTrue(read.out().contains("Data integrity (run): ") && read.out().contains(", 0 did not match"),
          read.out());
    }
  }

  /**
   * The YCQL runs: the large data set's load (256 writers and one reader at once, 256-byte values
   * over 30 billion keys), and the 25 → 50 node post's shape, 40-byte keys (a uuid and a number)
   * and 16-byte values written, then read by readers alone.
   */
  @Test
  void cassandraKeyValueWritersAndReaders() throws Exception {
    EmbeddedCassandra cassandra = SharedCassandra.node();
    String nodes = cassandra.hostList();
    Outcome load = run("--workload CassandraKeyValue --nouuid --nodes " + nodes + " --value_size 256 "
        + "--num_unique_keys 30000000000 --num_writes 30000000000 --num_threads_write 256 --num_threads_read 1 "
        + "--run_time 3");
    assertTrue(load.successes("INSERT") > 0 && load.successes("READ") > 0, "both pools: " + load.run());
    assertEquals(0, load.run().get("errors").asLong(), load.run().toString());
    assertEquals(List.of(256), valueSizes(nodes, "key:"));

    String uuid = "6f1c2a9e-0b7d-4e55-9a31-2c8d0f4b7e10";
    Outcome write = run("--workload CassandraKeyValue --nodes " + nodes + " --uuid " + uuid + " --value_size 16 "
        + "--num_threads_write 8 --num_threads_read 0 --run_time 3");
    long written = write.successes("INSERT");
    Outcome read = run("--workload CassandraKeyValue --nodes " + nodes + " --uuid " + uuid + " --value_size 16 "
        + "--read_only --max_written_key " + written + " --num_threads_read 32 --run_time 3");
    assertTrue(read.successes("READ") > 0, read.run().toString());
    assertEquals(0, read.run().get("errors").asLong(), "every read found its key, every value checked: "
        + read.run());
    assertEquals(List.of(16), valueSizes(nodes, uuid));
  }

  /**
   * The YCQL key-value page's batch run (its --nouuid as a --uuid, so that its rows are counted
   * apart from the other tests'): 64 writers, each write one LOGGED batch of 25 rows of 256 bytes.
   * Every batch is whole: the rows counted are the rows in the table, 25 per batch, keys 0 … n−1,
   * each value the app's; one latency per batch in summary.json. Then the app's defaults, readers
   * and writers at once, batches of 10, every value read checked; and readers alone, after the
   * app's setup, 100,000 keys written by 8 threads in its batches (a uuid of their own: the other
   * tests' keys are left as they wrote them).
   */
  @Test
  void cassandraBatchKeyValueWritesWholeBatches() throws Exception {
    EmbeddedCassandra cassandra = SharedCassandra.node();
    String nodes = cassandra.hostList();
    String uuid = "2b0c6a9d-5e3f-4c1a-8d7e-0f9a1b2c3d4e";
    Outcome write = run("--workload CassandraBatchKeyValue --nodes " + nodes + " --uuid " + uuid + " --batch_size 25 "
        + "--value_size 256 --num_threads_read 0 --num_threads_write 64 --num_unique_keys 1000000000 --run_time 3");
    long rows = write.successes("INSERT");
    JsonNode batches = write.batches("run");
    assertTrue(rows > 0, write.run().toString());
    assertEquals(0, write.run().get("errors").asLong(), write.run().toString());
    assertEquals(rows, 25 * batches.get("successes").asLong(), "every batch is 25 rows: " + write.run());
    assertEquals(batches.get("successes").asLong(), batches.at("/latency_us/count").asLong(), "one latency a batch");
    assertTrue(batches.at("/latency_us/p50").asDouble() > 0, batches.toString());
    assertTrue(write.out().contains("INSERT-BATCH"), "the report says what a batch took: " + write.out());
    assertEquals(batches.get("successes").asLong(), write.run().at("/server/server_statements").asLong(),
        "Cassandra coordinated each batch as one write, and the audit counts the batches: " + write.run());
    assertEquals(0.0, write.run().at("/server/delta_pct").asDouble(), write.run().toString());
    assertEquals(List.of(rows, rows, rows - 1), keysWritten(nodes, uuid), "the rows counted are the table's, "
        + "keys 0 … n-1, every value the app's 256 bytes for its key");

    Outcome both = run("--workload CassandraBatchKeyValue --nodes " + nodes + " --run_time 3");
    long inserts = both.successes("INSERT");
    assertTrue(inserts > 0 && both.successes("READ") > 0, "both pools: " + both.run());
    assertEquals(0, inserts % 10, "the app's batches of 10: " + inserts);
    assertEquals(inserts / 10, both.batches("run").get("successes").asLong());
    assertEquals(both.successes("READ"), both.checkedReads(), "every value read was checked");
    assertEquals(0, both.run().get("errors").asLong(), both.run().toString());

    Outcome read = run("--workload CassandraBatchKeyValue --nodes " + nodes + " --uuid " + uuid.replace('2', '3')
        + " --batch_size 100 --num_threads_write 0 --num_threads_read 8 --num_reads 2000 --run_time 60");
    assertEquals(100_000, read.successes("load", "INSERT"), "the app's setup writes 100,000 keys");
    assertEquals(1_000, read.batches("load").get("successes").asLong(), "in its batches of 100");
    assertTrue(read.out().contains("with 8 threads (rows per LOGGED batch: 100)"), read.out());
    assertEquals(2_000, read.successes("READ"), read.run().toString());
    assertEquals(2_000, read.checkedReads(), "every value read was checked");
    assertEquals(0, read.run().get("errors").asLong(), read.run().toString());
  }

  /**
   * A batch the server refuses (Cassandra's batch_size_fail_threshold, 50 KiB; here 200 rows of 512
   * bytes) fails whole: each of its rows is an error of the batch's class, none a success, and no
   * batch is timed; with nothing written the run fails.
   */
  @Test
  void aRefusedBatchIsAnErrorForEachOfItsRows() throws Exception {
    String nodes = SharedCassandra.node().hostList();
    Outcome o = run("--workload CassandraBatchKeyValue --nodes " + nodes + " --batch_size 200 --value_size 512 "
        + "--num_threads_read 0 --num_threads_write 1 --num_writes 1000", 1);
    JsonNode insert = o.run().at("/operations/INSERT");
    assertEquals(0, insert.get("successes").asLong(), insert.toString());
    assertEquals(1000, insert.get("errors").asLong(), "5 batches of 200 rows, every row an error: " + insert);
    assertTrue(o.batches("run").isMissingNode(), "a failed batch is not timed as one: " + o.run());
    assertTrue(o.out().contains("first INSERT error"), o.out());
  }

  /**
   * The xCluster pages' SqlSecondaryIndex: the app's table and index, its writers' INSERTs and its
   * readers' reads by value through the index, each finding exactly its key's row; the audit is
   * exact. Then, with the keys run out, its INSERTs of existing keys fail as duplicates, each
   * counted as that error, as the app's do, and the run says failed.
   */
  @Test
  void sqlSecondaryIndexReadsByValueThroughItsIndex() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println)) {
      String uuid = "5a1e3c00-0000-4000-8000-000000000001";
      Outcome o = run("--workload SqlSecondaryIndex --nodes " + pg.hostPort() + " --uuid " + uuid + " --num_writes "
          + "500 --num_reads 2000 --run_time 120");
      assertEquals(500, o.successes("INSERT"), o.run().toString());
      assertEquals(2000, o.successes("READ"), o.run().toString());
      assertEquals(2000, o.checkedReads(), "every read by value found exactly its key's row");
      assertEquals(0, o.run().get("errors").asLong(), o.run().toString());
      assertEquals(0.0, o.run().at("/server/delta_pct").asDouble(), "the audit: " + o.run());
      assertTrue(o.out().contains("Schema: CREATE INDEX IF NOT EXISTS sqlsecondaryindex_index ON sqlsecondaryindex "
          + "(v)"), o.out());
      String url = "jdbc:postgresql://" + pg.hostPort() + "/postgres";
      try (Connection c = DriverManager.getConnection(url, "postgres", "")) {
        ResultSet rs = c.createStatement().executeQuery("SELECT indexdef FROM pg_indexes WHERE indexname = "
            + "'sqlsecondaryindex_index'");
        assertTrue(rs.next(), "the app's index");
        assertEquals("CREATE INDEX sqlsecondaryindex_index ON public.sqlsecondaryindex USING btree (v)",
            rs.getString(1));
        rs = c.createStatement().executeQuery("SELECT count(*), count(*) FILTER (WHERE v = 'val:' || "
            + "split_part(k, ':', 2)) FROM sqlsecondaryindex");
        rs.next();
        assertEquals(List.of(500L, 500L), List.of(rs.getLong(1), rs.getLong(2)), "each row the app's key and value");
        rs = c.createStatement().executeQuery("SELECT calls FROM pg_stat_statements WHERE query = "
            + "'SELECT k, v FROM sqlsecondaryindex WHERE v = $1'");
        assertTrue(rs.next(), "the reads are the app's SELECT by value");
        assertEquals(2000, rs.getLong(1));
      }

      Outcome dup = run("--workload SqlSecondaryIndex --nodes " + pg.hostPort() + " --uuid " + uuid.replace('1', '2')
          + " --num_unique_keys 50 --num_writes 80 --num_threads_read 0", 1);
      JsonNode insert = dup.run().at("/operations/INSERT");
      assertEquals(50, insert.get("successes").asLong(), insert.toString());
      assertEquals(30, insert.get("errors").asLong(), "once the 50 keys are in, each INSERT is a duplicate: " + insert);
      assertTrue(dup.out().contains("duplicate key value violates unique constraint"), dup.out());
    }
  }

  /**
   * SqlUpdates as its help gives it: SqlInserts under a uuid first, then SqlUpdates with that uuid
   * and --max_written_key. Its writers update only those keys, to val:n:<epoch millis>, and its
   * readers accept that value; nothing is inserted, and the audit is exact. Without the table it
   * fails before it starts.
   */
  @Test
  void sqlUpdatesUpdatesTheKeysSqlInsertsWrote() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println)) {
      String uuid = "ffffffff-ffff-ffff-ffff-ffffffffffff";
      Outcome missing = run("--workload SqlUpdates --nodes " + pg.hostPort() + " --uuid " + uuid
          + " --max_written_key 999", 1);
      assertTrue(missing.out().contains("table postgresqlkeyvalue does not exist"), missing.out());
      Outcome inserts = run("--workload SqlInserts --nodes " + pg.hostPort() + " --uuid " + uuid + " --num_writes "
          + "1000 --num_reads 0");
      assertEquals(1000, inserts.successes("INSERT"));
      long started = System.currentTimeMillis();
      Outcome o = run("--workload SqlUpdates --nodes " + pg.hostPort() + " --uuid " + uuid + " --max_written_key 999 "
          + "--num_writes 3000 --num_reads 2000 --run_time 120");
      assertEquals(3000, o.successes("UPDATE"), o.run().toString());
      assertTrue(o.run().at("/operations/INSERT").isMissingNode(), "nothing inserted: " + o.run());
      assertEquals(2000, o.successes("READ"), o.run().toString());
      assertEquals(2000, o.checkedReads(), "every value read was the key's, updated or not");
      assertEquals(0, o.run().get("errors").asLong(), o.run().toString());
      assertEquals(0.0, o.run().at("/server/delta_pct").asDouble(), "the audit: " + o.run());
      String url = "jdbc:postgresql://" + pg.hostPort() + "/postgres";
      try (Connection c = DriverManager.getConnection(url, "postgres", "");
          ResultSet rs = c.createStatement().executeQuery("SELECT count(*), count(*) FILTER (WHERE v LIKE 'val:' || "
              + "split_part(k, ':', 2) || ':%'), min(split_part(v, ':', 3)::bigint) FILTER (WHERE v LIKE 'val:%:%'), "
              + "max(split_part(k, ':', 2)::bigint) FILTER (WHERE v LIKE 'val:%:%') FROM postgresqlkeyvalue")) {
        // Key 999 (--max_written_key) keeps SqlInserts' value: the app draws below it.
        rs.next();
        assertEquals(1000, rs.getLong(1), "no row added");
        long updated = rs.getLong(2);
        // 3,000 draws over 999 keys leave about 49 untouched (999 × (998/999)^3000).
        assertTrue(updated > 900 && updated < 999, "most keys updated, each to its own value and a time: " + updated);
        assertTrue(rs.getLong(3) >= started, "the time of the update");
        assertTrue(rs.getLong(4) < 999, "only keys below --max_written_key, as the app draws them: " + rs.getLong(4));
      }
    }
  }

  /**
   * CassandraRangeKeyValue: the app's ((k), r1, r2, r3) table, each range column holding the key;
   * reads by the whole key, every value checked; once the keys run out, the writers overwrite.
   */
  @Test
  void cassandraRangeKeyValueReadsByTheWholeKey() throws Exception {
    String nodes = SharedCassandra.node().hostList();
    String uuid = "4c3b2a10-0000-4000-8000-00000000abcd";
    Outcome o = run("--workload CassandraRangeKeyValue --nodes " + nodes + " --uuid " + uuid + " --num_unique_keys "
        + "300 --num_writes 500 --num_reads 2000 --num_threads_read 4 --run_time 120");
    assertEquals(300, o.successes("INSERT"), o.run().toString());
    assertEquals(200, o.successes("UPDATE"), "then the writers overwrite: " + o.run());
    assertEquals(2000, o.successes("READ"), o.run().toString());
    assertEquals(2000, o.checkedReads(), "every value read was checked");
    assertEquals(0, o.run().get("errors").asLong(), o.run().toString());
    assertEquals(0.0, o.run().at("/server/delta_pct").asDouble(), "the audit: " + o.run());
    Properties p = new Properties();
    p.setProperty(YcqlConfig.HOSTS, nodes);
    p.setProperty(YcqlConfig.PARTITION_METADATA, "false");
    try (CqlSession s = YcqlConfig.from(p).open()) {
      assertEquals(List.of("k", "r1", "r2", "r3"), s.getMetadata().getKeyspace("ybdemo_keyspace").orElseThrow()
          .getTable("cassandrarangekeyvalue").orElseThrow().getPrimaryKey().stream()
          .map(c -> c.getName().asInternal()).toList(), "the partition key then three clustering columns");
      long rows = 0;
      for (Row r : s.execute("SELECT k, r1, r2, r3, v FROM ybdemo_keyspace.cassandrarangekeyvalue")) {
        String k = r.getString(0);
        if (!k.startsWith(uuid)) {
          continue;
        }
        rows++;
        assertEquals(List.of(k, k, k), List.of(r.getString(1), r.getString(2), r.getString(3)), "each holds the key");
        assertEquals("val:" + k.substring(uuid.length() + 1), StandardCharsets.UTF_8.decode(r.getByteBuffer(4))
            .toString());
      }
      assertEquals(300, rows, "one row a key");
    }
  }

  /**
   * Of the keys with {@code prefix}: how many rows, how many whose value is the app's 256 bytes for
   * their key (the marker, {@code val:n}, an Adler-32 of the rest), and the highest key number.
   */
  private static List<Long> keysWritten(String nodes, String prefix) {
    Properties p = new Properties();
    p.setProperty(YcqlConfig.HOSTS, nodes);
    p.setProperty(YcqlConfig.PARTITION_METADATA, "false");
    try (CqlSession s = YcqlConfig.from(p).open()) {
      long count = 0;
      long good = 0;
      long max = -1;
      for (Row r : s.execute("SELECT k, v FROM ybdemo_keyspace.cassandrakeyvalue")) {
        String k = r.getString(0);
        if (!k.startsWith(prefix + ":")) {
          continue;
        }
        long n = Long.parseLong(k.substring(prefix.length() + 1));
        count++;
        max = Math.max(max, n);
        ByteBuffer v = r.getByteBuffer(1);
        byte[] bytes = new byte[v.remaining()];
        v.get(bytes);
        if (bytes.length != 256) {
          continue;
        }
        // AppBase's layout: 'B', "val:n", random bytes, then the Adler-32 of all before it, low byte first.
        Adler32 checksum = new Adler32();
        checksum.update(bytes, 0, 252);
        long stored = (bytes[252] & 0xFFL) | (bytes[253] & 0xFFL) << 8 | (bytes[254] & 0xFFL) << 16
            | (bytes[255] & 0xFFL) << 24;
        String val = "val:" + n;
        if (bytes[0] == 'B' && new String(bytes, 1, val.length(), StandardCharsets.UTF_8).equals(val)
            && checksum.getValue() == stored) {
          good++;
        }
      }
      return List.of(count, good, max);
    }
  }

  /** The distinct sizes of the values of keys with {@code prefix}; their keys must be 38 to 48 bytes for a uuid. */
  private static List<Integer> valueSizes(String nodes, String prefix) {
    Properties p = new Properties();
    p.setProperty(YcqlConfig.HOSTS, nodes);
    p.setProperty(YcqlConfig.PARTITION_METADATA, "false");
    try (CqlSession s = YcqlConfig.from(p).open()) {
      List<Integer> sizes = new ArrayList<>();
      for (Row r : s.execute("SELECT k, v FROM ybdemo_keyspace.cassandrakeyvalue LIMIT 5000")) {
        String k = r.getString(0);
        if (!k.startsWith(prefix)) {
          continue;
        }
        if (prefix.length() == 36) {
          assertTrue(k.length() >= 38 && k.length() <= 48, "a 40-byte key: " + k);
        }
        ByteBuffer v = r.getByteBuffer(1);
        if (!sizes.contains(v.remaining())) {
          sizes.add(v.remaining());
        }
      }
      return sizes;
    }
  }
}
