package dev.ybbench.sysbench.engine;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.Packages;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The sysbench that runs the tests: {@code --sysbench PATH}, else the one on the PATH (Debian's
 * package, which a run as root installs when missing: {@link #toInstall}). It must have the pgsql
 * driver; a yugabyte/sysbench build (its {@code --thread-init-timeout}) also takes a list of hosts.
 *
 * @param version what {@code sysbench --version} prints, e.g. "sysbench 1.0.20"
 * @param hostList whether its pgsql driver spreads threads over comma-separated hosts
 */
public record SysbenchBinary(Path path, String version, boolean hostList) {
  static final String INSTALL = "install Debian's package (apt-get install sysbench; ./run_sysbench.sh installs it "
      + "when run as root) or give --sysbench PATH";
  /** Debian's package, which a run as root installs where sysbench is missing. */
  public static final String PACKAGE = "sysbench";
  /** What a dry run plans where sysbench is missing and the run would install it first. */
  public static final SysbenchBinary TO_INSTALL = new SysbenchBinary(Path.of(PACKAGE),
      "not installed: the run installs Debian's package first", false);

  /**
   * Whether a run installs sysbench before it starts: none given, none on the PATH, and this is
   * root with apt, unless --no-install.
   */
  public static boolean toInstall(Path given, String pathList, boolean noInstall) {
    return given == null && !noInstall && Packages.onPath(PACKAGE, pathList) == null && Packages.canInstall();
  }

  /**
   * Finds and asks it what it is; a one-line {@link UserError} when it is missing or cannot run
   * the pgsql tests.
   *
   * @param given    --sysbench, or null
   * @param pathList the PATH to look in
   */
  public static SysbenchBinary find(Path given, String pathList) {
    Path found = given;
    if (found == null) {
      found = Packages.onPath(PACKAGE, pathList);
      if (found == null) {
        throw new UserError("sysbench is not installed: " + INSTALL);
      }
    } else if (!Files.isRegularFile(given) || !Files.isExecutable(given)) {
      throw new UserError("--sysbench " + given + " is not an executable file: " + INSTALL);
    }
    String version = Packages.ask(found, "--version", INSTALL).strip();
    String help = Packages.ask(found, "--help", INSTALL);
    if (!version.startsWith("sysbench ")) {
      throw new UserError(found + " is not sysbench (--version printed '" + version.lines().findFirst().orElse("")
          + "'): " + INSTALL);
    }
    if (!help.contains("pgsql - PostgreSQL driver")) {
      throw new UserError(found + " (" + version + ") has no pgsql driver: install Debian's package, or build "
          + "sysbench with ./configure --with-pgsql");
    }
    return new SysbenchBinary(found, version, help.contains("--thread-init-timeout"));
  }
}
