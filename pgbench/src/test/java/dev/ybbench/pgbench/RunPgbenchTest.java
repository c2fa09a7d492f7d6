package dev.ybbench.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.pgbench.engine.PgbenchBinary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's command with pgbench: the real pgbench on its own embedded PostgreSQL 11 (YSQL
 * before 2.25), initialized first; what summary.json records is what pgbench printed, and the
 * server counted the same statements.
 */
class RunPgbenchTest {
  static final Path HOME = Path.of("..").toAbsolutePath().normalize();

  @TempDir
  Path results;

  record Outcome(int exitCode, String out, String err, Path runDir) {}

  @BeforeAll
  static void pgbench() {
    Tools.requireInstalled("pgbench", PgbenchBinary.PACKAGE);
  }

  static Outcome run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Pgbench(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), HOME);
    int rc = cmd.execute(args, new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
        cmd.runDirectory());
  }

  /** A figure pgbench printed in its report, e.g. "number of transactions actually processed: 4973". */
  static String printed(String out, String line) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(line) + ":? =? ?([0-9.]+)").matcher(out);
    assertTrue(m.find(), line + " not printed: " + out);
    return m.group(1);
  }

  @Test
  void onItsOwnEmbeddedPostgres11() throws Exception {
    Outcome o = run("-c", "2", "-j", "2", "-T", "2", "--db-version", "11", "--results-dir", results.toString(),
        "--no-install");
    assertEquals(0, o.exitCode(), o.err() + o.out());
    assertTrue(o.out().contains("note: the embedded server starts empty: the tables are initialized first"), o.out());
    JsonNode summary = RunDirectory.JSON.readTree(o.runDir().resolve("summary.json").toFile());
    assertEquals("complete", summary.get("state").asText());
    assertEquals("11.", summary.at("/server/version").asText().substring(0, 3));
    assertEquals(100_011, summary.at("/phases/init/rows").asLong());
    JsonNode run = summary.at("/phases/run");
    long processed = Long.parseLong(printed(o.out(), "number of transactions actually processed"));
    assertEquals(processed, run.at("/operations/tpcb-like/successes").asLong());
    assertEquals(processed, run.at("/operations/tpcb-like/latency_us/count").asLong());
    assertEquals(Double.parseDouble(printed(o.out(), "tps")), run.get("throughput_ops").asDouble(), 0.05);
    assertEquals("tps", run.at("/headline/metric").asText());
    // Five statements on the tables a transaction, and pgbench's one count of pgbench_branches.
    assertEquals(5 * processed + 1, run.get("audited_statements").asLong());
    JsonNode side = run.get("server");
    assertEquals(side.get("harness_operations").asLong(), side.get("server_statements").asLong(), o.out());
    assertTrue(o.out().contains("(Δ 0.00 %)"), o.out());
  }
}
