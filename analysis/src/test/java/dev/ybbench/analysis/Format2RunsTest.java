package dev.ybbench.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.analysis.compare.ComparedMetrics;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.history.HistoryRuns;
import dev.ybbench.analysis.history.HistoryStore;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run directories of results format 2, as the last ybbench of that format wrote them
 * (harness/src/test/resources/format2), read by format 3: compared, and recorded into a history
 * and judged against it, as before.
 */
class Format2RunsTest {
  static final Path SAMPLES = Path.of("..").toAbsolutePath().normalize().resolve("harness/src/test/resources/format2");

  @TempDir
  Path results;

  /** The samples of one bench, copied here (compare writes beside them). */
  private List<Path> runs(String bench) throws IOException {
    try (Stream<Path> dirs = Files.list(SAMPLES)) {
      List<Path> out = new java.util.ArrayList<>();
      for (Path d : dirs.filter(d -> d.getFileName().toString().contains("_" + bench + "_")).sorted().toList()) {
        Path copy = results.resolve(d.getFileName());
        try (Stream<Path> files = Files.walk(d)) {
          for (Path f : files.toList()) {
            Files.copy(f, copy.resolve(d.relativize(f).toString()));
          }
        }
        out.add(copy);
      }
      return out;
    }
  }

  @Test
  void aFormat2RunReadsWithItsThroughputAsTheHeadline() throws Exception {
    RunGroup.Run r = RunGroup.read(runs("ycsb").get(0));
    assertEquals("throughput (ops/s)", ComparedMetrics.headlineName(r));
    double written = RunDirectory.JSON.readTree(r.dir().resolve("summary.json").toFile())
        .at("/phases/run/throughput_ops").asDouble();
    assertEquals(written, ComparedMetrics.headline(r).value(), "the headline is the throughput format 2 wrote");
    assertEquals(r.phase().throughputOps(), r.phase().headline().value());
  }

  @Test
  void twoFormat2RunsCompareAsBefore() throws Exception {
    List<Path> two = runs("ycsb");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), results).execute(
        new String[] {two.get(0).toString(), two.get(1).toString(), "--results-dir", results.toString()},
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String said = out.toString(StandardCharsets.UTF_8);
    assertEquals(Compare.UNDECIDED, rc, "a single run a side decides nothing: " + err + said);
    assertTrue(said.contains("| workloadc | ALL | throughput (ops/s) ★ |"), said);
    assertTrue(said.contains("| workloadc | READ | p99 (µs), from actual start |"), said);
  }

  @Test
  void format2RunsImportIntoAHistoryWithTheirHeadline() throws Exception {
    List<Path> two = runs("ycsb");
    Path db = results.resolve("history.db");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc = new HistoryCommand(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), results).execute(
        new String[] {"import", two.get(0).toString(), two.get(1).toString(), "--history", db.toString()},
        System.err);
    assertEquals(0, rc, out.toString(StandardCharsets.UTF_8));
    assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("Imported 2 runs into "), out.toString());
    try (HistoryStore store = HistoryStore.open(db.toString())) {
      String key = HistoryRuns.of(two.get(0)).get(0).key();
      List<HistoryStore.Entry> entries = store.entries(key);
      assertEquals(2, entries.size(), "both runs of one key");
      assertEquals("throughput (ops/s)", entries.get(0).headlineMetric());
      // Read back as runs, as compare.sh --history does: the format-2 summary the history kept.
      RunGroup.Run back = HistoryRuns.run(entries.get(0));
      assertEquals(entries.get(0).headline(), ComparedMetrics.headline(back).value(), 0.05);
    }
  }
}
