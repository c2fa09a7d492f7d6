package dev.ybbench.analysis;

import dev.ybbench.analysis.dashboard.Dashboard;
import dev.ybbench.analysis.history.HistoryRuns;
import dev.ybbench.analysis.history.HistoryStore;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.CommandLines;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunSummary;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./history.sh import|list}: the history of runs kept by {@code --history} on the runners —
 * existing run directories taken in, and the keys it holds listed. Judging a run against it and
 * its change points are compare.sh's ({@code --history}).
 */
@Command(name = "history.sh", sortOptions = false, usageHelpAutoWidth = true,
    description = {"The history of runs: one row per run and phase, with its key (what ran: bench, workload, "
        + "parameters, the server's product and nodes), its figures and its files, in an SQLite file or a "
        + "PostgreSQL database (docs/history.md).",
        "  import DIR…   take in run directories, or every run under a results directory (a run already there is "
            + "left as it is)",
        "  list          each key: its runs, builds, last figure",
        "  dashboard     a static site (opens from disk): each key's headline and p99s run by run, intervals, change "
            + "points linked to where they live, each run to its report", ""},
    footer = {"", "Examples:", "  ./history.sh import results/", "  ./history.sh list --history results/history.db",
        "  ./history.sh dashboard --out site/",
        "  ./history.sh import results/ --history postgresql://perf@db.example.com/ybbench",
        "  ./compare.sh --history results/history.db results/<tonight's run>    (judge a run against its history)"})
