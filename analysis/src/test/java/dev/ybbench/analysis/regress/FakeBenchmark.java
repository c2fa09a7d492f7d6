package dev.ybbench.analysis.regress;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Benchmark;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.Context;
import dev.ybbench.harness.benchmark.MergeOptions;
import dev.ybbench.harness.benchmark.Outline;
import dev.ybbench.harness.benchmark.Plan;
import dev.ybbench.harness.benchmark.Suite;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.run.RunOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * A benchmark registered for the analysis module's tests alone (src/test/resources/META-INF/services),
 * so that regress.sh's rounds and bisection are tested through the registry as the real benchmarks
 * plug in: "fake-core" runs workload files, "fake-one" one configuration, "fake-seq" its workloads as one
 * sequence a side.
 */
public final class FakeBenchmark implements Benchmark {
  @Override
  public String name() {
    return "fake";
  }

  @Override
  public String script() {
    return "run_fake.sh";
  }

  @Override
  public String summary() {
    return "a benchmark for the tests";
  }

  @Override
  public BenchmarkCommand command() {
    return new Command();
  }

  /**
   * The suites' flags, parsed: a dry run plans a load of --records (its time unknown) and a run
   * of --duration on --db-version V or --hosts H; a run is not the tests' ("refused" hosts are
   * refused, as a real benchmark refuses what it cannot run).
   */
  @CommandLine.Command(name = "run_fake.sh")
  static final class Command implements BenchmarkCommand {
    @CommandLine.Mixin
    RunOptions run = new RunOptions();
    @CommandLine.Mixin
    MergeOptions merging = new MergeOptions();
    @CommandLine.Parameters(arity = "0..1")
    String workload;
    @CommandLine.Option(names = "--records")
    long records;
    @CommandLine.Option(names = "--duration")
    int duration;
    @CommandLine.Option(names = "--phase")
    String phase = "both";
    @CommandLine.Option(names = "--db-version")
    String version;
    @CommandLine.Option(names = "--hosts")
    String hosts;
    @CommandLine.Option(names = "--config")
    Path config;
    @CommandLine.Option(names = "--create")
    boolean create;

    @Override
    public RunOptions output() {
      return run;
    }

    @Override
    public MergeOptions merging() {
      return merging;
    }

    @Override
    public Path merge(List<Path> runs, Path resultsRoot, boolean includeIncomplete, Consumer<String> warn,
        BooleanSupplier stop) {
      throw new UnsupportedOperationException("regress.sh merges nothing");
    }

    @Override
    public Plan plan(Context context) {
      if ("refused".equals(hosts)) {
        throw new UserError("the fake refuses these hosts");
      }
      boolean loads = !phase.equals("run") && (config == null || create);
      List<Outline.Phase> phases = new ArrayList<>();
      if (loads) {
        phases.add(Outline.Phase.untimed("load", records + " records"));
      }
      phases.add(Outline.Phase.timed("run", "", duration));
      Outline outline = new Outline(hosts != null ? hosts + " (given)" : "fake " + version, "off", "fake as tester",
          List.of(loads ? "fake: dropped and created" : "fake: used as it is"), "1", List.of(), phases, null);
      return new Plan() {
        @Override
        public Outline outline() {
          return outline;
        }

        @Override
        public Map<String, String> settings() {
          return Map.of("workload", String.valueOf(workload));
        }

        @Override
        public String workload() {
          return String.valueOf(workload);
        }

        @Override
        public RunOptions output() {
          return run;
        }

        @Override
        public Map<String, String> parameters() {
          return Map.of();
        }

        @Override
        public Map<String, Object> extra() {
          return Map.of();
        }

        @Override
        public RunLifecycle.Target open(Consumer<String> log) {
          throw new UnsupportedOperationException("regress.sh's tests run no benchmark");
        }

        @Override
        public void run(Run r) {
          throw new UnsupportedOperationException("regress.sh's tests run no benchmark");
        }
      };
    }
  }

  @Override
  public List<Suite> suites() {
    return List.of(new Core(), new One(), new Sequenced());
  }

  /** The same workloads run as one sequence a side ("seq"), as YCSB's core runs; --workloads runs them one by one. */
  static final class Sequenced implements Suite {
    private final Core core = new Core();

    @Override
    public String name() {
      return "fake-seq";
    }

    @Override
    public String summary() {
      return "workloads a-d as one sequence";
    }

    @Override
    public List<String> workloads() {
      return core.workloads();
    }

    @Override
    public List<String> workloads(List<String> given, Path home) {
      return core.workloads(given, home);
    }

    @Override
    public List<String> sequence(Path home, List<String> target, Integer duration, long records) {
      List<String> a = new ArrayList<>(List.of("seq"));
      a.addAll(target);
      a.addAll(List.of("--records", Long.toString(records), "--duration", Integer.toString(duration != null
          ? duration : 30)));
      return a;
    }

    @Override
    public List<String> args(Path home, String workload, List<String> target, boolean runOnly, Integer duration,
        long records) {
      return core.args(home, workload, target, runOnly, duration, records);
    }
  }

  /** Workload files, each loaded and run, or run alone on reused data. */
  static final class Core implements Suite {
    static final List<String> WORKLOADS = List.of("workloada", "workloadb", "workloadc", "workloadd");

    @Override
    public String name() {
      return "fake-core";
    }

    @Override
    public String summary() {
      return "workloads a-d";
    }

    @Override
    public List<String> workloads() {
      return WORKLOADS;
    }

    @Override
    public List<String> workloads(List<String> given, Path home) {
      for (String w : given) {
        if (!Files.isRegularFile(home.resolve("workloads").resolve(w))) {
          throw new UserError("--workloads: no workload file workloads/" + w);
        }
      }
      return given;
    }

    @Override
    public List<String> args(Path home, String workload, List<String> target, boolean runOnly, Integer duration,
        long records) {
      List<String> a = new ArrayList<>(List.of(workload));
      a.addAll(target);
      a.addAll(List.of("--records", Long.toString(records), "--duration",
          Integer.toString(duration != null ? duration : 30), "--phase", runOnly ? "run" : "both"));
      return a;
    }
  }

  /** One configuration, named in the rounds' lines as the benchmark calls it. */
  static final class One implements Suite {
    @Override
    public String name() {
      return "fake-one";
    }

    @Override
    public String summary() {
      return "one configuration";
    }

    @Override
    public List<String> workloads() {
      return List.of("one");
    }

    @Override
    public List<String> workloads(List<String> given, Path home) {
      throw new UserError("--workloads: fake-one runs one configuration; leave it out");
    }

    @Override
    public String describe(String workload) {
      return "the one configuration";
    }

    @Override
    public List<String> args(Path home, String workload, List<String> target, boolean runOnly, Integer duration,
        long records) {
      List<String> a = new ArrayList<>(List.of("--config", home.resolve("one.xml").toString()));
      a.addAll(target);
      if (!runOnly) {
        a.add("--create");
      }
      a.addAll(List.of("--duration", Integer.toString(duration != null ? duration : 60)));
      return a;
    }
  }
}
