package dev.ybbench.harness.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Starts real PostgreSQL servers from Maven Central's zonky binaries. */
class EmbeddedPostgresIT {
  private final List<String> log = new ArrayList<>();

  @Test
  void startsTheRequestedVersionWithChecksumsAndStopsCleanly() throws Exception {
    Path instanceData;
    long pid;
    try (EmbeddedPostgres pg = EmbeddedPostgres.start("17", 50, log::add)) {
      assertEquals("17.11.0", pg.version());
      try (Connection c = connect(pg); Statement st = c.createStatement()) {
        ServerInfo info = ServerInfo.detect(c);
        assertEquals("PostgreSQL", info.product());
        assertEquals("17.11", info.version());
        assertEquals("on", scalar(st, "SHOW data_checksums"));
        assertEquals("on", scalar(st, "SHOW fsync"));
        assertEquals("50", scalar(st, "SHOW max_connections"));
      }
      pid = pg.pid();
      // PostgreSQL refuses root, so as root the server must run as someone else.
      int serverUid = uidOf(pid);
      if (ServerUser.currentUid() == 0) {
        assertNotEquals(0, serverUid);
      } else {
        assertEquals(ServerUser.currentUid(), serverUid);
      }
      instanceData = Path.of(System.getProperty("java.io.tmpdir"), "ybbench-" + ServerUser.currentUid(),
          "instances", "pg-" + pg.port());
      assertTrue(Files.isDirectory(instanceData));
    }
    assertFalse(ProcessHandle.of(pid).map(Commands::running).orElse(false), "server still running");
    assertFalse(Files.exists(instanceData), "instance directory left behind");
  }

  @Test
  void aServerLeftByAKilledRunIsStoppedOnTheNextStart() throws Exception {
    EmbeddedPostgres abandoned = EmbeddedPostgres.start(null, 20, log::add);
    long pid = abandoned.pid();
    Path dir = Path.of(System.getProperty("java.io.tmpdir"), "ybbench-" + ServerUser.currentUid(), "instances",
        "pg-" + abandoned.port());
    // Pretend the harness that started it was killed: its owner file names a process that is gone.
    List<String> owner = Files.readAllLines(dir.resolve("owner"));
    owner.set(0, "999999999 -");
    Files.write(dir.resolve("owner"), owner);
    try (EmbeddedPostgres next = EmbeddedPostgres.start(null, 20, log::add)) {
      assertFalse(ProcessHandle.of(pid).map(Commands::running).orElse(false), "abandoned server still runs");
      assertFalse(Files.exists(dir));
      assertTrue(log.stream().anyMatch(l -> l.contains("left running by an earlier run")), log.toString());
      assertNotEquals(0, next.port());
    }
  }

  @Test
  void anUnknownVersionIsAClearError() {
    UserError e = assertThrows(UserError.class, () -> EmbeddedPostgres.start("17.99.0", 20, log::add));
    assertTrue(e.getMessage().contains("PostgreSQL 17.99.0 is not available"), e.getMessage());
  }

  static Connection connect(EmbeddedPostgres pg) throws Exception {
    return DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/postgres", pg.user(), "");
  }

  private static String scalar(Statement st, String sql) throws Exception {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static int uidOf(long pid) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("Uid:")) {
        return Integer.parseInt(line.split("\\s+")[1]);
      }
    }
    throw new AssertionError("no Uid line for " + pid);
  }
}
