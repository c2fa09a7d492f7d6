package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.analysis.Compare;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * compare.sh says where a change lives, on real runs of one server: the candidate's table lost
 * its primary key's index (same rows), so every read scans the table. No absolute speed is
 * assumed: an index scan of one row against a scan of 2,000 rows of 1 KB differs by far more
 * than any machine's noise. On PostgreSQL 11 (YSQL's base before YugabyteDB 2.25: total_time, a
 * statistics collector, no generic-plan setting), 13 (total_exec_time, PREPARE for the plans)
 * and 17 (EXPLAIN (GENERIC_PLAN)).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("alone") // measures the machine: runs after the others, one at a time (see the pom)
class WhereEndToEndIT {
  /** Static, so that it is there for the runs made once for the class. */
  @TempDir
  static Path results;

  private Path ycsb(String hosts, String label, String phase) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String[] args = {"workloadc", "--hosts", hosts, "--user", "postgres", "--records", "2000", "--duration", "3",
        "--threads", "2", "--phase", phase, "--label", label, "--results-dir", results.toString(), "--no-install"};
    int rc = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME).execute(
        args, new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, text);
    Matcher m = Pattern.compile("(?m)^Results: (.+)$").matcher(text);
    assertTrue(m.find(), text);
    return Path.of(m.group(1).strip());
  }

  private record Outcome(int exitCode, String out, Path report) {}

  private Outcome compare(String a, String b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Compare c = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = c.execute(new String[] {a, b, "--threshold", "20", "--results-dir", results.toString(), "--no-install"},
        new PrintStream(out, true, StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8), c.reportDirectory());
  }

  /** Both sides of one server version, and their comparison. */
  private record Sides(Path load, List<Path> indexed, Outcome outcome) {}

  private final Map<String, Sides> sides = new HashMap<>();

  /** SQL a test runs as the server's superuser on the benchmark's database. */
  private interface Sql {
    void run(Statement st) throws Exception;
  }

  private static void sql(EmbeddedPostgres pg, Sql sql) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/ycsb", "postgres", "");
        Statement st = c.createStatement()) {
      sql.run(st);
    }
  }

  private Sides sides(String version) throws Exception {
    return sides(version, version, st -> { }, st -> { });
  }

  /**
   * Three rounds of a run with the index and a run without (dropped, then built again for the
   * next round): one server, the same rows, interleaved so that compare pairs them by round and
   * what drifts between rounds (a first run after the load, a busy machine) cancels in each
   * pair's ratio. {@code afterLoad} once the table is loaded, {@code beforeRun} before each run.
   */
  private Sides sides(String name, String version, Sql afterLoad, Sql beforeRun) throws Exception {
    if (sides.containsKey(name)) {
      return sides.get(name);
    }
    List<Path> indexed = new ArrayList<>();
    Path load;
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(version, 20, System.out::println)) {
      load = ycsb(pg.hostPort(), "load-" + name, "load");
      sql(pg, afterLoad);
      for (int round = 0; round < 3; round++) {
        sql(pg, beforeRun);
        indexed.add(ycsb(pg.hostPort(), "indexed-" + name, "run"));
        sql(pg, st -> st.execute("ALTER TABLE usertable DROP CONSTRAINT usertable_pkey"));
        sql(pg, beforeRun);
        ycsb(pg.hostPort(), "scanning-" + name, "run");
        sql(pg, st -> st.execute("ALTER TABLE usertable ADD CONSTRAINT usertable_pkey PRIMARY KEY (ycsb_key)"));
      }
    }
    Outcome outcome = compare("indexed-" + name, "scanning-" + name);
    System.out.println(outcome.out());
    sides.put(name, new Sides(load, indexed, outcome));
    return sides.get(name);
  }

  /**
   * YugabyteDB's pg_stat_statements, before 2.25: its columns, in its order, from yugabyte-db's
   * {@code src/postgres/contrib/pg_stat_statements/pg_stat_statements--1.6--1.6-yb-1.0.sql}, as a
   * view over PostgreSQL 11's own statistics; {@code yb_latency_histogram} puts each statement's
   * executions in the bucket of its mean, bucketed and labelled as yugabyte-db's
   * {@code yb_add_hist_json} does (0.1 ms units, 16 sub-buckets a power of two, "[%.1f,%.1f)").
   * PostgreSQL keeps no per-execution latencies to fill more buckets from.
   */
  private static final String YUGABYTE_VIEW = """
      CREATE VIEW public.pg_stat_statements AS
        WITH s AS (SELECT *, greatest(floor(mean_time * 10), 0)::numeric AS u FROM pgss.pg_stat_statements),
             b AS (SELECT *, CASE WHEN u < 16 THEN 1 ELSE power(2::numeric, floor(log(2, u)) - 3) END AS w FROM s)
        SELECT userid, dbid, queryid, query, calls, total_time, min_time, max_time, mean_time, stddev_time, rows,
               shared_blks_hit, shared_blks_read, shared_blks_dirtied, shared_blks_written, local_blks_hit,
               local_blks_read, local_blks_dirtied, local_blks_written, temp_blks_read, temp_blks_written,
               blk_read_time, blk_write_time,
               jsonb_build_array(jsonb_build_object(format('[%s,%s)',
                 to_char(floor(u / w) * w / 10.0, 'FM9999999990.0'),
                 to_char((floor(u / w) + 1) * w / 10.0, 'FM9999999990.0')), calls)) AS yb_latency_histogram
        FROM b""";

  /**
   * A server whose pg_stat_statements has YugabyteDB's columns: the statements read from them,
   * each with the server's percentiles from its buckets, and compare names the statement's p99.
   * Each run starts from reset statistics, as the view's one bucket a statement moves with its mean.
   */
  @Test
  void yugabyteDbsOwnPgStatStatementsIsReadAndItsPercentilesCompared() throws Exception {
    Sides both = sides("yb-pgss", "11", st -> {
      st.execute("DROP EXTENSION pg_stat_statements");
      st.execute("CREATE SCHEMA pgss");
      st.execute("CREATE EXTENSION pg_stat_statements SCHEMA pgss");
      st.execute(YUGABYTE_VIEW);
    }, st -> st.execute("SELECT pgss.pg_stat_statements_reset()"));
    Path run = both.indexed().get(0);
    JsonNode server = RunDirectory.JSON.readTree(run.resolve("server.json").toFile());
    assertTrue(server.get("source").asText().contains("pg_stat_statements (total_time, shared blocks, "
        + "yb_latency_histogram, 10 work counters)"), server.get("source").asText());
    JsonNode read = server.at("/phases/run/statements").get("SELECT * FROM usertable WHERE ycsb_key = $1");
    assertTrue(read.at("/latency_histogram/0").fieldNames().next().matches("\\[\\d+\\.\\d,\\d+\\.\\d\\)"),
        read.toString());
    assertEquals(read.get("calls").asLong(), read.at("/latency_histogram/0").elements().next().asLong());
    JsonNode top = RunDirectory.JSON.readTree(run.resolve("summary.json").toFile()).at("/phases/run/server");
    JsonNode statement = top.at("/statements/0");
    assertEquals("SELECT * FROM usertable WHERE ycsb_key = $1", statement.get("query").asText());
    assertTrue(statement.get("p50_us").asDouble() > 0 && statement.get("p99_us").asDouble()
        >= statement.get("p50_us").asDouble(), statement.toString());
    assertEquals(top.get("harness_operations").asLong(), top.get("server_statements").asLong(), top.toString());

    Outcome o = both.outcome();
    assertEquals(Compare.REGRESSION, o.exitCode(), o.out());
    String first = o.out().lines().findFirst().orElseThrow();
    assertTrue(first.contains("(SELECT * FROM usertable WHERE ycsb_key = $1: ") && first.contains(", server p99 +"),
        first);
    assertTrue(first.contains("plan changed (Index Scan using usertable_pkey on usertable → Seq Scan on "
        + "usertable)"), first);
  }

  @ParameterizedTest(name = "PostgreSQL {0}")
  @ValueSource(strings = {"11", "13", "17"})
  void aLostIndexIsTracedToTheServerItsStatementAndItsPlan(String version) throws Exception {
    Sides both = sides(version);
    // Each run recorded its statements as the server counted them, audited every operation, and their plans.
    JsonNode run = RunDirectory.JSON.readTree(both.indexed().get(0).resolve("summary.json").toFile()).at("/phases/run");
    JsonNode top = run.at("/server/statements/0");
    assertEquals("SELECT * FROM usertable WHERE ycsb_key = $1", top.get("query").asText(), top.toString());
    assertTrue(top.get("calls").asLong() > 0 && top.get("blks_hit").asLong() > 0, top.toString());
    assertEquals(run.get("successes").asLong(), run.at("/server/server_statements").asLong(), run.toString());
    assertTrue(run.at("/server/unavailable").isMissingNode(), run.toString());
    // The load's rows in the server's own counters, once it has counted them (PostgreSQL 11 reports late).
    JsonNode load = RunDirectory.JSON.readTree(both.load().resolve("server.json").toFile()).at("/phases/load");
    assertTrue(load.at("/delta/tup_inserted").asLong() >= 2000, load.toString());
    JsonNode plan = RunDirectory.JSON.readTree(both.indexed().get(0).resolve("plans.json").toFile())
        .at("/phases/run/0");
    assertEquals("Index Scan using usertable_pkey on usertable", plan.get("shape").asText(), plan.toString());
    assertEquals("usertable", plan.at("/tables/0/table").asText(), plan.toString());

    Outcome o = both.outcome();
    assertEquals(Compare.REGRESSION, o.exitCode(), o.out());
    String first = o.out().lines().findFirst().orElseThrow();
    assertTrue(first.startsWith("REGRESSION   ycsb/workloadc throughput (ops/s) -"), o.out());
    assertTrue(first.contains(" — where: server time per op +"), first);
    assertTrue(first.contains("(SELECT * FROM usertable WHERE ycsb_key = $1: "), first);
    assertTrue(first.contains("plan changed (Index Scan using usertable_pkey on usertable → Seq Scan on "
        + "usertable)"), first);
    assertFalse(first.contains("client CPU per op +"), "the client is not named as a cause: " + first);
    String md = Files.readString(o.report().resolve("report.md"));
    assertTrue(md.contains("### Where: ycsb/workloadc") && md.contains("| statement | SELECT * FROM usertable WHERE "
        + "ycsb_key = $1 | mean (µs) |"), md);
    JsonNode where = RunDirectory.JSON.readTree(o.report().resolve("comparison.json").toFile())
        .at("/where/ycsb~1workloadc");
    assertEquals("Seq Scan on usertable", where.at("/plan_changes/0/candidate").asText(), where.toString());
  }

  /**
   * Both reports as a reader opens them in a real browser: the answer (with where, for the
   * comparison) in the first screen, every chart loaded, nothing on the console; and a report
   * whose chart file went missing is caught.
   */
  @Test
  void theReportsReadInABrowser() throws Exception {
    Sides both = sides("17");
    Outcome outcome = both.outcome();
    try (ReportBrowser browser = ReportBrowser.open()) {
      Path compareHtml = outcome.report().resolve("report.html");
      assertEquals(List.of(), browser.problems(compareHtml, "ul.answer li:first-child"));
      assertTrue(browser.texts("ul.answer li:first-child").get(0).contains("— where: server time per op +"),
          browser.texts("ul.answer li:first-child").toString());
      boolean charts = RunYcsbTest.gnuplotInstalled();
      assertEquals(charts, browser.images() > 0, "the charts are in the report when gnuplot is installed");
      assertEquals(List.of(), browser.problems(both.indexed().get(0).resolve("report.html"),
          "body > p:first-of-type, body > ul:first-of-type > li"));

      if (charts) {
        Path copy = results.resolve("broken-report");
        Files.createDirectories(copy);
        try (var files = Files.list(outcome.report())) {
          for (Path f : files.toList()) {
            Files.copy(f, copy.resolve(f.getFileName()));
          }
        }
        Files.delete(copy.resolve("throughput-workloadc.svg"));
        List<String> problems = browser.problems(copy.resolve("report.html"), "ul.answer li:first-child");
        assertTrue(problems.contains("chart did not load: throughput-workloadc.svg"), problems.toString());
      }
    }
  }
}
