package dev.ybbench.sysbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.sysbench.engine.SysbenchFigures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** A sysbench run of results format 2, read by format 3: its queries under "sysbench", its audit's count as before. */
class Format2SysbenchTest {
  @Test
  void queriesMoveUnderItsKeyAndTheAuditedStatementsStay() throws Exception {
    Path dir;
    try (Stream<Path> dirs = Files.list(RunSysbenchTest.HOME.resolve("harness/src/test/resources/format2"))) {
      dir = dirs.filter(d -> d.getFileName().toString().contains("_sysbench_")).findFirst().orElseThrow();
    }
    JsonNode written = RunDirectory.JSON.readTree(dir.resolve("summary.json").toFile()).at("/phases/run");
    PhaseResult run = RunSummary.read(dir, SysbenchFigures::upgradeFormat2).phase("run");
    assertTrue(written.get("queries_on_tables").asLong() > 0, written.toString());
    assertEquals(written.get("queries_on_tables").asLong(), run.auditedStatements());
    assertEquals(written.at("/queries/read/successes").asLong(), SysbenchFigures.queries(run).get("read").successes());
    assertEquals(written.get("throughput_ops").asDouble(), run.headline().value());
  }
}
