package dev.ybbench.tpcc;

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
 * Every run_tpcc.sh command in the README's and the docs' shell blocks that plans a run is
 * accepted as written by a dry run, which contacts no server (those with --hosts included: the
 * docs' addresses answer nothing). Left out: --merge, --import and BenchBase's engine, which need
 * run directories or a BenchBase build.
 */
class TpccDocsCommandsTest {
  @TempDir
  Path dir;

  @Test
  void everyDocumentedRunPassesADryRun() throws Exception {
    int checked = 0;
    // The docs' own config file stands for any: the tiny one here.
    Map<String, String> files = Map.of("my.xml", RunTpccTest.HOME.resolve("tpcc/config/tiny.xml").toString());
    for (DocCommands.Command c : DocCommands.of(RunTpccTest.HOME, "run_tpcc.sh", files,
        Map.of("YSQL_NODES", "10.0.0.1,10.0.0.2,10.0.0.3", "BENCHBASE_HOME", dir.toString()))) {
      if (c.args().stream().anyMatch(a -> List.of("--merge", "--import", "--engine", "--benchbase",
          "--help", "-h").contains(a))) {
        continue;
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
      int rc = new Runner(new Tpcc(), new Console(print), RunTpccTest.HOME).execute(c.dryRun(dir.resolve("results")), print);
      String printed = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, rc, c.page() + ": " + c.text() + "\n" + printed);
      assertTrue(printed.contains("Plan (nothing started):"), c.page() + ": " + c.text());
      checked++;
    }
    assertTrue(checked >= 8, "the docs' TPC-C runs were found: " + checked);
  }
}
