package dev.ybbench.harness.cli;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import javax.management.ObjectName;

/**
 * The class-data archive a runner's later runs start from (run-scripts/common.sh). The first run
 * of a build is started with {@code -XX:+RecordDynamicDumpInfo} and this property naming the
 * archive; once it has completed, it writes the classes it loaded there, through the JVM's own
 * {@code VM.cds dynamic_dump} (JDK 17+). So the archive holds what a real run loads, and making it
 * starts nothing: no training run, no server of its own. A run that did not complete records
 * nothing, as it may have loaded only the classes of an error.
 */
public final class ClassArchive {
  /** The system property that asks for the archive: its path. */
  public static final String PROPERTY = "ybbench.classArchive";

  private ClassArchive() {}

  /**
   * Writes the archive if this JVM was asked to. Written aside, then renamed, so that two first
   * runs at once cannot tear it; a failure leaves no archive, and runs go on without one.
   */
  public static void recordIfAsked() {
    String target = System.getProperty(PROPERTY);
    // The JVM archives classes from jars only, and ends itself when asked to with a directory on
    // the class path (as in a build tree): the launcher's class path is jars.
    if (target == null || target.isEmpty() || Arrays.stream(System.getProperty("java.class.path", "")
        .split(File.pathSeparator)).anyMatch(e -> Files.isDirectory(Path.of(e)))) {
      return;
    }
    Path archive = Path.of(target).toAbsolutePath();
    if (!Files.isWritable(archive.getParent())) {
      return; // the JVM ends itself when it cannot create the file (a checkout another user owns)
    }
    Path aside = archive.resolveSibling(archive.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    try {
      System.err.println("Recording the classes this run loaded, for later runs' start-up (once per build) …");
      ManagementFactory.getPlatformMBeanServer().invoke(
          new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmCds",
          new Object[] {new String[] {"dynamic_dump", aside.toString()}}, new String[] {String[].class.getName()});
      if (Files.size(aside) > 0) {
        Files.move(aside, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (Exception | LinkageError e) {
      // Only start-up is at stake; the run itself is written.
    } finally {
      try {
        Files.deleteIfExists(aside);
      } catch (Exception ignored) {
        // nothing more to do
      }
    }
  }
}
