package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.testing.DocCommands;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every run_ycsb.sh command in the README's and the docs' shell blocks is accepted as written: it
 * is given to the runner with --dry-run, which refuses whatever the run would refuse before it
 * connects. The docs' example paths (a cluster's ca.crt, a trust store, results/history.db) stand
 * for real files here.
 */
class DocsCommandsTest {
  @TempDir
  Path dir;

  /** The variables the docs' examples assume. */
  static Map<String, String> environment(Path dir) {
    return Map.of("YSQL_NODES", "10.0.0.1,10.0.0.2,10.0.0.3", "YCQL_NODES", "10.0.0.1,10.0.0.2",
        "YCQL_ADDRS", "10.0.0.1,10.0.0.2", "ENDPOINTS", "10.0.0.1:9042,10.0.0.2:9042,10.0.0.3:9042", "BUILD", "2.25.0.0-b1", "HISTORY", dir.resolve("history.db").toString(),
        "PW_A", "a", "PW_B", "b", "UUID", "5f1b2c3d-0000-4000-8000-000000000001");
  }

  @Test
  void everyDocumentedCommandPassesADryRun() throws Exception {
    Path tls = RunYcsbTest.HOME.resolve("ycsb-yugabyte/src/test/resources/tls");
    Map<String, String> files = Map.of("/opt/yb/certs/ca.crt", tls.resolve("ca.crt").toString(),
        "ycql.truststore=trust.p12", "ycql.truststore=" + tls.resolve("trust.p12"),
        "ycql.truststore_password='…'", "ycql.truststore_password=changeit",
        "results/history.db", dir.resolve("history.db").toString());
    List<DocCommands.Command> commands = DocCommands.of(RunYcsbTest.HOME, "run_ycsb.sh", files, environment(dir));
    for (DocCommands.Command c : commands) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
      int rc = new Runner(new Ycsb(), new Console(print), RunYcsbTest.HOME).execute(c.dryRun(dir.resolve("results")), print);
      String printed = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, rc, c.page() + ": " + c.text() + "\n" + printed);
      assertTrue(printed.contains("Plan (nothing started):"), c.page() + ": " + c.text());
    }
    assertTrue(commands.size() >= 15, "the docs' commands were found: " + commands.size());
  }
}
