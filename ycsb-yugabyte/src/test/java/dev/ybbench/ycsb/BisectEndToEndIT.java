package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.analysis.Compare;
import dev.ybbench.analysis.regress.Regress;
import dev.ybbench.harness.benchmark.Benchmarks;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * regress.sh --bisect over five real PostgreSQL releases, each run on its own embedded server (the
 * runs in this JVM, as run_ycsb.sh would run them), with a change injected from one release on by a
 * versions file: index scans off, so the primary key's lookups become sequential scans. The
 * bisection names that release, and its where names the plan; without the change it finds nothing.
 */
@Tag("alone") // measures the machine: runs after the others, one at a time (see the pom)
class BisectEndToEndIT {
  @TempDir
  Path dir;

  private record Outcome(int exitCode, String out) {}

  /**
   * The runs share this JVM (run_ycsb.sh starts one per run), so the first would be the coldest,
   * its client code not yet compiled and its release's binaries just unpacked, and read as a
   * change between releases (seen: 23 K ops/s on 13, then 41-44 K on 13 and 46 K on 17, an
   * undecided step where nothing changed). Each release started once, and one short run, first.
   */
  @BeforeAll
  static void warmUp(@TempDir Path warm) {
    for (String version : List.of("13", "14", "15", "16", "17")) {
      try (EmbeddedPostgres pg = EmbeddedPostgres.start(version, 20, s -> { })) {
        if (version.equals("17")) {
          ByteArrayOutputStream log = new ByteArrayOutputStream();
          PrintStream print = new PrintStream(log, true, StandardCharsets.UTF_8);
          int rc = new Runner(new Ycsb(), new Console(print), RunYcsbTest.HOME).execute(new String[] {"workloadc", "--hosts",
              pg.hostPort(), "--user", pg.user(), "--records", "1000", "--duration", "3", "--threads", "2",
              "--results-dir", warm.toString(), "--no-install"}, print);
          assertEquals(0, rc, log.toString(StandardCharsets.UTF_8));
        }
      }
    }
  }

  private Outcome bisect(String versionsFile) throws Exception {
    Path file = dir.resolve("builds-" + versionsFile.hashCode() + ".txt");
    Files.writeString(file, versionsFile);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
    Regress r = new Regress(new Console(print), RunYcsbTest.HOME).runningWith(cmd -> {
      ByteArrayOutputStream log = new ByteArrayOutputStream();
      assertTrue(cmd.get(0).endsWith("ybbench"), cmd.toString());
      List<String> args = new java.util.ArrayList<>(cmd.subList(2, cmd.size()));
      args.addAll(List.of("--threads", "2"));
      int rc = new Runner(Benchmarks.find(cmd.get(1)), new Console(new PrintStream(log, true, StandardCharsets.UTF_8)),
          RunYcsbTest.HOME)
          .execute(args.toArray(String[]::new), new PrintStream(log, true, StandardCharsets.UTF_8));
      List<String> lines = log.toString(StandardCharsets.UTF_8).lines().toList();
      return new Regress.Outcome(rc, lines.subList(Math.max(0, lines.size() - 3), lines.size()));
    });
    int rc = r.execute(new String[] {"--suite", "ycsb-core", "--workloads", "workloadc", "--bisect", "--versions-file",
        file.toString(), "--repeat", "2", "--budget", "3m", "--duration", "3", "--records", "1000", "--threshold",
        "30", "--seed", "1", "--results-dir", dir.resolve("results").toString(), "--no-install"}, print);
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theFirstReleaseWithTheChangeIsFoundAndItsWhereNamesThePlan() throws Exception {
    String off = " --db-setting enable_indexscan=off --db-setting enable_bitmapscan=off\n";
    Outcome found = bisect("13\n14\n15\n16" + off + "17" + off);
    assertEquals(Compare.REGRESSION, found.exitCode(), found.out());
    assertTrue(found.out().contains("First bad build: 16 (last good: 15), 3 steps, "), found.out());
    String where = found.out().substring(found.out().indexOf("First bad build: "));
    assertTrue(where.contains("REGRESSION   ycsb/workloadc throughput (ops/s) -"), where);
    assertTrue(where.contains("plan changed (Index Scan using usertable_pkey on usertable → Seq Scan on usertable)"),
        where);
    assertTrue(found.out().contains("Step 2: 15 against 13") && found.out().contains("Step 3: 16 against 15"),
        found.out());
  }

  @Test
  void withoutAChangeNothingIsFound() throws Exception {
    Outcome none = bisect("13\n14\n15\n16\n17\n");
    assertFalse(none.out().contains("First bad build"), none.out());
    assertEquals(0, none.exitCode(), none.out());
    assertTrue(none.out().contains("No regression from 13 to 17: nothing to bisect ("), none.out());
  }
}
