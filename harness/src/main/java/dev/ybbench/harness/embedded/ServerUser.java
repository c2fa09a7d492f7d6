package dev.ybbench.harness.embedded;

import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The operating-system user an embedded server runs as. PostgreSQL's initdb, pg_ctl and
 * postgres all refuse to run as root, so when the harness runs as root the server runs as an
 * unprivileged system user ({@value #SYSTEM_USER}, created if missing) through
 * {@code setpriv}, which execs: the process the harness starts is the server's own.
 */
public final class ServerUser {
  static final String SYSTEM_USER = "ybbench";

  private final String name;
  private final int uid;
  private final int gid;
  private final boolean dropsPrivileges;

  private ServerUser(String name, int uid, int gid, boolean dropsPrivileges) {
    this.name = name;
    this.uid = uid;
    this.gid = gid;
    this.dropsPrivileges = dropsPrivileges;
  }

  /** The user this process runs as, or the unprivileged system user when this process is root. */
  public static ServerUser forServer() {
    int myUid = currentUid();
    if (myUid != 0) {
      return new ServerUser(System.getProperty("user.name"), myUid, -1, false);
    }
    if (run(List.of("id", "-u", SYSTEM_USER)).exitCode() != 0) {
      Commands.Result r = run(List.of("useradd", "--system", "--user-group", "--no-create-home",
          "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", SYSTEM_USER));
      // Two harnesses starting at once may both try; only a user that still does not exist is an error.
      if (r.exitCode() != 0 && run(List.of("id", "-u", SYSTEM_USER)).exitCode() != 0) {
        throw new UserError("Running as root, the embedded PostgreSQL needs an unprivileged user, and 'useradd "
            + SYSTEM_USER + "' failed: " + r.output().strip() + "; create the user or run as a normal user");
      }
    }
    int uid = Integer.parseInt(run(List.of("id", "-u", SYSTEM_USER)).output().strip());
    int gid = Integer.parseInt(run(List.of("id", "-g", SYSTEM_USER)).output().strip());
    return new ServerUser(SYSTEM_USER, uid, gid, true);
  }

  public static int currentUid() {
    return (int) new com.sun.security.auth.module.UnixSystem().getUid();
  }

  public String name() {
    return name;
  }

  public boolean dropsPrivileges() {
    return dropsPrivileges;
  }

  /** The command line that runs {@code command} as this user. */
  public List<String> wrap(List<String> command) {
    if (!dropsPrivileges) {
      return command;
    }
    List<String> wrapped = new ArrayList<>(List.of("setpriv", "--reuid=" + uid, "--regid=" + gid,
        "--clear-groups", "--"));
    wrapped.addAll(command);
    return wrapped;
  }

  /** Hands a directory tree the harness created over to this user (no-op unless root). */
  public void own(Path dir) {
    if (!dropsPrivileges) {
      return;
    }
    Commands.Result r = run(List.of("chown", "-R", uid + ":" + gid, dir.toString()));
    if (r.exitCode() != 0) {
      throw new IllegalStateException("chown " + dir + " failed: " + r.output());
    }
  }

  /** Creates a directory every user can traverse (the server user must reach binaries under it). */
  static void createTraversableDir(Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  static Commands.Result run(List<String> command) {
    return Commands.run(new ProcessBuilder(command), Duration.ofSeconds(60));
  }
}
