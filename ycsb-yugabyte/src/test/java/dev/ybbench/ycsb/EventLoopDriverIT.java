package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.testing.Jdks;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --driver vertx: the run phase through Vert.x's client, its threads virtual threads on its event loops. */
class EventLoopDriverIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  @Test
  void onAnOlderJavaTheDriverIsOneClearLine() {
    Assumptions.assumeTrue(Runtime.version().feature() < 21, "this JVM has virtual threads");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long t0 = System.nanoTime();
    int rc = new Runner(new Ycsb(), new Console(new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8)), RunYcsbTest.HOME).execute(new String[] {"workloadc", "--driver", "vertx",
        "--results-dir", results.toString()}, new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, rc);
    assertEquals("error: --driver vertx runs the client threads as virtual threads, which need Java 21 or later; "
        + "this is Java " + Runtime.version().feature() + " (put a newer JDK's bin first on PATH, or leave --driver "
        + "vertx out)", err.toString(StandardCharsets.UTF_8).strip());
    assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10), "refused before anything started");
  }

  /** The runner on the newest JDK 21+ of the machine (CI has one beside 17), on an embedded PostgreSQL. */
  @Test
  void theRunPhaseRunsOnTheEventLoopsAndTheServerSeesEveryOperation() throws Exception {
    Optional<Path> java = Jdks.atLeast(21);
    Assumptions.assumeTrue(java.isPresent(), "no JDK 21 or later on this machine (looked at JAVA_HOME and "
        + "/usr/lib/jvm): --driver vertx is tested on older Javas by its refusal only");
    // Without java.lang opened to it the harness cannot give a virtual thread its scheduler: refused by name.
    Process refused = new ProcessBuilder(command(java.get(), false, "workloadc")).redirectErrorStream(true).start();
    String said = new String(refused.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(refused.waitFor(2, TimeUnit.MINUTES));
    assertEquals(2, refused.exitValue(), said);
    assertTrue(said.contains("error: --driver vertx schedules its client threads on its event loops, which needs the "
        + "JVM option --add-opens java.base/java.lang=ALL-UNNAMED"), said);

    Process p = new ProcessBuilder(command(java.get(), true, "workloada")).redirectErrorStream(true).start();
    // The process's OS threads, as the kernel names them, while it runs: the run's clients
    // (ycsb-run-N) never appear as OS threads, Vert.x's event loops do.
    OsThreads threads = OsThreads.of(p);
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(5, TimeUnit.MINUTES));
    Set<String> osThreads = threads.names();
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("Loading 500 records with 8 threads, virtual on 2 OS threads ("), out);
    assertTrue(out.contains("Running workloada with 8 threads, virtual on 2 event loops: unlimited operations"), out);
    assertTrue(osThreads.stream().noneMatch(t -> t.startsWith("ycsb-run")), osThreads.toString());
    assertTrue(osThreads.stream().anyMatch(t -> t.startsWith("vert.x-eventloo")), osThreads.toString());

    Path dir;
    try (Stream<Path> s = Files.list(results)) {
      dir = s.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    JsonNode run = JSON.readTree(dir.resolve("run.json").toFile());
    assertEquals("complete", run.get("state").asText());
    assertEquals("vertx", run.at("/parameters/ysql.driver").asText());
    JsonNode phase = JSON.readTree(dir.resolve("summary.json").toFile()).at("/phases/run");
    assertTrue(phase.get("successes").asLong() > 0, phase.toString());
    assertEquals(0, phase.get("errors").asLong(), phase.toString());
    // Every operation the harness counted is a statement the server ran on the table, and no more.
    assertEquals(phase.get("successes").asLong(), phase.at("/server/harness_operations").asLong(), phase.toString());
    assertEquals(phase.at("/server/harness_operations").asLong(), phase.at("/server/server_statements").asLong(),
        phase.toString());
  }

  private List<String> command(Path java, boolean opened, String workload) {
    List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Xmx512m"));
    if (opened) {
      cmd.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    }
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "-Dybbench.home=" + RunYcsbTest.HOME,
        Runner.class.getName(), Ycsb.NAME, workload, "--driver", "vertx", "--jobs", "2", "--records", "500",
        "--operations", "0", "--threads", "8", "--duration", "4", "--results-dir", results.toString()));
    return cmd;
  }
}
