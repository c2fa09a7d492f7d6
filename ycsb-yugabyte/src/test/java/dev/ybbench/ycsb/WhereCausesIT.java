package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.analysis.Compare;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * compare.sh names the client, or the conflicts, when that is where a change lives — on real
 * runs against one embedded server, the server the same on both sides.
 */
class WhereCausesIT {
  @TempDir
  Path results;

  private static final String[] COMMON = {"--user", "postgres", "--duration", "3", "--no-install"};

  private List<String> args(String hosts, String workload, String label, String phase, String records, String threads) {
    List<String> a = new ArrayList<>(List.of(workload, "--hosts", hosts, "--records", records, "--threads", threads,
        "--phase", phase, "--label", label, "--results-dir", results.toString()));
    a.addAll(List.of(COMMON));
    return a;
  }

  private void inProcess(List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int rc = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME).execute(
        args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8));
    assertEquals(0, rc, out.toString(StandardCharsets.UTF_8));
  }

  /** A run in a JVM of its own, pinned to the cores given (taskset), or free with none. */
  private void ownProcess(List<String> args, String cpus) throws Exception {
    List<String> cmd = new ArrayList<>();
    if (cpus != null) {
      cmd.addAll(List.of("taskset", "-c", cpus));
    }
    cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), "-Dybbench.home=" + RunYcsbTest.HOME, Runner.class.getName(), Ycsb.NAME));
    cmd.addAll(args);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
    assertEquals(0, p.exitValue(), out);
  }

  private JsonNode compare(String a, String b, String... more) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Compare c = new Compare(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    List<String> all = new ArrayList<>(List.of(a, b, "--threshold", "20", "--results-dir",
        results.toString(), "--no-install"));
    all.addAll(List.of(more));
    int rc = c.execute(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    System.out.println(text);
    assertTrue(rc != Compare.CANNOT_COMPARE, text);
    return RunDirectory.JSON.readTree(c.reportDirectory().resolve("comparison.json").toFile());
  }

  /**
   * The candidate's client is pinned to one core (taskset) against the same server: it runs out of
   * CPU, and the attribution names the client. The server is kept off that core, yet it may be
   * named too, and rightly: a machine's two cores are often one core's two hyperthreads, and a
   * busy client on one slowed the server's statements on the other by 25-35 % in clean-clone runs.
   * Five rounds a side: with three, one disturbed round left every interval too wide to name
   * anything ("no layer changed detectably" in a clean-clone run).
   */
  @Test
  @Tag("alone") // measures the machine: runs after the others, one at a time (see the pom)
  void aStarvedClientIsNamed() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 40, System.out::println)) {
      pinServer(pg.pid(), "1");
      inProcess(args(pg.hostPort(), "workloadc", "load", "load", "2000", "4"));
      for (int round = 0; round < 5; round++) {
        ownProcess(args(pg.hostPort(), "workloadc", "free", "run", "2000", "8"), null);
        ownProcess(args(pg.hostPort(), "workloadc", "pinned", "run", "2000", "8"), "0");
      }
      // One core against two is a difference of machine: allowed here, since it is the point.
      JsonNode where = compare("free", "pinned", "--allow-env-diff").at("/where/ycsb~1workloadc");
      String clause = where.get("clause").asText();
      // Named as a cause: "client busy 97 % of its cores (was 55 %)" or "client CPU per op +…, busy …",
      // first or after the server's causes (causes are joined by ", ").
      assertTrue(clause.matches("(.*, )?client (busy |CPU per op \\+).*"), where.toString());
    }
  }

  /** Pins the postmaster and its processes to {@code cpus}; the backends it forks later inherit it. */
  private static void pinServer(long postmaster, String cpus) throws Exception {
    List<Long> pids = new ArrayList<>(List.of(postmaster));
    ProcessHandle.of(postmaster).orElseThrow().children().forEach(c -> pids.add(c.pid()));
    for (long pid : pids) {
      Process p = new ProcessBuilder("taskset", "-a", "-p", "-c", cpus, Long.toString(pid)).redirectErrorStream(true)
          .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertEquals(0, p.waitFor(), out);
    }
  }

  /**
   * The candidate's database runs every transaction SERIALIZABLE: workload A's updates of hot keys
   * conflict (SQLSTATE 40001) and are retried. The attribution names the retries by class.
   */
  @Test // conflicts against none: an effect no busy neighbour can hide, so it runs with the others
  void conflictsAreNamedByClass() throws Exception {
    // 25 hot records and 8 threads: with 100 and 4, the retries rose by under a point, which a
    // busy machine's spread between runs could leave just short of the false-discovery rate.
    // Five runs a side: with three, a clean-clone run's retries spread 0-12 % between runs, and
    // their rise of 4.9 points had an interval from -2.3 to +12.2.
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 40, System.out::println)) {
      inProcess(args(pg.hostPort(), "workloada", "load", "load", "25", "4"));
      for (int i = 0; i < 5; i++) {
        inProcess(args(pg.hostPort(), "workloada", "read-committed", "run", "25", "8"));
      }
      try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/ycsb", "postgres",
          "")) {
        c.createStatement().execute("ALTER DATABASE ycsb SET default_transaction_isolation = 'serializable'");
      }
      for (int i = 0; i < 5; i++) {
        inProcess(args(pg.hostPort(), "workloada", "serializable", "run", "25", "8"));
      }
      JsonNode where = compare("read-committed", "serializable").at("/where/ycsb~1workloada");
      String clause = where.get("clause").asText();
      assertTrue(clause.contains("retries sqlstate-40001 +"), where.toString());
    }
  }
}
