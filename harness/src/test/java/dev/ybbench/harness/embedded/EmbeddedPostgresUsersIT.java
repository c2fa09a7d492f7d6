package dev.ybbench.harness.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The embedded server starts for root (covered by {@link EmbeddedPostgresIT} when the tests
 * run as root, which drops privileges) and for a normal user. When the tests run as root, the
 * normal-user case runs in a child JVM as a throwaway user created for the test; otherwise the
 * other tests already run as a normal user.
 */
class EmbeddedPostgresUsersIT {
  @Test
  void aNormalUserStartsTheServerAsThemselves() throws Exception {
    assumeTrue(ServerUser.currentUid() == 0, "not root: the other tests already run as a normal user");
    String user = "ybbench-t" + ProcessHandle.current().pid();
    assertEquals(0, ServerUser.run(List.of("useradd", "--system", "--user-group", "--no-create-home",
        "--shell", "/usr/sbin/nologin", user)).exitCode());
    String uidText = ServerUser.run(List.of("id", "-u", user)).output().strip();
    Path shared = Files.createTempDirectory("ybbench-users-test");
    try {
      // The child cannot read root's home (Maven repository, build tree): give it copies.
      Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
      List<String> classpath = new ArrayList<>();
      int i = 0;
      for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
        Path src = Path.of(entry);
        Path dst = shared.resolve((i++) + "-" + src.getFileName());
        if (Files.isDirectory(src)) {
          copyTree(src, dst);
        } else if (Files.exists(src)) {
          Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
        }
        classpath.add(dst.toString());
      }
      String version = PostgresVersions.resolve(null);
      Path jar = shared.resolve("binaries.jar");
      Files.copy(PostgresVersions.artifact(version).resolve("PostgreSQL " + version), jar);
      ServerUser.run(List.of("chmod", "-R", "a+rX", shared.toString()));

      int uid = Integer.parseInt(uidText);
      int gid = Integer.parseInt(ServerUser.run(List.of("id", "-g", user)).output().strip());
      ProcessBuilder pb = new ProcessBuilder("setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--",
          Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Duser.name=" + user, "-cp", String.join(File.pathSeparator, classpath),
          PostgresSmoke.class.getName(), jar.toString(), version).redirectErrorStream(true);
      pb.environment().put("HOME", shared.toString());
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(120, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue(), out);
      assertTrue(out.contains("ok uid=" + uid + " version=PostgreSQL 17."), out);
    } finally {
      ServerUser.run(List.of("userdel", user));
      dev.ybbench.harness.FileTrees.delete(shared);
      dev.ybbench.harness.FileTrees.delete(Path.of(System.getProperty("java.io.tmpdir"), "ybbench-" + uidText));
    }
  }

  private static void copyTree(Path src, Path dst) throws Exception {
    try (var s = Files.walk(src)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path t = dst.resolve(src.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }
}
