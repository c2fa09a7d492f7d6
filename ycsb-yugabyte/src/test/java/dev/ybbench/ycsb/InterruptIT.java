package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.testing.Awaits;
import dev.ybbench.harness.testing.CtrlC;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C in the middle of a run, sent to a real harness process as SIGINT. */
@Tag("alone") // times Ctrl-C against 5 s, which a machine busy with other tests would decide
class InterruptIT {
  @TempDir
  Path results;

  @Test
  void ctrlCWritesWhatWasMeasuredMarksItInterruptedAndStopsTheServer() throws Exception {
    interrupt("Running workloadc", "run", "READ", "--records", "2000");
  }

  @Test
  void ctrlCDuringTheLoadIsHonouredToo() throws Exception {
    interrupt("Loading ", "load", "INSERT", "--records", "5000000");
  }

  /**
   * Ctrl-C while the embedded PostgreSQL is prepared: its binaries unpacked (a machine's first
   * run) and its data directory made by initdb (every run), each a few seconds on a busy
   * machine. Each ends within 5 s, and leaves neither half-unpacked binaries nor an instance.
   */
  @Test
  void ctrlCWhileTheEmbeddedPostgresIsUnpackedOrInitialised() throws Exception {
    String uid = Long.toString(new com.sun.security.auth.module.UnixSystem().getUid());
    // A first run on this machine: a temporary directory without the binaries.
    Path fresh = Files.createDirectories(results.resolve("tmp"));
    Path base = fresh.resolve("ybbench-" + uid);
    String out = ctrlCWhen(List.of("-Djava.io.tmpdir=" + fresh), pid -> !matching(base, "postgres-*.tmp-*").isEmpty());
    assertEquals(List.of(), matching(base, "postgres-*"), "half-unpacked binaries are left: " + out);

    // Every run: initdb, here beside the binaries other tests have unpacked.
    Path instances = Path.of(System.getProperty("java.io.tmpdir"), "ybbench-" + uid, "instances");
    Path[] mine = new Path[1];
    out = ctrlCWhen(List.of(), pid -> {
      for (Path d : matching(instances, "pg-*")) {
        Path owner = d.resolve("owner");
        if (Files.isDirectory(d.resolve("data")) && Files.exists(owner)
            && Files.readString(owner).startsWith(pid + " ")) {
          mine[0] = d;
          return true;
        }
      }
      return false;
    });
    assertFalse(Files.exists(mine[0]), "the instance is left: " + mine[0] + "; the harness printed:\n" + out);
  }

  private interface When {
    boolean now(long pid) throws Exception;
  }

