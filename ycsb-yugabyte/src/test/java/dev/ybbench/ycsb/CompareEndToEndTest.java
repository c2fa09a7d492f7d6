package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.compare.Compare;
import dev.ybbench.harness.results.Console;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare.sh on real runs: the same embedded version twice is no regression; a candidate
 * throttled to 60 % of the baseline's throughput is one, and the report says where.
 */
class CompareEndToEndTest {
  @TempDir
  Path results;

  private void ycsb(String label, String version, int target) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = new RunYcsb(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME).execute(
        new String[] {"workloada", "--db-version", version, "--records", "2000", "--duration", "5", "--threads", "2",
            "--target", Integer.toString(target), "--label", label, "--results-dir", results.toString()},
        new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
  }

  private record Outcome(int exitCode, String out, Path report) {}

  private Outcome compare(String a, String b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Compare c = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    // A wide threshold: these runs are 5 s on a shared machine; the throttled side is 40 % slower.
    int rc = c.execute(new String[] {a, b, "--threshold", "25", "--results-dir", results.toString()},
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8), c.reportDirectory());
  }

  @Test
  void theSameVersionTwiceIsNoRegressionAndAThrottledOneIs() throws Exception {
    for (int i = 0; i < 3; i++) {
      // Interleaved, as regress.sh runs them.
      ycsb("same-a", "17", 3000);
      ycsb("same-b", "17", 3000);
      ycsb("pg16", "16", 3000);
      ycsb("pg17-slow", "17", 1800);
    }
    Outcome same = compare("same-a", "same-b");
    assertEquals(0, same.exitCode(), same.out());

    Outcome slow = compare("pg16", "pg17-slow");
    assertEquals(1, slow.exitCode(), slow.out());
    assertTrue(slow.out().contains("regression: workloada ALL throughput (ops/s)"), slow.out());
    assertTrue(Files.exists(slow.report().resolve("report.md")));
    assertTrue(Files.readString(slow.report().resolve("report.html")).contains("PostgreSQL 16."));
    if (RunYcsbTest.gnuplotInstalled()) {
      for (String svg : new String[] {"throughput.svg", "p99.svg", "over-time-workloada.svg"}) {
        File f = slow.report().resolve(svg).toFile();
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(f);
        String text = Files.readString(f.toPath());
        assertTrue(text.contains("PostgreSQL 16.") && text.contains("PostgreSQL 17."), svg + ": no version labels");
      }
    }
  }
}
