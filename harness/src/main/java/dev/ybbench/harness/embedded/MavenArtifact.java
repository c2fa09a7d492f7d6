package dev.ybbench.harness.embedded;

import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A jar from Maven Central, found in the local repository or fetched into it with
 * {@code mvn dependency:get}, so that the user's own Maven settings (mirrors, proxies) apply.
 */
public record MavenArtifact(String groupId, String artifactId, String version) {

  public String coordinates() {
    return groupId + ":" + artifactId + ":" + version;
  }

  /** Where Maven keeps this jar in the local repository. */
  public Path localPath() {
    String repo = System.getProperty("maven.repo.local");
    Path root = repo != null ? Path.of(repo) : Path.of(System.getProperty("user.home"), ".m2", "repository");
    return root.resolve(groupId.replace('.', '/'))
        .resolve(artifactId)
        .resolve(version)
        .resolve(artifactId + "-" + version + ".jar");
  }

  /**
   * The jar on local disk, downloaded first if needed.
   *
   * @param what a human name for the error message, e.g. "PostgreSQL 17.11.0"
   */
  public Path resolve(String what) {
    Path jar = localPath();
    if (Files.isRegularFile(jar)) {
      return jar;
    }
    ProcessBuilder pb = new ProcessBuilder("mvn", "-B", "-q", "dependency:get",
        "-Dartifact=" + coordinates(), "-Dtransitive=false");
    pb.redirectErrorStream(true);
    String output;
    int rc;
    try {
      Process p = pb.start();
      output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(10, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new UserError("Downloading " + what + " (" + coordinates() + ") timed out; check access to Maven Central");
      }
      rc = p.exitValue();
    } catch (IOException e) {
      throw new UserError("Cannot run 'mvn' to download " + what + " (" + coordinates()
          + "): install Maven or put the jar in " + jar.getParent());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("Interrupted while downloading " + what);
    }
    if (rc != 0 || !Files.isRegularFile(jar)) {
      String reason = output.contains("Could not find artifact") || output.contains("not found")
          ? "it is not on Maven Central"
          : "Maven failed: " + lastLine(output);
      throw new UserError(what + " is not available (" + coordinates() + "): " + reason);
    }
    return jar;
  }

  private static String lastLine(String text) {
    String[] lines = text.strip().split("\n");
    return lines.length == 0 ? "(no output)" : lines[lines.length - 1].strip();
  }
}
