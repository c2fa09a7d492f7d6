package dev.ybbench.sysbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.sysbench.engine.SysbenchBinary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** run_sysbench.sh's Java side with the real sysbench against a real embedded PostgreSQL, short. */
class RunSysbenchTest {
  static final Path HOME = Path.of("..").toAbsolutePath().normalize();
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  @BeforeAll
  static void sysbench() {
    Tools.requireInstalled("sysbench", SysbenchBinary.PACKAGE);
  }

  record Outcome(int exitCode, String out, String err, Path runDir) {}

  static Outcome run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Sysbench(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), HOME);
    int rc = cmd.execute(args, new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
        cmd.runDirectory());
  }

  /** The README's command, shortened: the embedded server, PostgreSQL 11 as YSQL before 2.25. */
  @Test
  void onItsOwnEmbeddedPostgres11() throws Exception {
    Outcome o = run("oltp_read_write", "--db-version", "11", "--table-size", "500", "--threads", "2", "--duration",
        "2", "--warmup", "1", "--results-dir", results.toString(), "--no-install");
    assertEquals(0, o.exitCode(), o.err() + o.out());
    JsonNode summary = JSON.readTree(o.runDir().resolve("summary.json").toFile());
    assertEquals("11.22", summary.at("/server/version").asText().substring(0, 5));
    assertTrue(summary.at("/phases/warmup/operations/transaction/successes").asLong() > 0, summary.toString());
    JsonNode side = summary.at("/phases/run/server");
    assertEquals(side.get("harness_operations").asLong(), side.get("server_statements").asLong(), o.out());
    assertTrue(o.out().contains("(total_time, "), "PostgreSQL 11's pg_stat_statements: " + o.out());
  }

  /** The plan's outline: what happens to the tables for each command, the phases and their time. */
  @Test
  void aDryRunSaysWhatHappensToTheTables() {
    Outcome both = run("oltp_read_only", "--tables", "4", "--table-size", "1000", "--warmup", "5", "--duration",
        "20", "--dry-run", "--results-dir", results.toString());
    assertEquals(0, both.exitCode(), both.err() + both.out());
    for (String line : new String[] {"  database: sbtest as postgres", "  schema: sbtest1 … sbtest4: kept when "
        + "prepared earlier in this shape (4 tables of 1000 rows); otherwise dropped if they are there, created and "
        + "loaded", "  phase.prepare: 4 tables of 1000 rows, when not there (time unknown until it runs)",
        "  phase.warmup: oltp_read_only (5 s)", "  phase.run: oltp_read_only (20 s)",
        "  wall_time: at least 25 s, plus the time of the prepare, which only the run can tell",
        "  command: ./run_sysbench.sh oltp_read_only --tables 4 --table-size 1000 --warmup 5 --duration 20 "
            + "--results-dir " + results, "  sysbench_command: prepare what is missing, then run"}) {
      assertTrue(both.out().contains(line), line + " in " + both.out());
    }
    Outcome cleanup = run("oltp_read_only", "cleanup", "--hosts", "10.0.0.1", "--dry-run");
    assertEquals(0, cleanup.exitCode(), cleanup.err() + cleanup.out());
    assertTrue(cleanup.out().contains("  schema: sbtest1: dropped\n".translateEscapes()), cleanup.out());
    assertTrue(cleanup.out().contains("  phase.cleanup: drop sbtest1 (time unknown until it runs)"), cleanup.out());
    Outcome run = run("oltp_read_only", "run", "--hosts", "10.0.0.1", "--dry-run");
    assertTrue(run.out().contains("  schema: sbtest1: used as it is, and must be prepared in this shape"), run.out());
    assertTrue(run.out().contains("  reads: on YugabyteDB, each node's (10.0.0.1) :9000 and :13000/prometheus-metrics "
        + "and :13000/statements; on PostgreSQL, its statistics views over SQL"), run.out());
  }
}
