package dev.ybbench.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.testing.DocCommands;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.pgbench.engine.PgbenchBinary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every run_pgbench.sh command in the README's and the docs' shell blocks is accepted as written
 * by a dry run, which refuses what the run would refuse and contacts no server. A ysql_bench the
 * docs name is stood in for by a script that answers --version as ysql_bench's main() prints it
 * (src/postgres/src/bin/pgbench/pgbench.c: "ysql_bench (YSQL) " PG_VERSION).
 */
class PgbenchDocsCommandsTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void pgbench() {
    Tools.requireInstalled("pgbench", PgbenchBinary.PACKAGE);
  }

  @Test
  void everyDocumentedRunPassesADryRun() throws Exception {
    Path ysqlBench = Files.writeString(dir.resolve("ysql_bench"), "#!/bin/sh\necho 'ysql_bench (YSQL) 11.2'\n");
    Files.setPosixFilePermissions(ysqlBench, PosixFilePermissions.fromString("rwxr-xr-x"));
    int checked = 0;
    for (DocCommands.Command c : DocCommands.of(RunPgbenchTest.HOME, "run_pgbench.sh",
        Map.of("$YB_HOME/postgres/bin/ysql_bench", ysqlBench.toString(), "/opt/yb/postgres/bin/ysql_bench",
            ysqlBench.toString()), Map.of("YSQL_NODES", "10.0.0.1"))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
      int rc = new Runner(new Pgbench(), new Console(print), RunPgbenchTest.HOME).execute(
          c.dryRun(dir.resolve("results")), print);
      String printed = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, rc, c.page() + ": " + c.text() + "\n" + printed);
      assertTrue(printed.contains("Plan (nothing started):"), c.page() + ": " + c.text());
      checked++;
    }
    assertTrue(checked >= 7, "the docs' pgbench runs were found: " + checked);
  }
}
