package dev.ybbench.analysis.regress;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Benchmark;
import dev.ybbench.harness.benchmark.BenchmarkCommand;
import dev.ybbench.harness.benchmark.Suite;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A benchmark registered for the analysis module's tests alone (src/test/resources/META-INF/services),
 * so that regress.sh's rounds and bisection are tested through the registry as the real benchmarks
 * plug in: "fake-core" runs workload files, "fake-one" one configuration.
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
    throw new UnsupportedOperationException("regress.sh's tests run no benchmark");
  }

  @Override
  public List<Suite> suites() {
    return List.of(new Core(), new One());
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
