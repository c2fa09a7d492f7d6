package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.results.Console;
import dev.ybbench.ycsb.client.LoadCheckpoint;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet that loses a client: two clients load one table, client 1 is SIGKILLed half-way, its
 * load is resumed, and the merge of client 0, the killed run and its resume is one whole load
 * whose audit is exact (rows against the records asked; the server's statements from the killed
 * run's start against every client's operations, the killed run's rows and the resume's look-ups
 * among them). The killed run alone is refused with the command that resumes it.
 */
class ResumedFleetIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int RECORDS = 6000;

  @TempDir
  Path results;

  private record Outcome(int exitCode, String out, Path runDir) {}

  private Outcome ycsb(List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)),
        RunYcsbTest.HOME);
    int rc = cmd.execute(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8));
    System.out.println(out.toString(StandardCharsets.UTF_8));
    return new Outcome(rc, out.toString(StandardCharsets.UTF_8), cmd.runDirectory());
  }

  @Test
  void aKilledClientsResumedLoadMergesWholeAndAuditsExactly() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 40, System.out::println)) {
      // Paced, so that the kill lands in the middle; batches of 16, so that some rows are in doubt.
      List<String> flags = List.of("workloada", "--phase", "load", "--records", Integer.toString(RECORDS), "--target",
          "1000", "--threads", "2", "--batch-size", "16", "--clients", "2", "--fleet", "lost1", "--database", "lost",
          "--hosts", pg.hostPort(), "--user", "postgres", "--results-dir", results.toString(), "--no-install");
      List<Process> clients = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        List<String> args = new ArrayList<>(flags);
        args.addAll(List.of("--client-index", Integer.toString(i)));
        clients.add(client(args, results.resolve("client" + i + ".log")));
      }
      Path killed = null;
      long deadline = System.nanoTime() + 180_000_000_000L;
      while (System.nanoTime() < deadline && clients.get(1).isAlive()) {
        killed = runOf(1);
        Path checkpoint = killed == null ? null : killed.resolve(LoadCheckpoint.FILE);
        if (checkpoint != null && Files.isRegularFile(checkpoint) && written(checkpoint) >= RECORDS / 6) {
          break;
        }
        Thread.sleep(50);
      }
      assertTrue(clients.get(1).isAlive(), "client 1 ended before it could be killed: "
          + Files.readString(results.resolve("client1.log")));
      clients.get(1).destroyForcibly(); // SIGKILL
      clients.get(1).waitFor();
      assertEquals(0, clients.get(0).waitFor(), Files.readString(results.resolve("client0.log")));
      Path client0 = runOf(0);

      Outcome alone = ycsb(List.of("--merge", client0.toString(), killed.toString()));
      assertEquals(2, alone.exitCode(), alone.out());
      assertTrue(alone.out().contains("its load never finished; resume it (./run_ycsb.sh workloada --phase load"),
          alone.out());
      assertTrue(alone.out().contains("--client-index 1 --resume " + killed), alone.out());

      List<String> again = new ArrayList<>(flags);
      again.addAll(List.of("--client-index", "1", "--resume", killed.toString()));
      Outcome resumed = ycsb(again);
      assertEquals(0, resumed.exitCode(), resumed.out());
      try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/lost", "postgres", "");
          ResultSet rs = c.createStatement().executeQuery("SELECT count(*), count(DISTINCT ycsb_key) FROM usertable")) {
        rs.next();
        assertEquals(RECORDS, rs.getLong(1), "every record, once");
        assertEquals(RECORDS, rs.getLong(2));
      }

      for (List<Path> given : List.of(List.of(client0, killed, resumed.runDir()), List.of(client0, resumed.runDir()))) {
        List<String> merge = new ArrayList<>(List.of("--merge"));
        given.forEach(d -> merge.add(d.toString()));
        merge.addAll(List.of("--results-dir", results.resolve("merged" + given.size()).toString()));
        Outcome m = ycsb(merge);
        assertEquals(0, m.exitCode(), m.out());
        assertTrue(m.out().contains("[load] the clients wrote exactly the " + RECORDS + " records asked for"), m.out());
        assertTrue(m.out().contains("[load] client 1 was killed and resumed"), m.out());
        JsonNode run = JSON.readTree(m.runDir().resolve("run.json").toFile());
        assertEquals(1, run.at("/resumed/0/client").asInt(), run.toString());
        assertEquals(killed.getFileName().toString(), run.at("/resumed/0/killed/0").asText());
        String killedStarted = JSON.readTree(killed.resolve("run.json").toFile()).get("started").asText();
        assertTrue(java.time.Instant.parse(run.get("started").asText()).compareTo(java.time.Instant.parse(killedStarted))
            <= 0, "the merged load's window holds the killed run's: " + run.get("started") + ", " + killedStarted);
        JsonNode server = JSON.readTree(m.runDir().resolve("summary.json").toFile()).at("/phases/load/server");
        assertEquals(server.get("harness_operations").asLong(), server.get("server_statements").asLong(),
            "the server's statements from the killed run's start: " + server);
      }
      // Broken data fails the audit: the resume's record of the rows the killed run wrote, one short.
      Path checkpoint = resumed.runDir().resolve(LoadCheckpoint.FILE);
      com.fasterxml.jackson.databind.node.ObjectNode saved = (com.fasterxml.jackson.databind.node.ObjectNode)
          JSON.readTree(checkpoint.toFile());
      com.fasterxml.jackson.databind.node.ObjectNode from = (com.fasterxml.jackson.databind.node.ObjectNode)
          saved.get("resumed_from");
      from.put("written", from.get("written").asLong() - 1);
      JSON.writeValue(checkpoint.toFile(), saved);
      Outcome broken = ycsb(List.of("--merge", client0.toString(), resumed.runDir().toString(), "--results-dir",
          results.resolve("broken").toString()));
      assertEquals(1, broken.exitCode(), broken.out());
      assertTrue(broken.out().contains("error: [load] the clients wrote " + (RECORDS - 1) + " of the " + RECORDS),
          broken.out());

      // A client killed in the run phase: merged with --include-incomplete, the merge is partial and names it.
      Path runs = results.resolve("run-phase");
      List<String> run = new ArrayList<>(flags.stream().map(f -> f.equals("load") ? "run" : f).toList());
      run.set(run.indexOf(results.toString()), runs.toString());
      run.addAll(List.of("--duration", "8", "--client-index"));
      List<Process> runners = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        List<String> args = new ArrayList<>(run);
        args.add(Integer.toString(i));
        runners.add(client(args, results.resolve("run" + i + ".log")));
      }
      Files.createDirectories(runs);
      Path dying = null;
      for (long end = System.nanoTime() + 120_000_000_000L; System.nanoTime() < end && dying == null; Thread.sleep(100)) {
        dying = phaseStarted(runs, 1);
      }
      Thread.sleep(1000);
      runners.get(1).destroyForcibly();
      runners.get(1).waitFor();
      assertEquals(0, runners.get(0).waitFor(), Files.readString(results.resolve("run0.log")));
      Path kept = runOf(runs, 0);
      Outcome refused = ycsb(List.of("--merge", kept.toString(), dying.toString()));
      assertEquals(2, refused.exitCode(), refused.out());
      Outcome partial = ycsb(List.of("--merge", kept.toString(), dying.toString(), "--include-incomplete",
          "--results-dir", results.resolve("partial").toString()));
      assertEquals(0, partial.exitCode(), partial.out());
      JsonNode merged = JSON.readTree(partial.runDir().resolve("summary.json").toFile());
      assertEquals("partial", merged.get("state").asText());
      assertTrue(merged.get("reason").asText().matches("the fleet of 2 clients is not whole: client 1 was killed \\d+ s "
          + "into its run \\(" + dying.getFileName() + " never finished\\)"), merged.get("reason").asText());
    }
  }

  /**
   * fleet.sh losing a client mid-load: with --retry-clients 1 it resumes it and the load merges
   * whole; without, it names the client and prints the commands that resume it and merge.
   */
  @Test
  void fleetShResumesAClientThatDiesInItsLoadWhenAskedAndOtherwiseSaysHow() throws Exception {
    for (boolean retry : new boolean[] {true, false}) {
      Path dir = results.resolve(retry ? "retried" : "not-retried");
      List<String> args = new ArrayList<>(List.of("--benchmark", "ycsb", "--clients", "2", "workloada", "--phase",
          "load", "--records", Integer.toString(RECORDS), "--target", "1000", "--threads", "2", "--batch-size", "16",
          "--results-dir", dir.toString()));
      if (retry) {
        args.addAll(List.of("--retry-clients", "1"));
      }
      Files.createDirectories(dir);
      Thread killer = new Thread(() -> killClientOneHalfWay(dir));
      killer.start();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      dev.ybbench.harness.fleet.FleetCommand fleet = new dev.ybbench.harness.fleet.FleetCommand(new Console(
          new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME,
          new dev.ybbench.harness.cli.ShutdownGuard(() -> { }, () -> { }, java.time.Duration.ofSeconds(1)));
      int rc = fleet.execute(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8));
      killer.join();
      String printed = out.toString(StandardCharsets.UTF_8);
      System.out.println(printed);
      if (retry) {
        assertEquals(0, rc, printed);
        assertTrue(printed.contains("[load] client 1 of 2 died (exit 137), "), printed);
        assertTrue(printed.contains("resuming it (1 of 1)"), printed);
        assertTrue(printed.contains("[load] client 1 was killed and resumed"), printed);
        assertTrue(printed.contains("[load] the clients wrote exactly the " + RECORDS + " records asked for"), printed);
      } else {
        assertEquals(1, rc, printed);
        assertTrue(printed.contains("error: client 1 of 2 failed its load phase (exit 137)"), printed);
        assertTrue(printed.contains("To recover this step, resume the client (or run fleet.sh with --retry-clients 1):"),
            printed);
        assertTrue(printed.matches("(?s).*\\n  \\./run_ycsb\\.sh workloada .*--client-index 1 .*--resume \\S+\\n.*"),
            printed);
        assertTrue(printed.contains("  ./run_ycsb.sh --merge "), printed);
      }
    }
  }

  /** A process's command line as /proc has it (ProcessHandle.Info leaves a long one out). */
  private static String commandLine(ProcessHandle p) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).replace('\0', ' ');
    } catch (java.io.IOException e) {
      return "";
    }
  }

  /** The rows a load's checkpoint confirms; 0 while it is being rewritten (read half-written). */
  private static long written(Path checkpoint) {
    try {
      return JSON.readTree(checkpoint.toFile()).path("written").asLong();
    } catch (java.io.IOException e) {
      return 0;
    }
  }

  /** Kills fleet.sh's client 1 (SIGKILL) once its checkpoint has a sixth of the records. */
  private void killClientOneHalfWay(Path dir) {
    long deadline = System.nanoTime() + 180_000_000_000L;
    try {
      while (System.nanoTime() < deadline) {
        Path run;
        try {
          run = runOf(dir, 1);
        } catch (java.io.IOException e) {
          continue; // a run.json read as it was written
        }
        Path checkpoint = run == null ? null : run.resolve(LoadCheckpoint.FILE);
        // Its checkpoint is written every 1,000 keys handed out: the second says about a third is written.
        if (checkpoint != null && Files.isRegularFile(checkpoint) && written(checkpoint) >= RECORDS / 12) {
          ProcessHandle.current().descendants().filter(p -> commandLine(p).contains(" --client-index 1 "))
              .forEach(ProcessHandle::destroyForcibly);
          return;
        }
        Thread.sleep(50);
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A client of run_ycsb.sh's runner in a process of its own (so that it can be SIGKILLed), its output in {@code log}. */
  private static Process client(List<String> args, Path log) throws java.io.IOException {
    List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-Dybbench.home=" + RunYcsbTest.HOME,
        Runner.class.getName(), Ycsb.NAME));
    java.addAll(args);
    return new ProcessBuilder(java).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** Client {@code index}'s run under {@code results} once its run phase has begun (its timeseries has a row). */
  private static Path phaseStarted(Path results, int index) throws Exception {
    try {
      Path run = runOf(results, index);
      Path ts = run == null ? null : run.resolve("timeseries.csv");
      return ts != null && Files.isRegularFile(ts) && Files.readAllLines(ts).size() > 1 ? run : null;
    } catch (java.io.IOException e) {
      return null;
    }
  }

  /** The run client {@code index} made, by its run.json; null before it has one. */
  private Path runOf(int index) throws Exception {
    return runOf(results, index);
  }

  private static Path runOf(Path results, int index) throws Exception {
    try (Stream<Path> dirs = Files.list(results)) {
      for (Path d : dirs.filter(Files::isDirectory).sorted().toList()) {
        Path info = d.resolve("run.json");
        if (Files.isRegularFile(info) && JSON.readTree(info.toFile()).at("/fleet/index").asInt(-1) == index
            && !JSON.readTree(info.toFile()).has("resumed_from")) {
          return d;
        }
      }
    }
    return null;
  }
}
