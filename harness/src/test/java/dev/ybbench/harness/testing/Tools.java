package dev.ybbench.harness.testing;

import dev.ybbench.harness.cli.Packages;
import org.junit.jupiter.api.Assumptions;

/**
 * A program a test takes from the machine (a Debian package: sysbench, chromium, prometheus,
 * openssl). Where it is missing, as root with apt it is installed the way a run installs what it
 * needs ({@link Packages}); otherwise the test is skipped with one line saying what to install.
 * Under CI ({@code CI=true}), which installs them, a missing one fails the test instead.
 */
public final class Tools {
  private Tools() {}

  /** Skips the test (or fails it under CI) unless {@code present}; {@code install} says how to get it. */
  public static void require(boolean present, String what, String install) {
    if (present) {
      return;
    }
    if ("true".equals(System.getenv("CI"))) {
      throw new AssertionError(what + " is not installed, and CI must install it (" + install + "; .ci/run does)");
    }
    Assumptions.abort("skipped: " + what + " is not installed (" + install + ")");
  }

  /**
   * {@code command} from Debian's {@code pkg}: on the PATH, or installed now as root with apt, or
   * the test skipped (failed under CI).
   */
  public static void requireInstalled(String command, String pkg) {
    if (Packages.onPath(command) == null && Packages.canInstall()) {
      Packages.install(pkg, System.out::println);
    }
    require(Packages.onPath(command) != null, command, "apt-get install " + pkg);
  }
}
