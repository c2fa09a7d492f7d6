package dev.ybbench.pgbench.engine;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.cli.Packages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pgbench that runs the scripts: {@code --pgbench-binary PATH} (YugabyteDB's ysql_bench, or a
 * pgbench of another version), else {@code pgbench} on the PATH (Debian's, which a run as root
 * installs when missing: {@link #toInstall}). It is asked what it is, because the two differ in
 * what they print and name: ysql_bench's tables are {@code ysql_bench_*}, its report is
 * PostgreSQL 11's, and failures and retries came to pgbench only in PostgreSQL 15.
 *
 * @param version what {@code --version} prints, e.g. "pgbench (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"
 * @param major   the PostgreSQL major version its code is of (11 for ysql_bench before YugabyteDB 2.25)
 * @param ysql    whether it is YugabyteDB's ysql_bench
 */
public record PgbenchBinary(Path path, String version, int major, boolean ysql) {
  /**
   * Debian's package with pgbench in it: the server's ({@code postgresql-client} has none), which
   * installs a PostgreSQL ybbench leaves alone.
   */
  public static final String PACKAGE = "postgresql";
  static final String INSTALL = "install Debian's package (apt-get install " + PACKAGE + "; ./run_pgbench.sh "
      + "installs it when run as root) or give --pgbench-binary PATH";
  /** What a dry run plans where pgbench is missing and the run would install it first. */
  public static final PgbenchBinary TO_INSTALL = new PgbenchBinary(Path.of("pgbench"),
      "not installed: the run installs Debian's package first", 15, false);

  private static final Pattern VERSION = Pattern.compile("^(pgbench|ysql_bench) \\((PostgreSQL|YSQL)\\) (\\d+)");

  /** Its tables' prefix: {@code pgbench_}, or {@code ysql_bench_} for ysql_bench. */
  public String tablePrefix() {
    return ysql ? "ysql_bench_" : "pgbench_";
  }

  /** What it is called, for messages and results. */
  public String name() {
    return ysql ? "ysql_bench" : "pgbench";
  }

  /** Whether it retries and counts failed transactions ({@code --max-tries}): PostgreSQL 15's, and ysql_bench's. */
  public boolean retries() {
    return ysql || major >= 15;
  }

  /**
   * Whether a run installs pgbench before it starts: none given, none that answers on the PATH,
   * and this is root with apt, unless --no-install.
   */
  public static boolean toInstall(Path given, String pathList, boolean noInstall) {
    return given == null && !noInstall && answers(Packages.onPath("pgbench", pathList)) == null
        && Packages.canInstall();
  }

  /**
   * Finds and asks it what it is; a one-line {@link UserError} when it is missing or not pgbench.
   *
   * @param given    --pgbench-binary, or null
   * @param pathList the PATH to look in
   */
  public static PgbenchBinary find(Path given, String pathList) {
    Path found = given;
    if (found == null) {
      found = Packages.onPath("pgbench", pathList);
      if (found == null) {
        throw new UserError("pgbench is not installed: " + INSTALL);
      }
    } else if (!Files.isRegularFile(given) || !Files.isExecutable(given)) {
      throw new UserError("--pgbench-binary " + given + " is not an executable file: " + INSTALL);
    }
    String version = Packages.ask(found, "--version", INSTALL).strip();
    PgbenchBinary b = parse(found, version);
    if (b == null) {
      // Debian's /usr/bin/pgbench is a wrapper that answers this way when no server package is installed.
      throw new UserError(found + " is not pgbench nor ysql_bench (--version printed '" + version.lines().findFirst()
          .orElse("") + "'): " + INSTALL);
    }
    return b;
  }

  /** What {@code --version} says of {@code path}, or null when it is not pgbench nor ysql_bench. */
  static PgbenchBinary parse(Path path, String version) {
    Matcher m = VERSION.matcher(version);
    if (!m.find()) {
      return null;
    }
    return new PgbenchBinary(path, version.lines().findFirst().orElse(version), Integer.parseInt(m.group(3)),
        m.group(1).equals("ysql_bench"));
  }

  /** {@code path} when it answers as pgbench, else null (a missing file, or Debian's wrapper without a server). */
  private static Path answers(Path path) {
    if (path == null) {
      return null;
    }
    try {
      return parse(path, Packages.ask(path, "--version", INSTALL)) != null ? path : null;
    } catch (UserError e) {
      return null;
    }
  }
}
