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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --jobs: the client threads as virtual threads over N OS threads, on Java 21 or later. */
class VirtualThreadsIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path results;

  @Test
  void onAnOlderJavaJobsIsOneClearLine() {
    Assumptions.assumeTrue(Runtime.version().feature() < 21, "this JVM has virtual threads");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long t0 = System.nanoTime();
    int rc = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME)
        .execute(new String[] {"workloadc", "--jobs", "2", "--results-dir", results.toString()},
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, rc, out.toString(StandardCharsets.UTF_8));
    assertEquals("error: --jobs runs the client threads as virtual threads, which need Java 21 or later; this is "
        + "Java " + Runtime.version().feature() + " (put a newer JDK's bin first on PATH, or leave --jobs out)",
        err.toString(StandardCharsets.UTF_8).strip());
    assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10), "refused before anything started");
  }

  /** Runs the runner on the newest JDK 21+ of the machine (CI has one beside 17), on an embedded PostgreSQL. */
  @Test
  void onJava21TheClientsRunAsVirtualThreadsAndEveryOperationIsCounted() throws Exception {
    Optional<Path> java = Jdks.atLeast(21);
    Assumptions.assumeTrue(java.isPresent(), "no JDK 21 or later on this machine (looked at JAVA_HOME and "
        + "/usr/lib/jvm): --jobs is tested on older Javas by its refusal only");
    List<String> cmd = List.of(java.get().toString(), "-Xmx512m", "-cp", System.getProperty("java.class.path"),
        "-Dybbench.home=" + RunYcsbTest.HOME, Runner.class.getName(), Ycsb.NAME, "workloada", "--records", "500",
        "--operations", "0", "--threads", "8", "--jobs", "2", "--duration", "4", "--results-dir", results.toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    // The process's OS threads, as the kernel names them, while it runs: the clients' names
    // (ycsb-load-N, ycsb-run-N) never appear as OS threads, the virtual threads' carriers do.
    OsThreads threads = OsThreads.of(p);
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(5, TimeUnit.MINUTES));
    Set<String> osThreads = threads.names();
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("Loading 500 records with 8 threads, virtual on 2 OS threads"), out);
    assertTrue(out.contains("Running workloada with 8 threads, virtual on 2 OS threads: unlimited operations"), out);
    assertTrue(osThreads.stream().noneMatch(t -> t.startsWith("ycsb-")), osThreads.toString());
    assertTrue(osThreads.stream().anyMatch(t -> t.startsWith("ForkJoinPool")), osThreads.toString());

    Path dir;
    try (Stream<Path> s = Files.list(results)) {
      dir = s.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    JsonNode run = JSON.readTree(dir.resolve("run.json").toFile());
    assertEquals("complete", run.get("state").asText());
    assertEquals("2", run.at("/parameters/ybbench.jobs").asText());
    assertTrue(run.at("/harness/jdk").asText().matches(".* (2[1-9]|[3-9]\\d)[.+].*"), run.at("/harness").toString());
    JsonNode summary = JSON.readTree(dir.resolve("summary.json").toFile());
    assertEquals(500, summary.at("/phases/load/successes").asLong());
    JsonNode phase = summary.at("/phases/run");
    assertTrue(phase.get("successes").asLong() > 0, phase.toString());
    assertEquals(0, phase.get("errors").asLong(), phase.toString());
  }
}
