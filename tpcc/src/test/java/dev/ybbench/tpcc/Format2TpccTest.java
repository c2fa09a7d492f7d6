package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.analysis.compare.ComparedMetrics;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import dev.ybbench.tpcc.core.TpccFigures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A TPC-C run of results format 2 (harness/src/test/resources/format2), read by format 3: its
 * figures under "tpcc", tpmC its headline, for compare.sh (through the registry) as for merges.
 */
class Format2TpccTest {
  private static Path sample() throws Exception {
    try (Stream<Path> dirs = Files.list(RunTpccTest.HOME.resolve("harness/src/test/resources/format2"))) {
      return dirs.filter(d -> d.getFileName().toString().contains("_tpcc_")).findFirst().orElseThrow();
    }
  }

  @Test
  void tpccsFiguresMoveUnderItsKeyAndTpmCIsTheHeadline() throws Exception {
    Path dir = sample();
    JsonNode written = RunDirectory.JSON.readTree(dir.resolve("summary.json").toFile());
    assertEquals(2, written.get("format").asInt());
    RunSummary s = RunSummary.read(dir, TpccFigures::upgradeFormat2);
    PhaseResult exec = s.phase("execute");
    double tpmC = written.at("/phases/execute/tpmC").asDouble();
    assertTrue(tpmC > 0, written.toString());
    assertEquals(tpmC, TpccFigures.of(exec).tpmC());
    assertEquals(new PhaseResult.Figure("tpmC", "tpmC", tpmC, true, TpccFigures.NEW_ORDERS), exec.headline());
    assertEquals(written.at("/phases/execute/response_time_limits/NewOrder/p90_s").asDouble(),
        TpccFigures.of(exec).responseTimeLimits().get("NewOrder").p90S());
    assertEquals(written.get("warehouses").asInt(), TpccFigures.of(s).warehouses());
    assertEquals(written.at("/consistency/all_pass").asBoolean(), TpccFigures.of(s).consistency().allPass());
    assertEquals(PhaseResult.PASS, s.phase("load").checks().get("population"));
    assertFalse(exec.extensions().containsKey("tpmC"), "nothing of TPC-C's left among the common fields");
  }

  @Test
  void compareReadsItsHeadlineThroughTheRegistry() throws Exception {
    RunGroup.Run r = RunGroup.read(sample());
    assertEquals("tpmC", ComparedMetrics.headlineName(r));
    assertEquals(RunDirectory.JSON.readTree(sample().resolve("summary.json").toFile()).at("/phases/execute/tpmC")
        .asDouble(), ComparedMetrics.headline(r).value());
  }
}
