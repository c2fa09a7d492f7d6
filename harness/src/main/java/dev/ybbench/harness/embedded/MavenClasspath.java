package dev.ybbench.harness.embedded;

import dev.ybbench.harness.UserError;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The runtime classpath of an artifact and its dependencies, resolved by Maven (so the user's
 * mirrors and proxies apply) the first time and kept in a small project under
 * {@code ~/.cache/ybbench/classpaths/}. Used for servers that run in their own JVM with a
 * version chosen at run time, such as Cassandra.
 */
final class MavenClasspath {
  private MavenClasspath() {}

  static List<Path> resolve(MavenArtifact artifact, String what) {
    Path dir = Path.of(System.getProperty("user.home"), ".cache", "ybbench", "classpaths",
        artifact.coordinates().replace(':', '_'));
    Path listFile = dir.resolve("classpath.txt");
    List<Path> cached = read(listFile);
    if (cached != null && cached.stream().allMatch(Files::isRegularFile)) {
      return cached;
    }
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("pom.xml"), pom(artifact));
      Process p = new ProcessBuilder("mvn", "-B", "-q", "dependency:build-classpath",
          "-Dmdep.outputFile=" + listFile, "-Dmdep.includeScope=runtime")
          .directory(dir.toFile()).redirectErrorStream(true).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(15, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new UserError("Resolving " + what + " (" + artifact.coordinates() + ") timed out; check access to Maven Central");
      }
      List<Path> resolved = read(listFile);
      if (p.exitValue() != 0 || resolved == null) {
        String reason = output.contains("Could not find artifact") || output.contains("could not be resolved")
            ? "it is not on Maven Central" : "Maven failed: " + output.strip().lines().reduce((a, b) -> b).orElse("");
        throw new UserError(what + " is not available (" + artifact.coordinates() + "): " + reason);
      }
      return resolved;
    } catch (IOException e) {
      throw new UserError("Cannot run 'mvn' to resolve " + what + " (" + artifact.coordinates()
          + "): install Maven (apt-get install maven)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("Interrupted while resolving " + what);
    }
  }

  private static List<Path> read(Path listFile) {
    try {
      String text = Files.readString(listFile).strip();
      if (text.isEmpty()) {
        return null;
      }
      return Arrays.stream(text.split(File.pathSeparator)).map(Path::of).toList();
    } catch (IOException e) {
      return null;
    }
  }

  private static String pom(MavenArtifact a) {
    return """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>dev.ybbench.classpath</groupId>
          <artifactId>resolve</artifactId>
          <version>1</version>
          <packaging>pom</packaging>
          <dependencies>
            <dependency>
              <groupId>%s</groupId>
              <artifactId>%s</artifactId>
              <version>%s</version>
            </dependency>
          </dependencies>
        </project>
        """.formatted(a.groupId(), a.artifactId(), a.version());
  }
}
