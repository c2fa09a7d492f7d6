package dev.ybbench.harness.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

/** Conditions a test waits for while a harness runs beside it, polled rather than slept on. */
public final class Awaits {
  private Awaits() {}

  /** Waits until a run directory under {@code resultsRoot} has a timeseries row of {@code phase}. */
  public static void phaseStarted(Path resultsRoot, String phase) throws InterruptedException {
    phaseStarted(resultsRoot, phase, 1, false);
  }

  /**
   * Waits until {@code runs} run directories under {@code resultsRoot} (a fleet's clients) each
   * have a timeseries row of {@code phase} with an operation done: on a busy machine one client
   * may start its phase seconds after another.
   */
  public static void phaseStarted(Path resultsRoot, String phase, int runs) throws InterruptedException {
    phaseStarted(resultsRoot, phase, runs, true);
  }

  private static void phaseStarted(Path resultsRoot, String phase, int runs, boolean withOperations)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < deadline) {
      int started = 0;
      try (var dirs = Files.list(resultsRoot)) {
        for (Path d : dirs.toList()) {
          Path ts = d.resolve("timeseries.csv");
          if (Files.exists(ts) && Files.readAllLines(ts).stream().anyMatch(l -> l.startsWith(phase + ",")
              && (!withOperations || Double.parseDouble(l.split(",")[2]) > 0))) {
            started++;
          }
        }
      } catch (IOException e) {
        // not written yet
      }
      if (started >= runs) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the " + phase + " phase never started in " + runs + " runs under " + resultsRoot);
  }

  /** Whether another session of the server waits for a lock (PostgreSQL). */
  public static boolean anotherSessionWaitsOnALock(Connection c) throws SQLException {
    // pg_stat_activity is read once per transaction, and the caller's may hold the lock: read afresh.
    try (ResultSet rs = c.createStatement().executeQuery("SELECT pg_stat_clear_snapshot(), count(*) "
        + "FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()")) {
      rs.next();
      return rs.getLong(2) > 0;
    }
  }

  /**
   * Waits up to 5 s for the other sessions of {@code c}'s database to end (a dropped session's
   * backend exits a moment later); returns how many are left.
   */
  public static long otherSessionsGone(Connection c) throws SQLException, InterruptedException {
    long others = -1;
    for (int i = 0; i < 50 && others != 0; i++) {
      try (ResultSet rs = c.createStatement().executeQuery("SELECT pg_stat_clear_snapshot(), count(*) "
          + "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")) {
        rs.next();
        others = rs.getLong(2);
      }
      Thread.sleep(others == 0 ? 0 : 100);
    }
    return others;
  }
}
