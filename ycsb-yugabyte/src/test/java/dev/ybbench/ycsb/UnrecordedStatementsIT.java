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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server whose pg_stat_statements the harness cannot have — a user that may not create the
 * extension, as on a managed cluster — is never read as a server that ran no statements: the run
 * says so once, server.json and summary.json name the part and why, the audit says it was not
 * made, and compare's where says the statements were not recorded instead of that nothing changed.
 */
class UnrecordedStatementsIT {
  @TempDir
  Path results;

  private record Ran(Path dir, String printed) {}

  private Ran ycsb(EmbeddedPostgres pg, String phase, String label) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String[] args = {"workloadc", "--hosts", pg.hostPort(), "--user", "bench", "--records", "1000", "--duration", "2",
        "--threads", "2", "--phase", phase, "--label", label, "--results-dir", results.toString(), "--no-install"};
    int rc = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME).execute(
        args, new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, text);
    Matcher m = Pattern.compile("(?m)^Results: (.+)$").matcher(text);
    assertTrue(m.find(), text);
    return new Ran(Path.of(m.group(1).strip()), text);
  }

  private static void sql(EmbeddedPostgres pg, String db, String statement) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/" + db, "postgres", "");
        Statement st = c.createStatement()) {
      st.execute(statement);
    }
  }

  @Test
  void statementsThatCannotBeReadAreNamedNotEmpty() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println)) {
      // The benchmark's user owns its database but is no superuser: pg_stat_statements is not a
      // trusted extension, so it cannot create it there.
      sql(pg, "postgres", "CREATE ROLE bench LOGIN");
      sql(pg, "postgres", "CREATE DATABASE ycsb OWNER bench");
      Ran load = ycsb(pg, "both", "unrecorded");
      String why = "pg_stat_statements cannot be read (permission denied to create extension \"pg_stat_statements\")";
      String printed = load.printed();
      assertEquals(1, printed.split(Pattern.quote(why), -1).length - 1, "said once: " + printed);
      assertTrue(printed.contains("Server audit (run): not made: no count of the server's statements on usertable "
          + "to audit against (statements unavailable)"), printed);

      JsonNode server = RunDirectory.JSON.readTree(load.dir().resolve("server.json").toFile()).at("/phases/run");
      assertTrue(server.at("/unavailable/statements").asText().startsWith(why), server.toString());
      assertTrue(server.at("/unavailable/plans").asText().startsWith("no statements to explain: " + why),
          server.toString());
      JsonNode summary = RunDirectory.JSON.readTree(load.dir().resolve("summary.json").toFile())
          .at("/phases/run/server");
      assertTrue(summary.at("/unavailable/audit").asText().startsWith("no count of the server's statements"),
          summary.toString());
      assertTrue(summary.at("/harness_operations").isMissingNode(), summary.toString());
      assertFalse(Files.exists(load.dir().resolve("plans.json")));
      assertTrue(Files.readString(load.dir().resolve("report.html")).contains("server's statements not recorded: "
          + why.replace("\"", "&quot;")), "the run's report says it");

      // The extension created by its superuser, the same user's next run has its statements.
      sql(pg, "ycsb", "CREATE EXTENSION pg_stat_statements");
      Ran recorded = ycsb(pg, "run", "recorded");
      JsonNode side = RunDirectory.JSON.readTree(recorded.dir().resolve("summary.json").toFile())
          .at("/phases/run/server");
      assertTrue(side.at("/unavailable").isMissingNode(), side.toString());
      assertEquals(side.get("harness_operations").asLong(), side.get("server_statements").asLong(), side.toString());
    }

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Compare compare = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = compare.execute(new String[] {"unrecorded", "recorded", "--results-dir", results.toString(),
        "--no-install"}, new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(rc != Compare.REGRESSION || text.contains("statements not recorded"), text);
    JsonNode where = RunDirectory.JSON.readTree(compare.reportDirectory().resolve("comparison.json").toFile())
        .at("/where/ycsb~1workloadc");
    String clause = where.get("clause").asText();
    assertTrue(clause.startsWith("statements not recorded on the baseline (pg_stat_statements cannot be read "
        + "(permission denied to create extension"), clause);
    assertFalse(clause.contains("no layer changed"), clause);
    assertTrue(where.get("plans_note").asText().startsWith("plans not compared: the baseline recorded none (no "
        + "statements to explain: pg_stat_statements cannot be read"), where.toString());
  }
}
