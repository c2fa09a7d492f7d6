package dev.ybbench.harness.benchmark;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The benchmarks on the class path, found through the ServiceLoader: each module's
 * META-INF/services/dev.ybbench.harness.benchmark.Benchmark names its class. No list of names
 * anywhere else.
 */
public final class Benchmarks {
  private Benchmarks() {}

  /** Every registered benchmark, by name. */
  public static List<Benchmark> all() {
    return ServiceLoader.load(Benchmark.class).stream().map(ServiceLoader.Provider::get)
        .sorted(Comparator.comparing(Benchmark::name)).toList();
  }

  /**
   * A format-2 summary's own fields moved by the benchmark that wrote it, where it is registered
   * (for {@code RunSummary.read}).
   */
  public static void upgradeFormat2(ObjectNode summary) {
    Benchmark b = find(summary.path("bench").asText());
    if (b != null) {
      b.upgradeFormat2(summary);
    }
  }

  /** The benchmark of that name, or null. */
  public static Benchmark find(String name) {
    return all().stream().filter(b -> b.name().equals(name)).findFirst().orElse(null);
  }

  /**
   * {@code ./ybbench --help}, or no benchmark or an unknown one: the registered benchmarks, one a
   * line.
   *
   * @return the exit code: 0 for help, 2 for no benchmark or a name no benchmark has
   */
  static int usage(String asked, PrintStream out, PrintStream err) {
    if (asked != null && !asked.equals("-h") && !asked.equals("--help")) {
      err.println("error: no benchmark '" + asked + "': use one of " + String.join(", ", all().stream()
          .map(Benchmark::name).toList()) + " (./ybbench --help)");
      return 2;
    }
    out.println("Usage: ybbench BENCHMARK [options]   (./ybbench BENCHMARK --help for its options)");
    out.println();
    out.println("Benchmarks:");
    for (Benchmark b : all()) {
      out.printf("  %-10s %s (also ./%s)%n", b.name(), b.summary(), b.script());
    }
    return asked == null ? 2 : 0;
  }
}
