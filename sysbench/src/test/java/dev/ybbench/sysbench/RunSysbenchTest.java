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
}
