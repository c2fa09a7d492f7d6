package dev.ybbench.harness.compare;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.results.Console;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./compare.sh BASELINE CANDIDATE}: is the candidate slower, where, by how much.
 * Exit code 0: no regression; 1: at least one; 2: the comparison could not be made.
 */
@Command(name = "compare.sh", sortOptions = false, usageHelpAutoWidth = true,
    description = {"Compares two sets of runs metric by metric and says, for each, regression, improvement, "
        + "no change or inconclusive. Each side is a run directory or a label (--label) grouping repeated runs "
        + "of one configuration. Intervals are 95 % Welch t-intervals of the change from the repetitions. "
        + "Exit code: 0 no regression, 1 at least one regression, 2 the comparison could not be made.", ""},
    footer = {"", "Examples:", "  ./compare.sh results/<baseline run> results/<candidate run>",
        "  ./compare.sh pg16 pg17 --threshold 3"})
public final class Compare implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "BASELINE", description = "a run directory or a label")
  String baseline;

  @Parameters(index = "1", paramLabel = "CANDIDATE", description = "a run directory or a label")
  String candidate;

  @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5",
      description = "changes smaller than this are 'no change' (default: ${DEFAULT-VALUE} %)")
  double threshold;

  @Option(names = "--results-dir", paramLabel = "DIR", description = "where labels are looked up and the "
      + "comparison directory is written (default: results/)")
  Path resultsDir;

  @Option(names = "--out", paramLabel = "DIR", description = "the comparison directory (default: "
      + "results/compare/<time>_<baseline>_vs_<candidate>)")
  Path out;

  @Option(names = "--include-incomplete", description = "accept failed and interrupted runs as repetitions "
      + "(refused by default: a broken run would read as a change of the product)")
  boolean includeIncomplete;

  @Option(names = "--verbose", description = "stack traces on errors")
  boolean verbose;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  private final Console console;
  private final Path home;
  private Path reportDir;

  public Compare(Console console, Path home) {
    this.console = console;
    this.home = home;
  }

  public static void main(String[] args) {
    Compare c = new Compare(new Console(System.out), Path.of(System.getProperty("ybbench.home", ".")));
    System.exit(c.execute(args, System.err));
  }

  public int execute(String[] args, PrintStream err) {
    return CommandLines.execute(this, args, err, console::clean, () -> verbose);
  }

  public Path reportDirectory() {
    return reportDir;
  }

  @Override
  public Integer call() throws IOException {
    if (threshold <= 0) {
      throw new UserError("--threshold must be above 0 %, was " + threshold);
    }
    Path root = resultsDir != null ? resultsDir : home.resolve("results");
    Side b = Side.resolve(baseline, root, includeIncomplete);
    Side c = Side.resolve(candidate, root, includeIncomplete);
    for (Side s : List.of(b, c)) {
      if (s.runs().size() == 1) {
        console.line("warning: " + s.name() + " has a single run: no interval, the point change decides; "
            + "repeat runs under one --label for a verdict that accounts for noise");
      }
    }
    List<Comparison.Row> rows = Comparison.compare(b, c, threshold);
    String table = Report.markdownTable(rows);
    console.line(table);
    reportDir = out != null ? out : root.resolve("compare").resolve(
        DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(Instant.now()) + "_"
            + safe(b.name()) + "_vs_" + safe(c.name()));
    Files.createDirectories(reportDir);
    String chartsWarning = Report.write(reportDir, b, c, rows, threshold);
    if (chartsWarning != null) {
      console.line("warning: " + chartsWarning);
    }
    long regressions = rows.stream().filter(r -> r.verdict() == Verdict.REGRESSION).count();
    console.line(String.format(Locale.ROOT, "%d regression%s (threshold %.1f %%); report: %s", regressions,
        regressions == 1 ? "" : "s", threshold, reportDir.resolve("report.html")));
    rows.stream().filter(r -> r.verdict() == Verdict.REGRESSION).forEach(r -> console.line(
        String.format(Locale.ROOT, "regression: %s %s %s %+.1f %%", r.workload(), r.operation(), r.metric(),
            r.change().changePct())));
    return regressions > 0 ? 1 : 0;
  }

  private static String safe(String s) {
    return s.replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