  /**
   * Sends SIGINT to a YCSB run as soon as {@code when} holds; it must exit 130 within 5 s, with no
   * run directory. Returns what it printed.
   */
  private String ctrlCWhen(List<String> jvmOptions, When when) throws Exception {
    Path runs = results.resolve("runs");
    try (CtrlC p = CtrlC.startJava(jvmOptions, Runner.class, RunYcsbTest.HOME, List.of(Ycsb.NAME, "workloadc",
        "--records", "1000", "--duration", "300", "--results-dir", runs.toString()))) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!when.now(p.pid())) {
        assertTrue(System.nanoTime() < deadline, "the moment never came; the harness printed:\n" + p.output());
        Thread.sleep(5);
      }
      p.send();
      long sent = System.nanoTime();
      assertEquals(130, p.exitCode(java.time.Duration.ofSeconds(60)), p.output());
      double seconds = (System.nanoTime() - sent) / 1e9;
      assertTrue(seconds < 5, "Ctrl-C took " + seconds + " s: " + p.output());
      assertEquals(List.of(), matching(runs, "*"), "a run directory for a run that never started");
      return p.output();
    }
  }

  private static List<Path> matching(Path dir, String glob) throws java.io.IOException {
    List<Path> out = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      try (var s = Files.newDirectoryStream(dir, glob)) {
        s.forEach(out::add);
      }
    }
    return out;
  }

  /**
   * Ctrl-C while an embedded 3-node Cassandra cluster starts: the start stops (it used to finish
   * starting every node first, ~27 s), the node already up is killed, its directory deleted.
   */
  @Test
  void ctrlCWhileAnEmbeddedClusterStartsEndsWithinFiveSeconds() throws Exception {
    List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-Dybbench.home=" + RunYcsbTest.HOME,
        Runner.class.getName(), Ycsb.NAME, "workloadc", "--api", "ycql", "--nodes", "3", "--results-dir", results.toString());
    Process p = new ProcessBuilder(CtrlC.withDefaultAction(cmd)).redirectErrorStream(true).start();
    List<String> lines = new ArrayList<>();
    Pattern firstNode = Pattern.compile("node 1 answers CQL on 127\\.0\\.0\\.1:(\\d+)");
    String port = null;
    long signalled = 0;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String l; (l = out.readLine()) != null; ) {
        lines.add(l);
        Matcher m = firstNode.matcher(l);
        if (port == null && m.find()) {
          port = m.group(1);
          new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
          signalled = System.nanoTime();
        }
      }
    }
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the harness did not exit after Ctrl-C");
    double seconds = (System.nanoTime() - signalled) / 1e9;
    assertNotNull(port, String.join("\n", lines));
    assertTrue(seconds < 5, "Ctrl-C took " + seconds + " s: " + String.join("\n", lines));
    assertEquals(130, p.exitValue(), String.join("\n", lines));
    String cluster = Path.of(System.getProperty("java.io.tmpdir"), "ybbench-"
        + new com.sun.security.auth.module.UnixSystem().getUid(), "instances", "cassandra-" + port).toString();
    assertFalse(Files.exists(Path.of(cluster)), "the cluster's directory is still there: " + cluster);
    assertTrue(ProcessHandle.allProcesses().noneMatch(h -> h.info().arguments()
        .map(a -> String.join(" ", a).contains(cluster)).orElse(false)), "a node of " + cluster + " still runs");
  }

  /**
   * Ctrl-C while the table is being created on a server whose DDL waits (here on the table, which
   * another session holds locked, as a busy cluster's DDL can wait): the DROP is cancelled on the
   * server, not left to run when the lock is free, and the run ends interrupted within 5 s.
   */
  @Test
  void ctrlCWhileTheSchemaWaitsOnTheServer() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println);
        Connection setup = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/postgres",
            "postgres", "")) {
      setup.createStatement().execute("CREATE DATABASE ycsb");
      try (Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/ycsb", "postgres",
          "")) {
        c.createStatement().execute("CREATE TABLE usertable (ycsb_key VARCHAR(255) PRIMARY KEY)");
        c.createStatement().execute("INSERT INTO usertable VALUES ('kept')");
        c.setAutoCommit(false);
        c.createStatement().execute("LOCK TABLE usertable IN ACCESS EXCLUSIVE MODE");
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
            System.getProperty("java.class.path"), "-Dybbench.home=" + RunYcsbTest.HOME, Runner.class.getName(), Ycsb.NAME,
            "workloadc", "--hosts", pg.hostPort(), "--user", "postgres", "--phase", "load", "--records", "100",
            "--results-dir", results.toString());
        Process p = new ProcessBuilder(CtrlC.withDefaultAction(cmd)).redirectErrorStream(true).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        boolean waiting = false;
        while (!waiting && p.isAlive() && System.nanoTime() < deadline) {
          Thread.sleep(100);
          waiting = Awaits.anotherSessionWaitsOnALock(c);
        }
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        long signalled = System.nanoTime();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        double seconds = (System.nanoTime() - signalled) / 1e9;
        assertTrue(waiting, "the harness's DDL never waited on the lock: " + out);
        assertTrue(seconds < 5, "Ctrl-C took " + seconds + " s: " + out);
        assertEquals(130, p.exitValue(), out);
        Matcher m = Pattern.compile("(?m)^Results: (.+)$").matcher(out);
        assertTrue(m.find(), out);
        assertEquals("interrupted", new ObjectMapper().readTree(Path.of(m.group(1).strip()).resolve("run.json")
            .toFile()).get("state").asText(), out);
        c.rollback(); // the lock is free: a DROP left waiting on the server would run now
        c.setAutoCommit(true);
        Awaits.otherSessionsGone(c);
        try (var rs = c.createStatement().executeQuery("SELECT ycsb_key FROM usertable")) {
          assertTrue(rs.next(), "the table was dropped after the run ended");
          assertEquals("kept", rs.getString(1));
        }
      }
    }
  }

  /** Sends SIGINT 3 s after the line starting with {@code marker}; the phase's operation must have successes. */
  private void interrupt(String marker, String phase, String operation, String... more) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "-Dybbench.home=" + RunYcsbTest.HOME,
        Runner.class.getName(), Ycsb.NAME, "workloadc", "--threads", "2", "--duration", "300",
        "--results-dir", results.toString()));
    cmd.addAll(List.of(more));
    ProcessBuilder pb = new ProcessBuilder(CtrlC.withDefaultAction(cmd));
    pb.redirectErrorStream(true);
    Process p = pb.start();
    List<String> lines = new ArrayList<>();
    Pattern serverLine = Pattern.compile("on 127\\.0\\.0\\.1:(\\d+)");
    String port = null;
    long signalled = 0;
    try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String l; (l = out.readLine()) != null; ) {
        lines.add(l);
        Matcher m = serverLine.matcher(l);
        if (port == null && m.find()) {
          port = m.group(1);
        }
        if (l.startsWith(marker) && signalled == 0) {
          Thread.sleep(3000);
          new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
          signalled = System.nanoTime();
        }
      }
    }
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the harness did not exit after Ctrl-C");
    double seconds = (System.nanoTime() - signalled) / 1e9;
    assertTrue(signalled > 0 && seconds < 5, "Ctrl-C took " + seconds + " s: " + String.join("\n", lines));
    assertEquals(130, p.exitValue(), String.join("\n", lines));
    assertNotNull(port, String.join("\n", lines));

    Path runDir;
    try (Stream<Path> s = Files.list(results)) {
      runDir = s.findFirst().orElseThrow();
    }
    ObjectMapper json = new ObjectMapper();
    JsonNode run = json.readTree(runDir.resolve("run.json").toFile());
    assertEquals("interrupted", run.get("state").asText(), String.join("\n", lines));
    JsonNode summary = json.readTree(runDir.resolve("summary.json").toFile());
    assertEquals("interrupted", summary.get("state").asText());
    assertTrue(summary.at("/phases/" + phase + "/operations/" + operation + "/successes").asLong() > 0,
        summary.toString());
    assertTrue(Files.readString(runDir.resolve("console.log")).contains("Stopping embedded PostgreSQL"));

    Path instance = Path.of(System.getProperty("java.io.tmpdir"),
        "ybbench-" + new com.sun.security.auth.module.UnixSystem().getUid(), "instances", "pg-" + port);
    assertFalse(Files.exists(instance), "the embedded server's directory is still there: " + instance);
  }
}
