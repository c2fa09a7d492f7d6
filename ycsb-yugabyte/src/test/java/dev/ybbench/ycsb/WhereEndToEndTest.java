package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.compare.Compare;
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
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare.sh says where a change lives, on real runs of one server: the candidate's table lost
 * its primary key's index (same rows), so every read scans the table. No absolute speed is
 * assumed: an index scan of one row against a scan of 2,000 rows of 1 KB differs by far more
 * than any machine's noise.
 */
class WhereEndToEndTest {
  @TempDir
  Path results;

  private Path ycsb(String hosts, String label, String phase) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String[] args = {"workloadc", "--hosts", hosts, "--user", "postgres", "--records", "2000", "--duration", "4",
        "--threads", "2", "--phase", phase, "--label", label, "--results-dir", results.toString(), "--no-install"};
    int rc = new RunYcsb(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME).execute(
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

  @Test
  void aLostIndexIsTracedToTheServerItsStatementAndItsPlan() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println)) {
      ycsb(pg.hostPort(), "load", "load");
      List<Path> base = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        base.add(ycsb(pg.hostPort(), "indexed", "run"));
      }
      try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/ycsb", "postgres",
          "")) {
        c.createStatement().execute("ALTER TABLE usertable DROP CONSTRAINT usertable_pkey");
      }
      for (int i = 0; i < 2; i++) {
        ycsb(pg.hostPort(), "scanning", "run");
      }

      // Each run recorded its statements as the server counted them, and their plans.
      JsonNode top = RunDirectory.JSON.readTree(base.get(0).resolve("summary.json").toFile())
          .at("/phases/run/server/statements/0");
      assertEquals("SELECT * FROM usertable WHERE ycsb_key = $1", top.get("query").asText(), top.toString());
      assertTrue(top.get("calls").asLong() > 0 && top.get("blks_hit").asLong() > 0, top.toString());
      JsonNode plan = RunDirectory.JSON.readTree(base.get(0).resolve("plans.json").toFile()).at("/phases/run/0");
      assertEquals("Index Scan using usertable_pkey on usertable", plan.get("shape").asText(), plan.toString());

      Outcome o = compare("indexed", "scanning");
      System.out.println(o.out());
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
  }
}
