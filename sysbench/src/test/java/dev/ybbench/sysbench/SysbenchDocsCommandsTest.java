package dev.ybbench.sysbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.testing.DocCommands;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.sysbench.engine.SysbenchBinary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every run_sysbench.sh command in the README's and the docs' shell blocks, sysbench's own lines
 * among them, is accepted as written by a dry run, which refuses what the run would refuse and
 * contacts no server.
 */
class SysbenchDocsCommandsTest {
  @TempDir
  Path dir;

  @BeforeAll
  static void sysbench() {
    Tools.requireInstalled("sysbench", SysbenchBinary.PACKAGE);
  }

  @Test
  void everyDocumentedRunPassesADryRun() throws Exception {
    int checked = 0;
    for (DocCommands.Command c : DocCommands.of(RunSysbenchTest.HOME, "run_sysbench.sh", Map.of(),
        Map.of("YSQL_NODES", "10.0.0.1"))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
      int rc = new Runner(new Sysbench(), new Console(print), RunSysbenchTest.HOME).execute(c.dryRun(dir.resolve("results")),
          print);
      String printed = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, rc, c.page() + ": " + c.text() + "\n" + printed);
      assertTrue(printed.contains("Plan (nothing started):"), c.page() + ": " + c.text());
      checked++;
    }
    assertTrue(checked >= 6, "the docs' sysbench runs were found: " + checked);
  }
}
