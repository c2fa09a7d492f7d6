package dev.ybbench.harness.testing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The machine shared between test JVMs: the modules' tests run at once (-T 2) and each module
 * forks several JVMs, but the tests tagged "alone" measure the machine itself (a starved client,
 * a throttled server, two runs of one version that must not differ). The JVM that runs those
 * takes the machine exclusively for each class, while every other class holds it shared. A file
 * lock does it across JVMs and modules; the operating system drops it when a JVM dies. Registered
 * for every test class through the ServiceLoader (each module's junit-platform.properties enables
 * auto-detection).
 */
public final class MachineShare implements BeforeAllCallback, AfterAllCallback {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(MachineShare.class);

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    // The pom's "alone" execution says so: a tag on one method of a class is not the class's.
    boolean alone = Boolean.getBoolean("ybbench.tests.alone");
    Path file = Path.of(System.getProperty("java.io.tmpdir"), "ybbench-tests-"
        + new com.sun.security.auth.module.UnixSystem().getUid() + ".lock");
    FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE);
    FileLock lock = channel.lock(0, Long.MAX_VALUE, !alone); // waits for the machine
    context.getStore(NS).put("lock", lock);
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    FileLock lock = context.getStore(NS).remove("lock", FileLock.class);
    if (lock != null) {
      lock.release();
      lock.channel().close();
    }
  }
}
