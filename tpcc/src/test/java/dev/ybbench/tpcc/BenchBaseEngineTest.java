package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import dev.ybbench.tpcc.config.TpccConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The config BenchBase is given under --engine benchbase: the target and every override in effect;
 * and, where a BenchBase build is at hand (BENCHBASE_HOME; BENCHBASE_JAVA when it needs a newer
 * java), a short run of it on the embedded server, recorded as ours.
 */
class BenchBaseEngineTest {
  @TempDir
  Path tmp;

  @Test
  void benchBaseGetsTheTargetTheOverridesAndTheWorksInEffect() throws Exception {
    Path tiny = RunTpccTest.HOME.resolve("tpcc/config/tiny.xml");
    TpccConfig c = TpccConfig.read(tiny).with(3, 7).withSpecWaits();
    List<TpccConfig.Work> works = List.of(new TpccConfig.Work(10, 2, null, List.of(45, 43, 4, 4, 4)),
        new TpccConfig.Work(5, 0, 200.0, List.of(0, 100, 0, 0, 0)));
    YsqlEndpoint target = YsqlEndpoint.parse("jdbc:yugabytedb://10.0.0.1:5433,10.0.0.2:5433/tpcc_benchbase"
        + "?load-balance=false&reWriteBatchedInserts=true").withUser("yugabyte").withPassword("p<w&x");

    String xml = BenchBaseEngine.config(Files.readString(tiny), c, works, target, 4);

    assertTrue(xml.contains("<type>POSTGRES</type>"), xml);
    assertTrue(xml.contains("<url>jdbc:postgresql://10.0.0.1:5433,10.0.0.2:5433/tpcc_benchbase?load-balance=false"
        + "&amp;reWriteBatchedInserts=true</url>"), xml);
    assertTrue(xml.contains("<username>yugabyte</username>"), xml);
    assertTrue(xml.contains("<password>p&lt;w&amp;x</password>"), xml);
    assertTrue(xml.contains("<scalefactor>3</scalefactor>"), xml);
    assertTrue(xml.contains("<terminals>7</terminals>"), xml);
    assertTrue(xml.contains("<parameters>\n    <loaderThreads>4</loaderThreads>"), xml);
    assertTrue(xml.contains("<works><work><warmup>2</warmup><time>10</time><rate>unlimited</rate>"
        + "<weights>45,43,4,4,4</weights></work><work><warmup>0</warmup><time>5</time><rate>200.0</rate>"
        + "<weights>0,100,0,0,0</weights></work></works>"), xml);
    assertTrue(xml.contains("<transactiontype><name>NewOrder</name><preExecutionWait>18000</preExecutionWait>"
        + "<postExecutionWait>12000</postExecutionWait></transactiontype>"), xml);
    assertTrue(xml.contains("A small TPC-C for tests"), "the file's own comment stays: " + xml);

    // What BenchBase reads is what we would run.
    Path written = Files.writeString(tmp.resolve("tiny.xml"), xml);
    TpccConfig back = TpccConfig.read(written);
    assertEquals(3, back.scaleFactor());
    assertEquals(7, back.terminals());
    assertEquals(4, back.loaderThreads());
    assertEquals(works, back.works());
    assertEquals(c.transactionTypes(), back.transactionTypes());
    assertEquals("p<w&x", back.password());
  }

  @Test
  void whatOnlyOurTerminalsDoIsRefusedByNameWithBenchBase() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Tpcc(), new Console(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)),
        RunTpccTest.HOME);
    int rc = cmd.execute(new String[] {"--engine", "benchbase", "--benchbase", tmp.toString(), "--spec",
        "--prometheus-port", "0", "--results-dir", tmp.toString()}, new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, rc);
    assertEquals("error: --spec, --prometheus-port are ybbench's own; BenchBase has no counterpart: leave them out "
        + "with --engine benchbase", err.toString(StandardCharsets.UTF_8).strip());
  }

  @Test
  @EnabledIfEnvironmentVariable(named = "BENCHBASE_HOME", matches = ".+")
  void benchBaseRunsTheTinyConfigOnTheEmbeddedServerAndItsRunIsOurs() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Tpcc(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunTpccTest.HOME);
    int rc = cmd.execute(new String[] {"--engine", "benchbase", "--duration", "5", "--warmup", "1",
        "--results-dir", tmp.toString()}, new PrintStream(err, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, err + printed);
    ObjectMapper json = new ObjectMapper();
    JsonNode summary = json.readTree(cmd.runDirectory().resolve("summary.json").toFile());
    assertEquals("complete", summary.get("state").asText());
    JsonNode exec = summary.at("/phases/execute");
    for (String txn : TpccConfig.TRANSACTIONS) {
      assertTrue(exec.at("/operations/" + txn + "/successes").asLong() > 0, txn + " never committed: " + exec);
    }
    // Its own conditions on the order tables hold; those on customers' money are recorded either way.
    assertTrue(summary.at("/tpcc/consistency/conditions/3.3.2.5/pass").asBoolean(), summary.toString());
    JsonNode info = json.readTree(cmd.runDirectory().resolve("run.json").toFile());
    assertEquals("BenchBase", info.at("/engine/name").asText());
    assertTrue(info.at("/parameters/url").asText().contains("/tpcc_benchbase"), info.toString());
  }
}
