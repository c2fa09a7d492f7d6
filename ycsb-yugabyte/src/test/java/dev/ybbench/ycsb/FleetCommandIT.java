package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.cli.ShutdownGuard;
import dev.ybbench.harness.fleet.FleetCommand;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.testing.Awaits;
import dev.ybbench.harness.testing.CtrlC;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fleet.sh's command: it plans each workload as run_ycsb.sh does, starts one embedded server,
 * runs its clients as processes (run_ycsb.sh's main on this JVM's class path and options), finds
 * their runs by their run.json, and merges and audits them in this process.
 */
class FleetCommandIT {
  @TempDir
  Path results;

  private record Outcome(int exitCode, String out, String err, List<Path> runs) {}

  private Outcome fleet(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    FleetCommand cmd = new FleetCommand(new Console(new PrintStream(out, true, StandardCharsets.UTF_8)),
        RunYcsbTest.HOME, new ShutdownGuard(() -> { }, () -> { }, Duration.ofSeconds(1)));
    List<String> all = new ArrayList<>(List.of("--benchmark", "ycsb")); // as fleet.sh gives it
    all.addAll(List.of(args));
    int rc = cmd.execute(all.toArray(String[]::new), new PrintStream(err, true, StandardCharsets.UTF_8));
    System.out.println(out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), cmd.runs());
  }

  @Test
  void twoClientsLoadAndRunOneTableAndTheirMergeMatchesTheServer() throws Exception {
    Outcome o = fleet("--clients", "2", "workloada", "--records", "2000", "--operations", "1000", "--threads", "2",
        "--results-dir", results.toString());
    assertEquals(0, o.exitCode(), o.err() + o.out());
    assertTrue(o.out().startsWith("Embedded server PostgreSQL "), o.out());
    assertEquals(2, o.runs().size(), "the load's merge, then the run's: " + o.out());
    JsonNode load = RunDirectory.JSON.readTree(o.runs().get(0).resolve("summary.json").toFile()).at("/phases/load");
    assertEquals(2000, load.get("successes").asLong(), load.toString());
    JsonNode run = RunDirectory.JSON.readTree(o.runs().get(1).resolve("summary.json").toFile()).at("/phases/run");
    assertEquals(2000, run.get("successes").asLong(), "1000 operations a client: " + run);
    assertTrue(o.out().contains("[load] the clients wrote exactly the 2000 records asked for"), o.out());
    assertTrue(o.out().contains("[run] server audit: the clients counted 2000 operations, the server completed 2000 "
        + "statements on the table"), o.out());
    // Each merge names its parts: the two clients' runs of that phase, found by their run.json.
    JsonNode parts = RunDirectory.JSON.readTree(o.runs().get(1).resolve("run.json").toFile());
    assertEquals(2, parts.at("/merged_from").size(), parts.toString());
  }

  /**
   * Ctrl-C (SIGINT to fleet.sh's process alone) in the run phase: every client stops and writes
   * what it measured, marked interrupted; nothing is merged; the embedded server stops; exit 130.
   */
  @Test
  void ctrlCStopsEveryClientKeepsWhatTheyMeasuredAndStopsTheServer() throws Exception {
    try (CtrlC p = CtrlC.startJava(FleetCommand.class, RunYcsbTest.HOME, List.of("--benchmark", "ycsb", "--clients",
        "2", "workloadc",
        "--records", "1000", "--duration", "300", "--threads", "1", "--results-dir", results.toString()))) {
      p.awaitLine(l -> l.startsWith("[run] workloadc: 2 clients"), Duration.ofSeconds(120));
      Awaits.phaseStarted(results, "run", 2);
      Matcher server = Pattern.compile("on 127\\.0\\.0\\.1:(\\d+),").matcher(p.output());
      assertTrue(server.find(), p.output());
      p.send();
      assertEquals(130, p.exitCode(Duration.ofSeconds(60)), p.output());
      assertTrue(p.output().contains("Interrupted: each client kept what it measured; nothing merged"), p.output());
      for (int i = 0; i < 2; i++) {
        Path run = FleetCommand.runOf(results, p.output().replaceFirst("(?s).*of fleet (\\S+) .*", "$1"), i);
        assertEquals("interrupted", RunDirectory.JSON.readTree(run.resolve("run.json").toFile()).get("state")
            .asText(), "client " + i + ": " + run);
        assertTrue(RunDirectory.JSON.readTree(run.resolve("summary.json").toFile()).at("/phases/run/successes")
            .asLong() > 0, "what it measured is kept: " + run);
      }
      try (Socket s = new Socket()) {
        assertThrows(IOException.class, () -> s.connect(new InetSocketAddress("127.0.0.1",
            Integer.parseInt(server.group(1))), 1000), "the embedded server stopped");
      }
      try (Stream<Path> dirs = Files.list(results)) {
        assertEquals(1, dirs.filter(d -> d.getFileName().toString().contains("-merged_")).count(),
            "the load's merge alone: the interrupted run phase is not merged");
      }
    }
  }

  @Test
  void aClientThatFailsIsNamedWithItsLogAndNothingIsMerged() {
    Outcome o = fleet("--clients", "2", "workloada", "--records", "200", "--hosts", "127.0.0.1:1", "--results-dir",
        results.toString());
    assertEquals(1, o.exitCode(), o.out());
    assertTrue(o.out().contains("error: client 0 of 2 failed its load phase (exit 2); the end of its log:\n"
        + "error: Cannot connect to YSQL at 127.0.0.1:1"), o.out());
    assertTrue(o.out().contains("error: client 1 of 2 failed its load phase"), o.out());
    assertEquals(List.of(), o.runs());
  }

  @Test
  void badInputIsOneLineBeforeAnythingStarts() {
    List<List<String>> cases = List.of(
        List.of("workloada"),
        List.of("--clients", "0", "workloada"),
        List.of("--clients", "2"),
        List.of("--clients", "2", "workloada", "--treads", "4"),
        List.of("--clients", "2", "workloada", "--fleet", "f"),
        List.of("--clients", "2", "sqlinserts-read"),
        List.of("--clients", "2", "workloada", "sqlinserts", "--api", "ysql", "--records", "1"),
        List.of("--clients", "2", "workloada", "--hosts", "127.0.0.1", "--db-version", "16"),
        List.of("--clients", "2", "workloada", "--phase", "create"));
    for (List<String> args : cases) {
      List<String> all = new ArrayList<>(args);
      all.addAll(List.of("--results-dir", results.toString()));
      Outcome o = fleet(all.toArray(String[]::new));
      assertEquals(2, o.exitCode(), args + ": " + o.out() + o.err());
      assertEquals(1, o.err().strip().lines().count(), args + " printed: " + o.err());
      assertTrue(o.err().startsWith("error: ") && !o.err().contains("Exception"), o.err());
      assertEquals("", o.out(), "nothing started: " + o.out());
    }
  }

  @Test
  void aDryRunPrintsEachClientsCommandAndStartsNothing() {
    Outcome o = fleet("--clients", "3", "workloada", "--records", "3000", "--threads", "2", "--dry-run",
        "--results-dir", results.toString());
    assertEquals(0, o.exitCode(), o.err());
    List<String> lines = o.out().lines().toList();
    assertEquals(3, lines.size(), o.out());
    assertTrue(lines.get(0).matches("\\[load] workloada: 3 clients at once, each: \\./run_ycsb\\.sh workloada "
        + "--records 3000 --threads 2 --api ysql --hosts '<embedded server>' --phase load --clients 3 --client-index I "
        + "--fleet fleet-\\d{8}T\\d{6}Z-\\d+-1-load --results-dir .* --no-install"), lines.get(0));
    assertTrue(lines.get(1).startsWith("[run] workloada: 3 clients at once"), lines.get(1));
    assertEquals("Dry run: nothing started", lines.get(2));
  }

  /** A client's run is the one whose run.json names the fleet (each step's own) and the client. */
  @Test
  void aClientsRunIsFoundByItsRunJson() throws Exception {
    write("a", "f-1-load", 0);
    write("b", "f-1-load", 1);
    write("c", "f-1-run", 1);
    write("d", "f-2-run", 1);
    Files.createDirectories(results.resolve("e")); // a directory that is not a run
    assertEquals(results.resolve("b"), FleetCommand.runOf(results, "f-1-load", 1));
    assertEquals(results.resolve("c"), FleetCommand.runOf(results, "f-1-run", 1));
    assertEquals(results.resolve("d"), FleetCommand.runOf(results, "f-2-run", 1));
    assertNull(FleetCommand.runOf(results, "f-1-load", 2), "a client that made no run");
    assertNull(FleetCommand.runOf(results, "f-2-load", 1));
  }

  private void write(String dir, String fleet, int index) throws Exception {
    Files.createDirectories(results.resolve(dir));
    Files.writeString(results.resolve(dir).resolve("run.json"), "{\"fleet\": {\"id\": \"" + fleet + "\", \"clients\": "
        + "2, \"index\": " + index + "}}");
  }
}
