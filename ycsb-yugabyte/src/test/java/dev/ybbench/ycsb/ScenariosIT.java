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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The published experiments shipped in workloads/, each run small against a real server: the
 * rows have the sizes the experiment names, a scenario's file chooses its API, phase, pace and
 * batch size, and a read scenario reads exactly what its load scenario wrote.
 */
class ScenariosIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  record Outcome(int exitCode, String out, Path runDir) {
    JsonNode phase(String name) throws Exception {
      return JSON.readTree(runDir.resolve("summary.json").toFile()).at("/phases/" + name);
    }

    JsonNode parameters() throws Exception {
      return JSON.readTree(runDir.resolve("run.json").toFile()).get("parameters");
    }
  }

  private Outcome run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--results-dir", results.toString()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = cmd.execute(all.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8));
    Outcome o = new Outcome(rc, out.toString(StandardCharsets.UTF_8), cmd.runDirectory());
    System.out.println(o.out());
    assertEquals(0, rc, o.out());
    return o;
  }

  /** sqlinserts writes 64-byte rows one INSERT at a time; sqlinserts-read reads them all back, writing nothing. */
  @Test
  void sqlInsertsThenReadsOverTheKeysWritten() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 30, System.out::println)) {
      String[] server = {"--hosts", pg.hostPort(), "--user", "postgres", "--threads", "2", "--records", "2000"};
      Outcome write = run(concat(new String[] {"sqlinserts"}, server));
      assertTrue(write.phase("run").isMissingNode(), "sqlinserts is the load phase alone");
      assertEquals(2000, write.phase("load").get("successes").asLong());
      assertEquals("1", write.parameters().get("ybbench.batch_size").asText());
      assertEquals("load", write.parameters().get("ybbench.phase").asText());
      assertEquals(2000, write.phase("load").at("/server/server_statements").asLong(),
          "one INSERT statement per row: " + write.phase("load"));
      try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/ycsb", "postgres", "");
          ResultSet rs = c.createStatement().executeQuery("SELECT count(*), count(DISTINCT ycsb_key), "
              + "min(length(ycsb_key) + length(field0)), max(length(ycsb_key) + length(field0)), "
              + "min(length(ycsb_key)), max(length(ycsb_key)) FROM usertable")) {
        rs.next();
        assertEquals(2000, rs.getLong(1));
        assertEquals(2000, rs.getLong(2));
        assertEquals(64, rs.getInt(3), "a 64-byte row");
        assertEquals(64, rs.getInt(4), "a 64-byte row");
        assertEquals(16, rs.getInt(5));
        assertEquals(16, rs.getInt(6));
      }

      Outcome read = run(concat(new String[] {"sqlinserts-read", "--duration", "3"}, server));
      assertTrue(read.phase("load").isMissingNode(), "sqlinserts-read loads nothing");
      JsonNode phase = read.phase("run");
      assertEquals(0, phase.get("errors").asLong(), "every key read was written: " + phase);
      assertTrue(phase.get("successes").asLong() > 0, phase.toString());
      assertEquals(phase.get("successes").asLong(), phase.at("/operations/READ/successes").asLong(), "reads only");
      try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/ycsb", "postgres", "");
          ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM usertable")) {
        rs.next();
        assertEquals(2000, rs.getLong(1), "the read phase wrote nothing");
      }
    }
  }

  /**
   * The YCQL scenarios choose YCQL themselves; largedata-load is paced by its file and a flag
   * overrides the file; keys and values have the experiments' sizes; the subset read runs over
   * the loaded table with a small share of inserts.
   */
  @Test
  void keyValueScenariosOverYcql() throws Exception {
    EmbeddedCassandra cassandra = SharedCassandra.node();
    String[] server = {"--hosts", cassandra.hostList(), "--threads", "2"};
    Outcome load = run(concat(new String[] {"largedata-load", "--records", "3000"}, server));
    assertEquals("ycql", JSON.readTree(load.runDir().resolve("run.json").toFile()).get("api").asText());
    assertEquals("1000.0", load.parameters().get("ybbench.target_ops").asText());
    JsonNode loaded = load.phase("load");
    assertEquals(3000, loaded.get("successes").asLong());
    // Paced: never faster than the file's 1000 rows/s (a busy machine may hold it below).
    double rate = loaded.get("throughput_ops").asDouble();
    assertTrue(rate < 1050, "paced to the file's 1000 rows/s: " + rate);
    assertEquals(List.of(50, 256), sizes(cassandra, "ycsb"));

    Outcome subset = run(concat(new String[] {"largedata-read-subset", "--records", "3000", "--duration", "3"},
        server));
    JsonNode phase = subset.phase("run");
    assertEquals(0, phase.get("errors").asLong(), phase.toString());
    long reads = phase.at("/operations/READ/successes").asLong();
    long inserts = phase.at("/operations/INSERT/successes").asLong();
    assertTrue(reads > 0 && inserts > 0 && inserts < reads / 10, "mostly reads, some inserts: " + phase);

    // A count, not a time: the phase's session opens inside its window, which on a busy machine has
    // taken a 2 s window whole.
    Outcome kv = run(concat(new String[] {"cassandra-kv-write", "--records", "500", "--operations", "1000",
        "--database", "kv", "--target", "0"}, server));
    assertEquals("0.0", kv.parameters().get("ybbench.target_ops").asText(), "the flag wins over the file");
    assertTrue(kv.phase("run").at("/operations/UPDATE/successes").asLong() > 0);
    assertEquals(List.of(40, 16), sizes(cassandra, "kv"));
  }

  /** The key and the value length of every row in {@code keyspace}.usertable, when all rows agree. */
  private static List<Integer> sizes(EmbeddedCassandra cassandra, String keyspace) {
    Properties p = new Properties();
    p.setProperty(YcqlConfig.HOSTS, cassandra.hostList());
    p.setProperty(YcqlConfig.PARTITION_METADATA, "false");
    List<Integer> keys = new ArrayList<>();
    List<Integer> values = new ArrayList<>();
    try (CqlSession s = YcqlConfig.from(p).open()) {
      for (Row r : s.execute("SELECT ycsb_key, field0 FROM " + keyspace + ".usertable")) {
        keys.add(r.getString(0).length());
        values.add(r.getString(1).length());
      }
    }
    assertEquals(1, keys.stream().distinct().count(), "key lengths " + keys.stream().distinct().toList());
    assertEquals(1, values.stream().distinct().count(), "value lengths " + values.stream().distinct().toList());
    return List.of(keys.get(0), values.get(0));
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
