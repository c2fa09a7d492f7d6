package dev.ybbench.harness.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ybbench.harness.ServerInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * One run's directory under results/, named
 * {@code <UTC-timestamp>_<bench>_<workload>_<product>-<version>}; see results/README.md for
 * the files it holds. JSON files are replaced atomically so a reader never sees half a file.
 */
public final class RunDirectory {
  public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
      .withZone(ZoneOffset.UTC);
  /** The server's view sampled every interval, per node (written by the server sampler, drawn by the plots). */
  public static final String SERVER_TIMESERIES = "server-timeseries.csv";

  private final Path dir;

  private RunDirectory(Path dir) {
    this.dir = dir;
  }

  public static RunDirectory create(Path resultsRoot, String bench, String workload, ServerInfo server,
      Instant started) throws IOException {
    return at(claim(resultsRoot, bench, workload, server, started));
  }

  /**
   * Claims a run's name: creates its directory, empty. Atomically: two runs starting in the same
   * second (two clients on one machine) must not share a directory.
   */
  public static Path claim(Path resultsRoot, String bench, String workload, ServerInfo server,
      Instant started) throws IOException {
    String base = STAMP.format(started) + "_" + bench + "_" + safe(workload) + "_" + server.slug();
    Files.createDirectories(resultsRoot);
    Path dir = resultsRoot.resolve(base);
    for (int i = 2; ; i++) {
      try {
        return Files.createDirectory(dir);
      } catch (java.nio.file.FileAlreadyExistsException taken) {
        dir = resultsRoot.resolve(base + "-" + i);
      }
    }
  }

  /** A run's files in {@code dir} (a claimed one, or where one is staged). */
  public static RunDirectory at(Path dir) throws IOException {
    Files.createDirectories(dir.resolve("latency"));
    Files.createDirectories(dir.resolve("plots"));
    return new RunDirectory(dir);
  }

  /** Refuses, before anything starts, a results root that cannot be created or written. */
  public static void checkWritable(Path resultsRoot) {
    checkWritable(resultsRoot, true);
  }

  /**
   * As {@link #checkWritable(Path)}; without {@code create} (a dry run, which writes nothing) the
   * root is not created: it, or the nearest directory above it that is there, must be writable.
   */
  public static void checkWritable(Path resultsRoot, boolean create) {
    if (!create) {
      Path there = resultsRoot.toAbsolutePath();
      while (there != null && !Files.exists(there)) {
        there = there.getParent();
      }
      if (there == null || !Files.isDirectory(there) || !writable(there)) {
        throw new dev.ybbench.harness.UserError("cannot " + (there != null && there.equals(
            resultsRoot.toAbsolutePath()) ? "write to" : "create") + " results directory " + resultsRoot
            + ": permission denied; choose another with --results-dir");
      }
      return;
    }
    try {
      Files.createDirectories(resultsRoot);
    } catch (IOException e) {
      throw new dev.ybbench.harness.UserError("cannot create results directory " + resultsRoot + ": "
          + dev.ybbench.harness.ErrorText.whyNot(e) + "; choose another with --results-dir");
    } catch (SecurityException e) {
      throw new dev.ybbench.harness.UserError("cannot create results directory " + resultsRoot + ": " + e.getMessage()
          + "; choose another with --results-dir");
    }
    if (!Files.isDirectory(resultsRoot) || !Files.isWritable(resultsRoot)) {
      throw new dev.ybbench.harness.UserError("cannot write to results directory " + resultsRoot
          + ": permission denied; choose another with --results-dir");
    }
  }

  /**
   * Whether a directory may be written, without writing to it: this user may (root may nearly
   * anywhere), and it is not one that no one may write to (/proc, where even root makes nothing).
   */
  public static boolean writable(Path dir) {
    if (!Files.isWritable(dir)) {
      return false;
    }
    try {
      return Files.getPosixFilePermissions(dir).stream().anyMatch(p -> p.name().endsWith("_WRITE"));
    } catch (IOException | UnsupportedOperationException e) {
      return true; // no POSIX permissions to read: the user's access decides
    }
  }

  static String safe(String name) {
    return name.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  public Path path() {
    return dir;
  }

  public Path latencyDir() {
    return dir.resolve("latency");
  }

  public Path plotsDir() {
    return dir.resolve("plots");
  }

  public Path timeseries() {
    return dir.resolve("timeseries.csv");
  }

  public Path consoleLog() {
    return dir.resolve("console.log");
  }

  public void writeJson(String fileName, Object tree) throws IOException {
    Path tmp = dir.resolve(fileName + ".tmp");
    JSON.writeValue(tmp.toFile(), tree);
    Files.move(tmp, dir.resolve(fileName), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
