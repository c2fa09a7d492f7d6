package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.tpcc.interop.ForeignCommandLines;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** BenchBase's and yugabyte/tpcc's command lines mean here what they mean there. */
class ForeignCommandLinesTest {
  @TempDir
  Path dir;

  private static List<String> ours(String... args) {
    return ForeignCommandLines.translate(args).args();
  }

  /** The settings a command line parses to: every field picocli sets, as text. */
  private static String settings(String... args) {
    TpccCommand cmd = new TpccCommand();
    new CommandLine(cmd).parseArgs(ForeignCommandLines.translate(args).args().toArray(String[]::new));
    return String.join(" | ", String.valueOf(cmd.o.configFile), String.valueOf(cmd.o.warehouses),
        String.valueOf(cmd.o.server.hosts), String.valueOf(cmd.o.connections), String.valueOf(cmd.o.loaderThreads),
        String.valueOf(cmd.o.warmup), String.valueOf(cmd.o.startWarehouse), String.valueOf(cmd.o.totalWarehouses),
        "create=" + cmd.o.create, "load=" + cmd.o.load, "execute=" + cmd.o.execute, "clear=" + cmd.o.clear,
        "spec=" + cmd.o.spec, String.valueOf(cmd.o.run.resultsDir), "verbose=" + cmd.o.run.verbose);
  }

  @Test
  void benchBasesLineParsesToOurs() {
    assertEquals(List.of("-c", "my.xml", "--create", "--load", "--execute", "--results-dir", "out"),
        ours("-b", "tpcc", "-c", "my.xml", "--create=true", "--load=true", "--execute=true", "-d", "out"));
    assertEquals(settings("--config", "my.xml", "--create", "--load", "--execute", "--results-dir", "out"),
        settings("-b", "tpcc", "-c", "my.xml", "--create=true", "--load=true", "--execute=true", "-d", "out"));
    // Its other spellings: a separate value, =false, --bench=, --directory.
    assertEquals(settings("--config", "my.xml", "--execute"),
        settings("--bench=tpcc", "--config", "my.xml", "--create", "false", "--load=false", "--execute", "true"));
    assertEquals(List.of("-c", "c.xml", "--results-dir", "r"), ours("-b", "tpcc", "-c", "c.xml", "--directory=r"));
    ForeignCommandLines.Translation t = ForeignCommandLines.translate(new String[] {"-b", "tpcc", "-c", "c.xml",
        "-s", "5", "-im", "1000"});
    assertEquals("BenchBase", t.dialect());
    assertEquals(List.of("-c", "c.xml"), t.args());
    assertEquals(2, t.notes().size(), t.notes().toString());
  }

  @Test
  void yugabyteTpccsLinesAreTheSpecRun() {
    // The three steps of YugabyteDB's docs for 100 warehouses.
    assertEquals(List.of("--create", "--hosts", "127.0.0.1,127.0.0.2,127.0.0.3", "--spec", "--warmup", "0"),
        ours("--create=true", "--nodes=127.0.0.1,127.0.0.2,127.0.0.3"));
    assertEquals(List.of("--load", "--hosts", "h1,h2", "--warehouses=100", "--loader-threads", "48", "--spec",
        "--warmup", "0"), ours("--load=true", "--nodes=h1,h2", "--warehouses=100", "--loaderthreads", "48"));
    assertEquals(settings("--execute", "--warmup", "60", "--hosts", "h1,h2", "--warehouses", "100", "--spec"),
        settings("--execute=true", "--warmup-time-secs=60", "--nodes=h1,h2", "--warehouses=100"));
    // A client of several: its slice of the warehouses, its connections; --vv is --verbose.
    assertEquals(settings("--config", "x.xml", "--execute", "--hosts", "h", "--warehouses", "2500",
        "--start-warehouse", "2501",
        "--total-warehouses", "10000", "--warmup", "870", "--connections", "90", "--spec", "--verbose"),
        settings("-c", "x.xml", "--execute=true", "--nodes=h", "--warehouses=2500", "--start-warehouse-id=2501",
            "--total-warehouses=10000", "--warmup-time-secs=870", "--num-connections=90", "--vv"));
    assertEquals("yugabyte/tpcc", ForeignCommandLines.translate(new String[] {"--nodes=h"}).dialect());
  }

  @Test
  void ourOwnLineIsLeftAlone() {
    String[] line = {"--warehouses", "10", "--create", "--load", "--hosts", "h"};
    ForeignCommandLines.Translation t = ForeignCommandLines.translate(line);
    assertNull(t.dialect());
    assertEquals(List.of(line), t.args());
  }

  @Test
  void yugabyteTpccsMergeTakesEveryRunDirectoryInDir() throws Exception {
    for (String run : List.of("b-client", "a-client")) {
      Files.createDirectories(dir.resolve(run));
      Files.writeString(dir.resolve(run).resolve("summary.json"), "{}");
    }
    Files.createDirectories(dir.resolve("not-a-run"));
    assertEquals(List.of("--merge", dir.resolve("a-client").toString(), dir.resolve("b-client").toString()),
        ours("--merge-results=true", "--dir=" + dir, "--warehouses=10000"));
  }

  @Test
  void flagsWithoutACounterpartAreOneLineNamingOurs() {
    assertEquals("-b ycsb: run_tpcc.sh runs TPC-C only (-b tpcc); YCSB is ./run_ycsb.sh",
        assertThrows(UserError.class, () -> ours("-b", "ycsb", "-c", "x.xml")).getMessage());
    assertEquals("--enable-foreign-keys: the foreign keys are added with the load here (./run_tpcc.sh --load "
        + "--foreign-keys)", assertThrows(UserError.class, () -> ours("--enable-foreign-keys=true", "--nodes=h"))
        .getMessage());
    assertEquals("--initial-delay-secs: start the client later yourself (sleep 30; ./run_tpcc.sh …)",
        assertThrows(UserError.class, () -> ours("--initial-delay-secs=30", "--execute=true")).getMessage());
    assertTrue(assertThrows(UserError.class, () -> ours("-b", "tpcc", "-jh", "h.json")).getMessage()
        .contains("latency/*.hlog"));
    assertEquals("--create=yes: give true or false",
        assertThrows(UserError.class, () -> ours("--create=yes")).getMessage());
    assertEquals("--merge-results needs --dir=DIR, the directory holding each client's run directory",
        assertThrows(UserError.class, () -> ours("--merge-results=true")).getMessage());
    assertEquals("--nodes needs a value", assertThrows(UserError.class, () -> ours("--nodes", "--execute=true"))
        .getMessage());
  }

  /** Through the real entry point: one line, exit 2, before anything starts. */
  @Test
  void aBadForeignLineIsExitTwoWithOneLine() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Tpcc(), new Console(new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8)), Path.of("."));
    int rc = cmd.execute(new String[] {"--create-sql-procedures=true", "--nodes=h"},
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, rc);
    String msg = err.toString(StandardCharsets.UTF_8);
    assertEquals(1, msg.lines().count(), msg);
    assertTrue(msg.startsWith("error: --create-sql-procedures: "), msg);
  }
}
