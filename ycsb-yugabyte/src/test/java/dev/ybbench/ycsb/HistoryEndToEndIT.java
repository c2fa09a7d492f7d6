package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.analysis.Compare;
import dev.ybbench.analysis.HistoryCommand;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A nightly pipeline on a real server: runs recorded into a history as they end, one run judged
 * against that history, a shift in the series found and placed, and the dashboard read in a real
 * Chromium. No absolute speed is assumed: a first run measures what the machine does now, the
 * history's runs are paced at half of it ({@link RunYcsbTest#pace}) and the throttled ones at half that.
 */
@Tag("alone") // measures the machine: runs after the others, one at a time (see the pom)
class HistoryEndToEndIT {
  @TempDir
  Path results;

  private record Outcome(int exitCode, String out) {}

  /** One run of the loaded table; recorded into the history when {@code history} is given. */
  private Path ycsb(EmbeddedPostgres server, String phase, Integer target, Path history) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> args = new ArrayList<>(List.of("workloadc", "--hosts", server.hostPort(), "--user", server.user(),
        "--phase", phase, "--records", "2000", "--duration", "3", "--threads", "2", "--results-dir",
        results.toString()));
    if (target != null) {
      args.addAll(List.of("--target", target.toString()));
    }
    if (history != null) {
      args.addAll(List.of("--history", history.toString()));
    }
    int rc = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME).execute(
        args.toArray(String[]::new), new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, err.toString(StandardCharsets.UTF_8) + text);
    if (history != null) {
      assertTrue(text.contains("History: recorded "), text);
    }
    Matcher m = Pattern.compile("(?m)^Results: (.+)$").matcher(text);
    assertTrue(m.find(), text);
    return Path.of(m.group(1).strip());
  }

  private Outcome compare(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--threshold", "20", "--results-dir", results.toString()));
    int rc = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME)
        .execute(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8));
  }

  private Outcome history(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc = new HistoryCommand(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME)
        .execute(args, new PrintStream(out, true, StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void singleRunsAreJudgedAgainstTheirHistoryAndAShiftIsPlacedAtItsBuild() throws Exception {
    Path db = results.resolve("history.db");
    List<Path> nightly = new ArrayList<>();
    Path same;
    Path slow;
    List<Path> after = new ArrayList<>();
    try (EmbeddedPostgres pg = EmbeddedPostgres.start("17", 20, System.out::println)) {
      ycsb(pg, "load", null, null);
      double measured = RunDirectory.JSON.readTree(ycsb(pg, "run", null, null).resolve("summary.json").toFile())
          .at("/phases/run/throughput_ops").asDouble();
      int pace = RunYcsbTest.pace(measured);
      for (int i = 0; i < 6; i++) {
        nightly.add(ycsb(pg, "run", pace, db));
      }
      same = ycsb(pg, "run", pace, null);
      slow = ycsb(pg, "run", pace / 2, null);
      for (int i = 0; i < 6; i++) {
        after.add(ycsb(pg, "run", pace / 2, db));
      }
    }

    // One run a side, same against same: decided neither way, and it says what would decide.
    Outcome pair = compare(nightly.get(0).toString(), nightly.get(1).toString());
    assertEquals(Compare.UNDECIDED, pair.exitCode(), pair.out());
    assertTrue(pair.out().contains("one run a side says nothing of how runs differ"), pair.out());
    assertTrue(pair.out().matches("(?s).*UNDECIDED, exit 3: at least \\d+ more runs? a side, or a history of "
        + "(at least )?\\d+ runs of this key.*"), pair.out());

    // The same pace against the history before the throttled runs were recorded: never a regression.
    Outcome unchanged = compare("--history", db.toString(), "--last", "6", same.toString());
    assertTrue(unchanged.exitCode() == 0 || unchanged.exitCode() == Compare.UNDECIDED, unchanged.out());
    assertFalse(unchanged.out().contains("REGRESSION"), unchanged.out());
    if (unchanged.exitCode() == Compare.UNDECIDED) {
      // Undecided, it says what one run must reach against this history, and how many would do.
      assertTrue(unchanged.out().matches("(?s).*UNDECIDED, exit 3: against these 6 runs one run is decided beyond "
          + "-\\d+\\.\\d % or \\+\\d+\\.\\d % \\(they differ by \\d+\\.\\d %\\); .*"), unchanged.out());
    }
    Matcher used = Pattern.compile("history: (ycsb/workloadc@[0-9a-f]{10}), (\\d+) runs").matcher(unchanged.out());
    assertTrue(used.find(), unchanged.out());
    String key = used.group(1);
    assertEquals("6", used.group(2), "the six recorded before it: " + unchanged.out());

    // A run at half the pace is a regression on one run, against the history's spread.
    Outcome throttled = compare("--history", db.toString(), slow.toString());
    assertEquals(Compare.REGRESSION, throttled.exitCode(), throttled.out());
    assertTrue(throttled.out().startsWith("REGRESSION   ycsb/workloadc throughput (ops/s) -"), throttled.out());
    assertTrue(throttled.out().contains("6 vs 1 runs"), throttled.out());

    // The series: six runs, then six at half the pace: one change point, between run 6 and run 7.
    Outcome series = compare("--history", db.toString(), "--key", "ycsb/workloadc");
    assertEquals(0, series.exitCode(), series.out());
    Matcher shift = Pattern.compile("change point (-\\d+\\.\\d) % between 17\\.\\d+ \\((\\S+), ").matcher(series.out());
    assertTrue(shift.find(), series.out());
    assertTrue(Double.parseDouble(shift.group(1)) < -30, series.out());
    assertEquals(nightly.get(5).getFileName().toString(), shift.group(2), series.out());
    assertFalse(shift.find(), "one change point only: " + series.out());
    assertTrue(series.out().contains(key + " throughput (ops/s): 12 runs"), series.out());

    Outcome listed = history("list", "--history", db.toString());
    assertTrue(listed.out().startsWith(key + "  12 runs (12 complete) "), listed.out());

    // The dashboard: every chart drawn, each point linked to its run's report, the change point to where it lives.
    Path site = results.resolve("site");
    Outcome dash = history("dashboard", "--history", db.toString(), "--out", site.toString(), "--threshold", "20");
    assertEquals(0, dash.exitCode(), dash.out());
    String html = Files.readString(site.resolve("index.html"));
    Matcher change = Pattern.compile("<a class=\"change\" href=\"([^\"]+)\"").matcher(html);
    assertTrue(change.find(), html);
    Path where = site.resolve(change.group(1));
    assertTrue(Files.isRegularFile(where), where.toString());
    String report = Files.readString(site.resolve(change.group(1)).resolveSibling("report.md"));
    assertTrue(report.contains("\n    REGRESSION   ycsb/workloadc throughput (ops/s) -") && report.contains(" — where: "),
        "the change's comparison, with its where: " + report);
    assertTrue(html.contains("<a href=\"../" + nightly.get(0).getFileName() + "/report.html\">"), "a run's report");
    try (ReportBrowser browser = ReportBrowser.open()) {
      assertEquals(List.of(), browser.problems(site.resolve("index.html"), "h1"));
      assertTrue(browser.texts("svg.chart").size() >= 2, "throughput and READ's p99");
      // A chart that drew nothing is caught.
      Files.writeString(site.resolve("broken.html"), html.replaceFirst("(?s)(<svg class=\"chart\"[^>]*aria-label="
          + "\"throughput \\(ops/s\\), run by run\">).*?(</svg>)", "$1$2"));
      List<String> problems = browser.problems(site.resolve("broken.html"), "h1");
      assertEquals(List.of("chart drawn empty: throughput (ops/s), run by run"), problems);
    }

    // The history outlives the run directories (kept between CI runners, the results not): the
    // same judgement from what the history kept, the plans named as missing.
    for (Path d : nightly) {
      try (var files = Files.walk(d)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
    Outcome fromHistory = compare("--history", db.toString(), "--last", "6", slow.toString());
    assertEquals(Compare.REGRESSION, fromHistory.exitCode(), fromHistory.out());
    assertTrue(fromHistory.out().contains("6 vs 1 runs"), fromHistory.out());
  }
}
