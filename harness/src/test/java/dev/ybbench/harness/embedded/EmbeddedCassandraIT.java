package dev.ybbench.harness.embedded;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class EmbeddedCassandraIT {
  private final List<String> log = new CopyOnWriteArrayList<>();

  /**
   * A node left running by a killed harness is stopped by the next start. Its command line, with
   * its class path, is longer than the JDK reads into a process's arguments: the node was once
   * never recognised, and stayed.
   */
  @Test
  void aNodeLeftByAKilledRunIsStoppedOnTheNextStart() throws Exception {
    EmbeddedCassandra abandoned = EmbeddedCassandra.start(null, 1, log::add);
    Path dir = Instances.root().resolve("cassandra-" + abandoned.nativePort());
    long pid = Instances.readPid(dir.resolve("node1/pid")).orElseThrow();
    // Pretend the harness that started it was killed: its owner file names a process that is gone.
    Files.writeString(dir.resolve(Instances.OWNER_FILE), "999999999 -\n");
    try (EmbeddedCassandra next = EmbeddedCassandra.start(null, 1, log::add)) {
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the abandoned node still runs");
      assertFalse(Files.exists(dir));
      assertTrue(log.stream().anyMatch(l -> l.contains("left running by an earlier run")), log.toString());
    } finally {
      abandoned.close();
    }
  }
}
