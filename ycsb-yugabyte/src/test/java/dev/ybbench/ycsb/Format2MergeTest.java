package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A two-client fleet's runs of results format 2 merge into one run of format 3, exactly and audited. */
class Format2MergeTest {
  @TempDir
  Path results;

  @Test
  void aFormat2FleetMergesExactly() throws Exception {
    List<Path> clients = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(RunYcsbTest.HOME.resolve("harness/src/test/resources/format2/fleet"))) {
      for (Path d : dirs.sorted().toList()) {
        Path copy = results.resolve(d.getFileName());
        try (Stream<Path> files = Files.walk(d)) {
          for (Path f : files.toList()) {
            Files.copy(f, copy.resolve(d.relativize(f).toString()));
          }
        }
        clients.add(copy);
      }
    }
    long successes = 0;
    for (Path c : clients) {
      successes += RunDirectory.JSON.readTree(c.resolve("summary.json").toFile()).at("/phases/run/successes")
          .asLong();
    }
    Path merged = YcsbMerge.merge(clients, results, false, w -> { }, () -> false);
    RunSummary m = RunSummary.read(merged);
    assertEquals(RunSummary.FORMAT, m.format());
    assertEquals(successes, m.phase("run").successes());
    assertEquals(m.phase("run").throughputOps(), m.phase("run").headline().value());
    List<String> said = new ArrayList<>();
    assertEquals(true, YcsbMerge.audit(merged, said::add), String.join("\n", said));
  }
}
