package dev.ybbench.harness.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM started as run-scripts/common.sh starts a build's first run records an archive a later JVM
 * maps. The JVMs run from a jar, as the launcher's do: the JVM archives nothing from a directory.
 */
class ClassArchiveTest {
  @TempDir
  Path dir;

  /** A run: loads a class of its own, then records what it loaded when asked to. */
  public static final class Main {
    public static void main(String[] args) {
      ShellWords.join(List.of("a b"));
      ClassArchive.recordIfAsked();
    }
  }

  /** The JVMs' class path: one jar of the test's class directories; a directory on it is skipped. */
  private String classPath;

  @Test
  void aRecordedArchiveIsMappedByTheNextJvm() throws Exception {
    Path archive = dir.resolve("x.jsa");
    classPath = jarOfClassDirectories().toString();
    java("-XX:+RecordDynamicDumpInfo", "-XX:+DisplayVMOutputToStderr", "-Xlog:cds*=off",
        "-D" + ClassArchive.PROPERTY + "=" + archive);
    assertTrue(Files.size(archive) > 0, "no archive");
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(archive), files.filter(f -> !f.toString().endsWith(".jar")).toList(),
          "only the archive, nothing left aside");
    }
    // -Xshare:on fails the JVM when the archive cannot be mapped.
    java("-Xshare:on", "-XX:SharedArchiveFile=" + archive, "-Xlog:cds*=off");
  }

  @Test
  void withoutTheJvmsRecordingNothingIsWrittenAndTheRunEndsWell() throws Exception {
    Path archive = dir.resolve("x.jsa");
    classPath = System.getProperty("java.class.path");
    java("-D" + ClassArchive.PROPERTY + "=" + archive);
    // With the JVM's recording but a directory on the class path (a build tree): nothing, and no
    // end of the JVM by its own dump.
    java("-XX:+RecordDynamicDumpInfo", "-Xlog:cds*=off", "-D" + ClassArchive.PROPERTY + "=" + archive);
    assertFalse(Files.exists(archive));
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(0, files.count(), "nothing left aside");
    }
  }

  private Path jarOfClassDirectories() throws Exception {
    Path jar = dir.resolve("run.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        Path root = Path.of(entry);
        if (!Files.isDirectory(root)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(root)) {
          for (Path f : files.filter(Files::isRegularFile).filter(f -> f.toString().endsWith(".class")).toList()) {
            out.putNextEntry(new JarEntry(root.relativize(f).toString().replace(File.separatorChar, '/')));
            out.write(Files.readAllBytes(f));
            out.closeEntry();
          }
        }
      }
    }
    return jar;
  }

  private void java(String... options) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(List.of(options));
    cmd.addAll(List.of("-cp", classPath, Main.class.getName()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
    assertEquals(0, p.exitValue(), out);
  }
}
