package dev.ybbench.harness.cli;

import dev.ybbench.harness.UserError;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The programs a run takes from the machine (sysbench, Debian's package): found on the PATH, and
 * where one is missing and this is root on a machine with apt, installed the first time a run
 * needs it, saying so ({@code --no-install} skips that). The tests install what they need through
 * here too, so a test and a run find a tool the same way.
 */
public final class Packages {
  private Packages() {}

  /** The executable {@code command} on {@code pathList} (the PATH), or null. */
  public static Path onPath(String command, String pathList) {
    for (String dir : (pathList == null ? "" : pathList).split(File.pathSeparator)) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, command);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  /** The executable {@code command} on this process's PATH, or null. */
  public static Path onPath(String command) {
    return onPath(command, System.getenv("PATH"));
  }

  /**
   * What {@code program arg} prints (its output and errors), e.g. a tool's --version, within 10 s;
   * a one-line {@link UserError} ending with {@code install} (how to get it) when it cannot run.
   */
  public static String ask(Path program, String arg, String install) {
    try {
      Process p = new ProcessBuilder(List.of(program.toString(), arg)).redirectErrorStream(true).start();
      byte[] out = p.getInputStream().readAllBytes();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
      return new String(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UserError(program + " cannot run (" + e.getMessage() + "): " + install);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("interrupted while asking " + program + " " + arg);
    }
  }

  /** Whether a missing package can be installed here: root, with apt-get. */
  public static boolean canInstall() {
    return new com.sun.security.auth.module.UnixSystem().getUid() == 0 && onPath("apt-get") != null;
  }

  /**
   * Installs Debian's {@code pkg} with apt-get, saying so on {@code log} first.
   *
   * @return whether it installed; a failure is said in one line and left to the caller, which
   *         then finds the program missing and says how to get it
   */
  public static boolean install(String pkg, Consumer<String> log) {
    log.accept("Installing " + pkg + " (apt-get install " + pkg + "; --no-install skips this) …");
    try {
      ProcessBuilder pb = new ProcessBuilder("sh", "-c", "apt-get update -qq && apt-get install -y -qq " + pkg)
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().put("DEBIAN_FRONTEND", "noninteractive");
      Process p = pb.start();
      if (p.waitFor(15, TimeUnit.MINUTES) && p.exitValue() == 0) {
        return true;
      }
      p.destroyForcibly();
    } catch (IOException e) {
      // said below
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    log.accept("warning: installing " + pkg + " failed");
    return false;
  }
}
