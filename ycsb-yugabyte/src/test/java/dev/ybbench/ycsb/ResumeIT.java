package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedCassandra;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.ycsb.client.LoadCheckpoint;
import dev.ybbench.ycsb.ycql.YcqlConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A load killed half-way (SIGKILL: nothing of it runs after) and resumed with --resume ends with
 * exactly the records asked for, none twice, and the resumed run records both parts.
 */
class ResumeIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int RECORDS = 6000;
  /** The YSQL load's first key number, past 2^31. */
  private static final long FIRST_KEY = 29_999_994_000L;

  @TempDir
  Path results;

  /** Rows in the table, and distinct keys. */
  interface Rows {
    long[] count() throws Exception;
  }

  /**
   * Over YSQL the keys lie past 2^31 (YCSB 0.17 would wrap them): the slice 29,999,994,000 … of
   * 30 billion records, loaded, killed, resumed, then read back by a run phase that finds every key.
   */
  @Test
  void aYsqlLoadPast32BitsKilledHalfWayAndResumedHoldsEveryRecordOnce() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 30, System.out::println)) {
      List<String> keys = List.of("--records", "30000000000", "-p", "insertstart=" + FIRST_KEY, "-p",
          "insertcount=" + RECORDS, "-p", "insertorder=ordered");
      List<String> server = new ArrayList<>(List.of("--hosts", pg.hostPort(), "--user", "postgres"));
      server.addAll(keys);
      String url = "jdbc:postgresql://" + pg.hostPort() + "/resume";
      killAndResume(server, () -> {
        try (Connection c = DriverManager.getConnection(url, "postgres", "");
            ResultSet rs = c.createStatement().executeQuery("SELECT count(*), count(DISTINCT ycsb_key) FROM "
                + "usertable")) {
          rs.next();
          return new long[] {rs.getLong(1), rs.getLong(2)};
        }
      });
      try (Connection c = DriverManager.getConnection(url, "postgres", "");
          ResultSet rs = c.createStatement().executeQuery("SELECT min(ycsb_key), max(ycsb_key) FROM usertable")) {
        rs.next();
        assertEquals("user" + FIRST_KEY, rs.getString(1), "the first key number, not wrapped");
        assertEquals("user" + (FIRST_KEY + RECORDS - 1), rs.getString(2));
      }
      // A run phase reads them back: every key it chooses is one of those loaded.
      List<String> read = new ArrayList<>(List.of("workloadc", "--phase", "run", "--operations", "3000", "--threads",
          "2", "--database", "resume", "-p", "requestdistribution=uniform", "--results-dir", results.toString()));
      read.addAll(server);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
      int rc = cmd.execute(read.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8));
      System.out.println(out.toString(StandardCharsets.UTF_8));
      assertEquals(0, rc, out.toString(StandardCharsets.UTF_8));
      JsonNode reads = JSON.readTree(cmd.runDirectory().resolve("summary.json").toFile()).at("/phases/run/operations/READ");
      assertEquals(3000, reads.get("successes").asLong(), reads.toString());
      assertEquals(0, reads.get("errors").asLong(), "no read found nothing: " + reads);
    }
  }

  /** Over YCQL the load's writes are asynchronous, up to --batch-size in flight per thread, settled out of order. */
  @Test
  void aYcqlLoadKilledHalfWayAndResumedHoldsEveryRecordOnce() throws Exception {
    EmbeddedCassandra cassandra = SharedCassandra.node();
    List<String> server = List.of("--api", "ycql", "--hosts", cassandra.hostList(), "--records",
        Integer.toString(RECORDS));
    killAndResume(server, () -> {
      Properties p = new Properties();
      p.setProperty(YcqlConfig.HOSTS, cassandra.hostList());
      p.setProperty(YcqlConfig.PARTITION_METADATA, "false");
      try (CqlSession session = YcqlConfig.from(p).open()) {
        Set<String> keys = new HashSet<>();
        long rows = 0;
        for (Row r : session.execute("SELECT ycsb_key FROM resume.usertable")) {
          keys.add(r.getString(0));
          rows++;
        }
        return new long[] {rows, keys.size()};
      }
    });
  }

  private void killAndResume(List<String> server, Rows table) throws Exception {
    // Paced, so that the kill lands in the middle; batches of 16, so that some rows are in doubt.
    List<String> flags = new ArrayList<>(List.of("workloada", "--phase", "load", "--target", "2000", "--threads",
        "4", "--batch-size", "16", "--database",
        "resume", "--results-dir", results.toString()));
    flags.addAll(server);
    List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-Dybbench.home=" + RunYcsbTest.HOME,
        Runner.class.getName(), Ycsb.NAME));
    java.addAll(flags);
    Process first = new ProcessBuilder(java).redirectErrorStream(true)
        .redirectOutput(results.resolve("first.log").toFile()).start();
    Path firstRun = null;
    long deadline = System.nanoTime() + 180_000_000_000L;
    long writtenAtKill = 0;
    while (System.nanoTime() < deadline && first.isAlive()) {
      firstRun = runDirs().stream().findFirst().orElse(null);
      Path checkpoint = firstRun == null ? null : firstRun.resolve(LoadCheckpoint.FILE);
      if (checkpoint != null && Files.isRegularFile(checkpoint)) {
        writtenAtKill = JSON.readTree(checkpoint.toFile()).get("written").asLong();
        if (writtenAtKill >= RECORDS / 3) {
          break;
        }
      }
      Thread.sleep(50);
    }
    assertTrue(first.isAlive(), "the first load ended before it could be killed: "
        + Files.readString(results.resolve("first.log")));
    first.destroyForcibly(); // SIGKILL
    first.waitFor();
    System.out.println(Files.readString(results.resolve("first.log")));
    long rowsAfterKill = table.count()[0];
    System.out.println("killed with " + writtenAtKill + " rows acknowledged; the table holds " + rowsAfterKill);
    assertTrue(rowsAfterKill >= RECORDS / 3 && rowsAfterKill < RECORDS, "killed half-way: " + rowsAfterKill);
    JsonNode saved = JSON.readTree(firstRun.resolve(LoadCheckpoint.FILE).toFile());
    assertFalse(saved.get("complete").asBoolean(), saved.toString());

    List<String> again = new ArrayList<>(flags);
    again.addAll(List.of("--resume", firstRun.toString()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = cmd.execute(again.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8));
    System.out.println(out.toString(StandardCharsets.UTF_8));
    assertEquals(0, rc, out.toString(StandardCharsets.UTF_8));

    long[] rows = table.count();
    assertEquals(RECORDS, rows[0], "every record, once");
    assertEquals(RECORDS, rows[1]);
    // The resumed run records both parts: what the first wrote, what was in doubt, what it inserted.
    Path second = cmd.runDirectory();
    JsonNode runJson = JSON.readTree(second.resolve("run.json").toFile());
    assertEquals("complete", runJson.get("state").asText());
    assertEquals(firstRun.getFileName().toString(), runJson.get("resumed_from").asText());
    JsonNode checkpoint = JSON.readTree(second.resolve(LoadCheckpoint.FILE).toFile());
    assertTrue(checkpoint.get("complete").asBoolean(), checkpoint.toString());
    JsonNode from = checkpoint.get("resumed_from");
    long thisPart = JSON.readTree(second.resolve("summary.json").toFile()).at("/phases/load/successes").asLong();
    assertEquals(thisPart, checkpoint.get("written").asLong());
    assertEquals(0, from.get("lost").asLong() + checkpoint.get("lost").asLong());
    assertEquals(RECORDS, from.get("written").asLong() + from.get("found").asLong() + thisPart,
        "the first part's rows, those found in doubt, and this part's: " + checkpoint);
    assertEquals(from.get("in_doubt").asLong(), from.get("found").asLong() + from.get("missing").asLong());
  }

  private List<Path> runDirs() throws Exception {
    try (Stream<Path> s = Files.list(results)) {
      return s.filter(Files::isDirectory).sorted().toList();
    }
  }
}
