package dev.ybbench.harness.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The JDKs on this machine besides the one running the tests, for a test of what only a newer
 * Java can do (the tests run on 17, the version the project builds for). Looks at this JVM, at
 * $JAVA_HOME, and at Debian's /usr/lib/jvm, reading each JDK's {@code release} file.
 */
public final class Jdks {
  private Jdks() {}

  /** The java launcher of the newest JDK of at least {@code feature} (e.g. 21), if there is one. */
  public static Optional<Path> atLeast(int feature) {
    if (Runtime.version().feature() >= feature) {
      return Optional.of(Path.of(System.getProperty("java.home"), "bin", "java"));
    }
    List<Path> homes = new ArrayList<>();
    String javaHome = System.getenv("JAVA_HOME");
    if (javaHome != null) {
      homes.add(Path.of(javaHome));
    }
    try (Stream<Path> s = Files.list(Path.of("/usr/lib/jvm"))) {
      s.forEach(homes::add);
    } catch (IOException e) {
      // no such directory: only the others
    }
    return homes.stream().filter(h -> Files.isExecutable(h.resolve("bin/java")))
        .filter(h -> feature(h) >= feature)
        .max(Comparator.comparingInt(Jdks::feature))
        .map(h -> h.resolve("bin/java"));
  }

  /** The JDK's feature release from its release file (JAVA_VERSION="25.0.3"), or 0. */
  static int feature(Path home) {
    try {
      for (String line : Files.readAllLines(home.resolve("release"))) {
        if (line.startsWith("JAVA_VERSION=")) {
          String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
          return Integer.parseInt(v.split("[.+-]")[0]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      // not a JDK we can read
    }
    return 0;
  }
}
