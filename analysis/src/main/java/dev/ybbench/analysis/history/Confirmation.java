package dev.ybbench.analysis.history;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.analysis.compare.Comparison;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.analysis.compare.Verdict;
import dev.ybbench.analysis.regress.BenchmarkProcess;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Benchmark;
import dev.ybbench.harness.benchmark.Benchmarks;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.cli.ShellWords;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.StagedDirectory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code compare.sh --history DB --confirm N CANDIDATE}: a night's single run is not enough to cry
 * regression on a machine whose speed drifts, nor to certify "no change" at a spread near the
 * threshold. So a workload whose headline is a regression or undecided against its history is
 * run again — its last run's command, as its run.json records it — and all its runs are judged
 * together, up to N more times: CockroachDB's CI compares the last run first and runs again only
 * when it shows a change. Every look is one of the N + 1 a gate may take, so each uses Pocock's
 * wider interval ({@link dev.ybbench.analysis.stats.SequentialLooks}): over all the looks, an
 * unchanged build is called a regression no more often than one look at 95 % would.
 */
public final class Confirmation {
  /** Runs a command; returns the new run's directory. */
  public interface Rerun {
    Path run(Command command) throws Exception;
  }

  private Confirmation() {}

  /**
   * The candidate's run to run again for each workload whose headline is a regression or
   * undecided (its latest), each directory once (a TPC-C run of several works is one run).
   */
  public static List<Path> toRunAgain(List<Comparison.Row> rows, RunGroup candidate) {
    Set<String> open = new LinkedHashSet<>();
    for (Comparison.Row r : rows) {
      if (r.headline() && (r.verdict() == Verdict.REGRESSION || r.verdict() == Verdict.INCONCLUSIVE)) {
        open.add(r.key());
      }
    }
    Set<Path> dirs = new LinkedHashSet<>();
    for (String key : open) {
      candidate.runs().stream().filter(run -> (run.bench() + "/" + run.workload()).equals(key))
          .max(Comparator.comparing(RunGroup.Run::started)).ifPresent(run -> dirs.add(run.dir()));
    }
    return List.copyOf(dirs);
  }

  /** Whether the looks may stop: every headline decided, and none a regression on the first look (confirmed first). */
  public static boolean settled(List<Comparison.Row> rows, int look) {
    for (Comparison.Row r : rows) {
      if (r.headline() && (r.verdict() == Verdict.INCONCLUSIVE || (look == 1 && r.verdict() == Verdict.REGRESSION))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The command that runs {@code run} again, as its run.json records it, refused in one line when
   * it cannot be: no command recorded, or a password given on its command line (never kept: give
   * it in the environment instead).
   */
  public static Command command(Path run) {
    try {
      return command(RunDirectory.JSON.readTree(run.resolve("run.json").toFile()), run.getFileName().toString());
    } catch (IOException e) {
      throw new UserError("Cannot read " + run.resolve("run.json") + ": " + e.getMessage());
    }
  }

  /** As above, from a run's run.json ({@code info}; a history keeps it when the directory is gone). */
  public static Command command(JsonNode info, String run) {
    if (!info.path("command").isArray()) {
      throw new UserError("--confirm runs " + run + " again, but its run.json names no command; judge it without "
          + "--confirm");
    }
    List<String> args = new ArrayList<>();
    info.path("command").forEach(w -> args.add(w.asText()));
    if (args.contains("***") || args.stream().anyMatch(a -> a.endsWith("=***"))) {
      throw new UserError("--confirm runs " + run + " again, but its command gave a password, which run.json does "
          + "not keep: give it in the environment (YSQL_PASSWORD, YCQL_PASSWORD) for its runs");
    }
    // The run again is one look of this confirmation, not a confirmation of its own; and it is
    // recorded in no history, which keeps one run a night: a night the machine dipped would
    // otherwise weigh as much as five, and widen every later night's spread.
    return new Command(info.path("bench").asText(), without(without(args, "--confirm"), "--history"), run);
  }

  /** {@code args} without the flag {@code name} and its value, in either form. */
  static List<String> without(List<String> args, String name) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).equals(name)) {
        i++;
      } else if (!args.get(i).startsWith(name + "=")) {
        out.add(args.get(i));
      }
    }
    return out;
  }

  /**
   * A benchmark's command line, as run again: {@code ./<script> <args>}.
   *
   * @param from the run it was read from
   */
  public record Command(String bench, List<String> args, String from) {
    /** The same command for a control round: labelled {@code label}, and on {@code hosts} when given. */
    public Command forControl(String label, String hosts) {
      List<String> a = without(args, "--label");
      a.addAll(List.of("--label", label));
      if (hosts != null) {
        a = without(a, "--hosts");
        a.addAll(List.of("--hosts", hosts));
      }
      return new Command(bench, a, from);
    }

    /** The benchmark of this build that runs it; refused in one line when there is none. */
    public Benchmark benchmark() {
      Benchmark b = Benchmarks.find(bench);
      if (b == null) {
        throw new UserError("--confirm runs " + from + " again, but it is a run of " + (bench.isEmpty() ? "no "
            + "benchmark" : bench) + ", which this build lacks; judge it without --confirm");
      }
      return b;
    }

    @Override
    public String toString() {
      Benchmark b = Benchmarks.find(bench);
      return "./" + (b == null ? bench : b.script()) + " " + ShellWords.join(args);
    }
  }

  private static final Pattern RESULTS = Pattern.compile("(?m)^Results: (.+)$");

  /**
   * The default {@link Rerun}: the benchmark's runner of this build in a JVM of its own, as its
   * script would start it (and fleet.sh its clients), its output kept and its last lines shown
   * should it fail.
   */
  public static Rerun byRunner(Path home, Consumer<String> out) {
    return c -> {
      List<String> cmd = Runner.inNewJvm(home, c.benchmark(), c.args());
      BenchmarkProcess.Finished f = BenchmarkProcess.finish(cmd);
      int rc = f.exitCode();
      if (rc == 130) {
        StagedDirectory.checkpoint(() -> true); // Ctrl-C reached the run too: the comparison stops as well
      }
      Matcher m = RESULTS.matcher(String.join("\n", f.lines()));
      if (rc != 0 || !m.find()) {
        List<String> lines = f.lines();
        lines.subList(Math.max(0, lines.size() - 3), lines.size()).forEach(l -> out.accept("  " + l));
        throw new UserError("--confirm: " + c + " ended with exit " + rc + "; nothing more to judge");
      }
      return Path.of(m.group(1).strip()).toAbsolutePath(); // as the run, started here, named it
    };
  }
}
