package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.testing.Awaits;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under a target rate a stall of the server must show in the latency: the operations the schedule
 * wanted started during the stall waited for it (coordinated omission). The server's processes
 * are stopped for 2 s in the middle of a paced run.
 */
class IntendedLatencyIT {
  @TempDir
  Path results;

  @Test
  void aTwoSecondStallShowsInTheIntendedStartLatencyButBarelyInTheActualStart() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 30, System.out::println)) {
      Thread staller = new Thread(() -> {
        try {
          Awaits.phaseStarted(results, "run");
          Thread.sleep(4000);
          List<ProcessHandle> server = Stream.concat(ProcessHandle.of(pg.pid()).stream(),
              ProcessHandle.of(pg.pid()).stream().flatMap(ProcessHandle::descendants)).toList();
          signal("STOP", server);
          Thread.sleep(2000);
          signal("CONT", server);
          System.out.println("test: the server was stopped for 2 s");
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
      staller.start();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
      // 200 ops/s over 2 threads: a rate any machine reaches, so the schedule, not the server, sets the pace.
      int rc = cmd.execute(new String[] {"workloadc", "--records", "1000", "--threads", "2", "--target", "200",
          "--duration", "12", "--hosts", pg.hostPort(), "--user", "postgres", "--results-dir", results.toString()},
          System.err);
      staller.join();
      System.out.println(out.toString(StandardCharsets.UTF_8));
      assertEquals(0, rc, out.toString(StandardCharsets.UTF_8));
      JsonNode run = new ObjectMapper().readTree(cmd.runDirectory().resolve("summary.json").toFile())
          .at("/phases/run");
      assertEquals("intended start", run.get("latency_from").asText(), run.toString());
      JsonNode read = run.at("/operations/READ");
      long intendedP99 = read.at("/latency_us/p99").asLong();
      long actualP99 = read.at("/latency_actual_us/p99").asLong();
      // ~400 of ~2400 reads were due during the stall: from their intended start they waited up to 2 s.
      assertTrue(intendedP99 >= 1_000_000, "intended-start p99 " + intendedP99 + " µs: " + read);
      // From their actual start only the few in flight when the server stopped were slow.
      assertTrue(actualP99 < 500_000, "actual-start p99 " + actualP99 + " µs: " + read);
      assertEquals(read.at("/latency_us/count").asLong(), read.at("/latency_actual_us/count").asLong());
      assertTrue(Files.exists(cmd.runDirectory().resolve("latency/actual-start/run-READ.hlog")));
    }
  }

  private static void signal(String name, List<ProcessHandle> processes) throws Exception {
    for (ProcessHandle p : processes) {
      new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).inheritIO().start().waitFor();
    }
  }
}
