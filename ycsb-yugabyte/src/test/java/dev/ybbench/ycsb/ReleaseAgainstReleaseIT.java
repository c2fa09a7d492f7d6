package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.analysis.Compare;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.ycsb.RunYcsbTest.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/yugabytedb.md's release against release on one cluster, as written, embedded PostgreSQL 11
 * (YSQL's base before 2.25) standing in for the cluster before its upgrade and 15 (2025.1's base)
 * for after: YCSB's core sequence twice
 * labelled 2024.2, the upgrade, twice labelled 2025.1, then {@code ./compare.sh 2024.2 2025.1}.
 * Each sequence runs a, b, c, f, d over one load and e over its own, the runs after a load reading
 * what it wrote (no read finds a key missing).
 */
class ReleaseAgainstReleaseIT {
  @TempDir
  Path results;

  private static final List<String> ORDER = List.of("workloada", "workloadb", "workloadc", "workloadf",
      "workloadd", "workloade");

  /** {@code ./run_ycsb.sh core} on {@code version} labelled {@code release}: its six run directories, in order. */
  private List<Path> core(String version, String release) throws Exception {
    List<Path> before = runs();
    Outcome o = RunYcsbTest.run("core", "--db-version", version, "--records", "1000", "--duration", "2",
        "--threads", "2", "--label", release, "--results-dir", results.toString(), "--no-install");
    assertEquals(0, o.exitCode(), o.err() + o.out());
    assertTrue(o.out().contains("YCSB core over YSQL on PostgreSQL " + version + "."), o.out());
    assertTrue(o.out().contains("Stopping embedded PostgreSQL " + version + "."), "the sequence's server stops");
    List<Path> made = new ArrayList<>(runs());
    made.removeAll(before);
    made.sort(Comparator.comparing(ReleaseAgainstReleaseIT::started));
    List<String> workloads = new ArrayList<>();
    for (Path d : made) {
      JsonNode run = RunDirectory.JSON.readTree(d.resolve("run.json").toFile());
      JsonNode summary = RunDirectory.JSON.readTree(d.resolve("summary.json").toFile());
      String w = run.get("workload").asText();
      workloads.add(w);
      assertEquals("complete", run.get("state").asText(), d.toString());
      assertEquals(release, run.get("label").asText());
      assertTrue(run.at("/server/version").asText().startsWith(version + "."), run.at("/server").toString());
      boolean loads = w.equals("workloada") || w.equals("workloade");
      assertEquals(loads, summary.at("/phases/load").isObject(), w + ": only a and e load");
      assertEquals(0, summary.at("/phases/run/errors").asLong(), w + " read what the load before it wrote");
      assertTrue(summary.at("/phases/run/successes").asLong() > 0, w);
      // The table printed at the end has its row.
      assertTrue(o.out().lines().anyMatch(l -> l.startsWith(w + " ") && l.contains("complete")), w + "\n" + o.out());
    }
    assertEquals(ORDER, workloads, "YCSB's order");
    return made;
  }

  @Test
  void beforeTheUpgradeTheUpgradeAfterAndOneComparison() throws Exception {
    core("11", "2024.2");
    core("11", "2024.2");
    core("15", "2025.1"); // the upgrade
    core("15", "2025.1");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME,
        () -> false).execute(new String[] {"2024.2", "2025.1", "--results-dir", results.toString(), "--no-install"},
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(rc == 0 || rc == 1 || rc == 3, "a verdict, not a refusal: " + rc + "\n" + text);
    for (String w : ORDER) {
      assertTrue(text.contains("ycsb/" + w + " throughput"), w + "\n" + text);
    }
    assertTrue(text.contains("note: every run of one side came before every run of the other (as before and after "
        + "an upgrade)"), text);
    assertFalse(text.contains("single run each"), text);
  }

  private List<Path> runs() throws Exception {
    try (Stream<Path> s = Files.list(results)) {
      return s.filter(d -> Files.isRegularFile(d.resolve("run.json"))).toList();
    }
  }

  private static String started(Path d) {
    try {
      return RunDirectory.JSON.readTree(d.resolve("run.json").toFile()).get("started").asText();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