public final class HistoryCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "ACTION", description = "import, list or dashboard")
  String action;

  @Parameters(index = "1..*", paramLabel = "DIR", description = "for import: run directories, or directories of "
      + "runs (results/)")
  List<Path> dirs = List.of();

  @Option(names = "--history", paramLabel = "FILE|URL", description = "the history: an SQLite file or a postgresql:// "
      + "URL (default: results/history.db)")
  String history;

  @Option(names = "--out", paramLabel = "DIR", description = "for dashboard: where the site goes (default: "
      + "results/dashboard)")
  Path out;

  @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5", description = "for dashboard: a change "
      + "point smaller than this is marked within it, and its comparison judged by it (default: ${DEFAULT-VALUE})")
  double threshold;

  @Option(names = "--verbose", description = "stack traces on errors")
  boolean verbose;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  private final Console console;
  private final Path home;

  public HistoryCommand(Console console, Path home) {
    this.console = console;
    this.home = home;
  }

  public static void main(String[] args) {
    HistoryCommand c = new HistoryCommand(new Console(System.out), Path.of(System.getProperty("ybbench.home", ".")));
    System.exit(c.execute(args, System.err));
  }

  public int execute(String[] args, PrintStream err) {
    return CommandLines.execute(this, args, err, Console::clean, () -> verbose);
  }

  @Override
  public Integer call() throws IOException {
    String where = history != null ? history : home.resolve("results").resolve("history.db").toString();
    switch (action) {
      case "import" -> {
        if (dirs.isEmpty()) {
          throw new UserError("import takes run directories, or a directory of runs such as results/");
        }
        List<Path> runs = new ArrayList<>();
        for (Path d : dirs) {
          runs.addAll(runsIn(d));
        }
        try (HistoryStore store = HistoryStore.open(where)) {
          int added = 0;
          int had = 0;
          int empty = 0;
          for (Path run : runs) {
            List<HistoryStore.Entry> entries = HistoryRuns.of(run);
            if (entries.isEmpty()) {
              empty++;
            } else if (store.record(entries) > 0) {
              added++;
            } else {
              had++;
            }
          }
          console.line(String.format(Locale.ROOT, "Imported %d run%s into %s%s%s", added, added == 1 ? "" : "s",
              store.shown(), had > 0 ? "; " + had + " already there" : "", empty > 0 ? "; " + empty
                  + " without a measured phase left out" : ""));
        }
        return 0;
      }
      case "list" -> {
        if (!dirs.isEmpty()) {
          throw new UserError("list takes no directory (" + dirs.get(0) + " given)");
        }
        try (HistoryStore store = HistoryStore.open(where)) {
          Map<String, List<HistoryStore.Entry>> keys = store.keys();
          if (keys.isEmpty()) {
            console.line("The history " + store.shown() + " is empty: record runs with --history, or history.sh "
                + "import results/");
          }
          keys.forEach((key, entries) -> console.line(describe(key, entries, keys)));
        }
        return 0;
      }
      case "dashboard" -> {
        if (!dirs.isEmpty()) {
          throw new UserError("dashboard takes no directory (" + dirs.get(0) + " given); --out names where it goes");
        }
        Path target = out != null ? out : home.resolve("results").resolve("dashboard");
        try (HistoryStore store = HistoryStore.open(where)) {
          int keys = Dashboard.write(store, target, threshold, () -> { });
          console.line("Dashboard of " + keys + " key" + (keys == 1 ? "" : "s") + ": " + target.resolve("index.html"));
        }
        return 0;
      }
      default -> throw new UserError("history.sh takes import, list or dashboard, not '" + action + "'");
    }
  }

  /**
   * "ycsb/workloadc@3f2a9c1b04  12 runs (11 complete) 2026-11-01 … 2026-11-26, PostgreSQL 17.7 … 17.11, last
   * 4021.3 throughput (ops/s); threadcount=4": the parameters shown are those in which the workload's keys differ.
   */
  private static String describe(String key, List<HistoryStore.Entry> entries,
      Map<String, List<HistoryStore.Entry>> keys) {
    HistoryStore.Entry last = entries.get(entries.size() - 1);
    long runs = entries.stream().map(HistoryStore.Entry::runId).distinct().count();
    long complete = entries.stream().filter(e -> "complete".equals(e.state())).count();
    List<String> versions = entries.stream().map(HistoryStore.Entry::serverVersion).distinct().toList();
    String workload = key.substring(0, key.indexOf('@') + 1);
    Map<String, String> mine = config(last);
    java.util.TreeSet<String> differing = new java.util.TreeSet<>();
    keys.forEach((other, es) -> {
      if (!other.equals(key) && other.startsWith(workload)) {
        Map<String, String> theirs = config(es.get(0));
        java.util.Set<String> names = new java.util.TreeSet<>(mine.keySet());
        names.addAll(theirs.keySet());
        names.stream().filter(n -> !java.util.Objects.equals(mine.get(n), theirs.get(n))).forEach(differing::add);
      }
    });
    StringBuilder which = new StringBuilder();
    differing.forEach(n -> which.append(which.length() == 0 ? "; " : " ").append(n).append('=').append(mine.get(n)));
    return String.format(Locale.ROOT, "%s  %d run%s (%d complete) %s … %s, %s %s, last %s %s%s", key, runs,
        runs == 1 ? "" : "s", complete, entries.get(0).started().toString().substring(0, 10),
        last.started().toString().substring(0, 10), last.serverProduct(), versions.size() == 1 ? versions.get(0)
            : versions.get(0) + " … " + versions.get(versions.size() - 1),
        last.headline() == null ? "—" : String.format(Locale.ROOT, "%.1f", last.headline()), last.headlineMetric(),
        which);
  }

  private static Map<String, String> config(HistoryStore.Entry e) {
    try {
      return dev.ybbench.harness.results.RunDirectory.JSON.readValue(e.config(),
          new com.fasterxml.jackson.core.type.TypeReference<java.util.TreeMap<String, String>>() {});
    } catch (IOException x) {
      return Map.of();
    }
  }

  /** A run directory, or the run directories in a directory of runs (hidden ones are being written). */
  private static List<Path> runsIn(Path d) throws IOException {
    if (Files.isRegularFile(d.resolve(RunSummary.FILE))) {
      return List.of(d);
    }
    if (!Files.isDirectory(d)) {
      throw new UserError(d + " is neither a run directory nor a directory of runs");
    }
    try (Stream<Path> s = Files.list(d)) {
      return s.filter(p -> !p.getFileName().toString().startsWith(".") && Files.isRegularFile(p.resolve("run.json"))
          && Files.isRegularFile(p.resolve(RunSummary.FILE))).sorted().toList();
    }
  }
}
