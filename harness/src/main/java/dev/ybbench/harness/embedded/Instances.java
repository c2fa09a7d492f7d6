package dev.ybbench.harness.embedded;

import dev.ybbench.harness.FileTrees;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The running embedded servers of this machine's user, one directory each under
 * {@code <tmp>/ybbench-<uid>/instances/}: an {@code owner} file names the harness process that
 * started it ("pid start-instant", then what the server needs to be stopped). A server whose owner
 * is gone was left by a killed run; the next start of its kind stops it and removes its directory.
 */
final class Instances {
  static final String OWNER_FILE = "owner";

  /** How an abandoned instance is stopped, given its directory and its owner file's lines. */
  interface Stop {
    void stop(Path dir, List<String> owner) throws IOException;
  }

  private Instances() {}

  /** {@code <tmp>/ybbench-<uid>}: the unpacked binaries and the instances. */
  static Path base() {
    return Path.of(System.getProperty("java.io.tmpdir"), "ybbench-" + ServerUser.currentUid());
  }

  /** The directory holding every instance. */
  static Path root() {
    return base().resolve("instances");
  }

  /** Writes {@code dir}'s owner file: this process, then {@code lines}. */
  static void claim(Path dir, String... lines) throws IOException {
    ProcessHandle me = ProcessHandle.current();
    StringBuilder owner = new StringBuilder()
        .append(me.pid()).append(' ').append(me.info().startInstant().map(Instant::toString).orElse("-")).append('\n');
    for (String line : lines) {
      owner.append(line).append('\n');
    }
    Files.writeString(dir.resolve(OWNER_FILE), owner);
  }

  /**
   * Stops and removes the instances matching {@code glob} whose owner has gone; one being created
   * right now (no owner file yet) is left alone.
   */
  static void stopAbandoned(String glob, Stop stop) throws IOException {
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root(), glob)) {
      for (Path dir : dirs) {
        List<String> owner;
        try {
          owner = Files.readAllLines(dir.resolve(OWNER_FILE));
        } catch (IOException e) {
          continue;
        }
        if (owner.isEmpty() || ownerAlive(owner.get(0))) {
          continue;
        }
        stop.stop(dir, owner);
        FileTrees.delete(dir);
      }
    }
  }

  /** True if the process named by "pid startInstant" still runs (a reused pid has another start). */
  static boolean ownerAlive(String ownerLine) {
    String[] parts = ownerLine.strip().split(" ");
    Optional<ProcessHandle> ph;
    try {
      ph = ProcessHandle.of(Long.parseLong(parts[0]));
    } catch (NumberFormatException e) {
      return false;
    }
    if (ph.isEmpty() || !ph.get().isAlive()) {
      return false;
    }
    String started = ph.get().info().startInstant().map(Instant::toString).orElse("-");
    return parts.length < 2 || parts[1].equals("-") || parts[1].equals(started);
  }

  /** The pid on a pid file's first line (PostgreSQL's postmaster.pid, a Cassandra node's pid). */
  static Optional<Long> readPid(Path pidFile) {
    try {
      return Optional.of(Long.parseLong(Files.readAllLines(pidFile).get(0).strip()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
