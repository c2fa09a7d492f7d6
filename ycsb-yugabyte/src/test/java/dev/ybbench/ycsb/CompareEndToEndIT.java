package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.analysis.Compare;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare.sh on real runs, interleaved as regress.sh runs them. No absolute speed is assumed:
 * a first run measures what this machine does now, and both sides are paced relative to it, the
 * baseline at half of it ({@link RunYcsbTest#pace}) and the throttled candidate (PostgreSQL 16 against 17) at half the
 * baseline's pace (so a machine that slows down between runs still leaves the candidate the
 * slower side). The same version twice is no regression; the throttled one is, and the report
 * says where.
 */
@Tag("alone") // measures the machine: runs after the others, one at a time (see the pom)
class CompareEndToEndIT {
  @TempDir
  Path results;

  /** One run of the loaded table on {@code server}; returns its run directory. */
  private Path ycsb(EmbeddedPostgres server, String phase, String label, Integer target) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> args = new ArrayList<>(List.of("workloadc", "--hosts", server.hostPort(), "--user", server.user(),
        "--phase", phase, "--records", "2000", "--duration", "3", "--threads", "2", "--label", label,
        "--results-dir", results.toString()));
    if (target != null) {
      args.addAll(List.of("--target", target.toString()));
    }
    int rc = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME).execute(
        args.toArray(String[]::new), new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, err.toString(StandardCharsets.UTF_8) + text);
    Matcher m = Pattern.compile("(?m)^Results: (.+)$").matcher(text);
    assertTrue(m.find(), text);
    return Path.of(m.group(1).strip());
  }

  private record Outcome(int exitCode, String out, Path report) {}

  private Outcome compare(String a, String b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Compare c = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = c.execute(new String[] {a, b, "--threshold", "20", "--results-dir", results.toString()},
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8), c.reportDirectory());
  }

  @Test
  void theSameVersionTwiceIsNoRegressionAndAThrottledOneIs() throws Exception {
    // Two servers started once, each loaded once; every run after that is a run phase on them.
    try (EmbeddedPostgres pg17 = EmbeddedPostgres.start("17", 20, System.out::println);
        EmbeddedPostgres pg16 = EmbeddedPostgres.start("16", 20, System.out::println)) {
      ycsb(pg17, "load", "load-17", null);
      ycsb(pg16, "load", "load-16", null);
      JsonNode calibration = RunDirectory.JSON.readTree(ycsb(pg17, "run", "calibration", null)
          .resolve("summary.json").toFile());
      double measured = calibration.at("/phases/run/throughput_ops").asDouble();
      int pace = RunYcsbTest.pace(measured);
      for (int round = 0; round < 3; round++) {
        ycsb(pg17, "run", "same-a", pace);
        ycsb(pg17, "run", "same-b", pace);
        ycsb(pg16, "run", "pg16-slow", pace / 2);
      }
    }
    Outcome same = compare("same-a", "same-b");
    // No change (0), or on a machine noisier than the threshold still undecided (3): never a regression.
    assertTrue(same.exitCode() == 0 || same.exitCode() == Compare.UNDECIDED, same.out());
    assertFalse(same.out().contains("REGRESSION"), same.out());

    // The unpaced first run against the paced ones: latency from the actual start against latency
    // from the intended start is shown, never tested.
    Outcome unlike = compare("calibration", "same-a");
    assertTrue(unlike.out().contains("note: ycsb/workloadc latency rows not comparable: the baseline's latency is "
        + "measured from the actual start, the candidate's from the intended start"), unlike.out());
    assertFalse(unlike.out().lines().anyMatch(l -> l.startsWith("suspect") && l.contains("(µs)")), unlike.out());
    assertTrue(unlike.out().contains("only the candidate ran under a target"), unlike.out());

    Outcome slow = compare("same-a", "pg16-slow");
    assertEquals(1, slow.exitCode(), slow.out());
    assertTrue(slow.out().startsWith("REGRESSION   ycsb/workloadc throughput (ops/s) -"), slow.out());
    assertTrue(slow.out().contains("3 rounds, paired"), slow.out());
    assertTrue(Files.readString(slow.report().resolve("report.html")).contains("PostgreSQL 16."));
    if (RunYcsbTest.gnuplotInstalled()) {
      for (String svg : new String[] {"throughput-workloadc.svg", "p99-workloadc.svg", "percentiles-workloadc.svg",
          "over-time-workloadc.svg"}) {
        File f = slow.report().resolve(svg).toFile();
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(f);
        String text = Files.readString(f.toPath());
        assertTrue(text.contains("PostgreSQL 16.") && text.contains("PostgreSQL 17."), svg + ": no version labels");
      }
    }
  }
}
