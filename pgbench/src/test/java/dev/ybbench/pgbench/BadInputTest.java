package dev.ybbench.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.pgbench.core.PgbenchSchema;
import dev.ybbench.pgbench.engine.PgbenchBinary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Bad input: one line saying what is wrong and what to do, exit 2, within seconds, nothing started. */
class BadInputTest {
  @TempDir
  Path results;

  @Test
  void eachIsOneLineAndExit2BeforeAnythingStarts() throws Exception {
    Tools.requireInstalled("pgbench", PgbenchBinary.PACKAGE); // cases below are refused by pgbench's version
    Map<List<String>, String> cases = new LinkedHashMap<>();
    cases.put(List.of("--bogus"), "unknown option '--bogus' (see --help)");
    cases.put(List.of("-c", "0"), "-c must be at least 1, was 0");
    cases.put(List.of("-c", "2", "-j", "4"), "-j 4 is more threads than sessions (-c 2): pgbench refuses it");
    cases.put(List.of("-T", "5", "-t", "3"), "-T and -t both given: a run is either S seconds (-T) or N transactions "
        + "a session (-t)");
    cases.put(List.of("-M", "fast"), "-M must be simple, extended or prepared, was 'fast'");
    cases.put(List.of("-R", "0"), "-R must be a rate above 0 transactions a second, was 0.0");
    cases.put(List.of("-b", "tpcc"), "-b tpcc: no such built-in script; pgbench's are tpcb-like, simple-update, "
        + "select-only");
    cases.put(List.of("-f", "/nonexistent/mine.sql"), "-f /nonexistent/mine.sql: cannot read it");
    cases.put(List.of("-i", "-c", "4"), "-i initializes and runs nothing: -c 4 belong to a run (run it after, "
        + "without -i)");
    cases.put(List.of("-I", "dtg"), "-I goes with -i");
    cases.put(List.of("-i", "-I", "dtx"), "-I dtx: the steps are d, t, g, G, v, p and f");
    cases.put(List.of("--log-prefix", "/tmp/x"), "--log-prefix: ybbench keeps pgbench's per-transaction log in the "
        + "run directory");
    cases.put(List.of("--sampling-rate", "0.1"), "--sampling-rate: ybbench reads every transaction's latency");
    cases.put(List.of("--aggregate-interval", "5"), "--aggregate-interval: ybbench reads every transaction's latency");
    cases.put(List.of("-d", "mydb"), "-d: pgbench 17 reads it as the database and earlier ones as --debug; give the "
        + "database as the last argument (or --database)");
    cases.put(List.of("--exit-on-abort"), "--exit-on-abort: pgbench (PostgreSQL) 15.18");
    cases.put(List.of("-p", "5433"), "-p 5433 without -h: give the host too (-h HOST -p 5433, or --hosts HOST:5433)");
    cases.put(List.of("-h", "h1", "--hosts", "h2"), "-h and --hosts both name the server: give one");
    cases.put(List.of("--hosts", "h1:5433,h2:5433"), "--hosts h1:5433,h2:5433: pgbench connects to one host");
    cases.put(List.of("--url-options", "prepareThreshold=0", "-h", "h1"), "--url-options prepareThreshold: pgbench "
        + "connects through libpq and takes sslcert, sslkey, sslmode, sslrootcert only");
    cases.put(List.of("mydb", "--database", "other"), "the database is named twice (mydb and --database other): give "
        + "one");
    cases.put(List.of("--pgbench-binary", "/nonexistent/pgbench"), "--pgbench-binary /nonexistent/pgbench is not an "
        + "executable file: install Debian's package (apt-get install postgresql; ./run_pgbench.sh installs it when "
        + "run as root) or give --pgbench-binary PATH");
    cases.put(List.of("--prometheus-port", "70000"), "--prometheus-port");
    cases.put(List.of("--merge", "a", "b", "-c", "4"), "--merge joins runs already made: give only the run "
        + "directories (and --results-dir), not -c 4");
    cases.put(List.of("--clients", "2"), "--clients 2 share one server's tables, and an embedded server is this "
        + "client's alone: give --hosts (or -h)");
    cases.put(List.of("-i", "--clients", "2", "-h", "h1"), "--clients 2 run on tables initialized once: -i is one "
        + "client's");
    cases.put(List.of("-s", "5", "--clients", "2", "-h", "h1"), "--clients 2 run on tables initialized once: leave "
        + "out -s");
    cases.put(List.of("-i", "--layout", "diagonal", "-h", "h1"), "--layout must be hash or range, was 'diagonal'");
    cases.put(List.of("-i", "--tablets", "0", "-h", "h1"), "--tablets must be at least 1, was 0");
    cases.put(List.of("--tablets", "4", "-h", "h1"), "--tablets 4 shapes the tables -i creates: give it with -i (or "
        + "with -s, which initializes)");
    cases.put(List.of("-i", "--layout", "range"), "--layout range shapes YugabyteDB's tables, and the embedded "
        + "server is PostgreSQL, whose tables pgbench -i creates: give --hosts of a YugabyteDB node, or leave it out");
    for (Map.Entry<List<String>, String> c : cases.entrySet()) {
      for (boolean dry : new boolean[] {false, true}) {
        List<String> args = new ArrayList<>(c.getKey());
        args.addAll(List.of("--results-dir", results.toString(), "--no-install"));
        if (dry) {
          args.add("--dry-run");
        }
        long start = System.nanoTime();
        RunPgbenchTest.Outcome o = RunPgbenchTest.run(args.toArray(String[]::new));
        double seconds = (System.nanoTime() - start) / 1e9;
        String what = args + " -> " + o.err();
        assertEquals(2, o.exitCode(), what + o.out());
        assertEquals(1, o.err().strip().lines().count(), what);
        assertTrue(o.err().startsWith("error: " + c.getValue()), what);
        assertFalse(o.err().contains("Exception"), what);
        assertFalse(o.out().contains("Starting embedded"), what);
        assertNull(o.runDir(), what);
        assertTrue(seconds < 10, what + " took " + seconds + " s");
      }
    }
    try (var s = Files.list(results)) {
      assertEquals(0, s.count(), "a refused run left a directory");
    }
  }

  /**
   * Once the server answered (before the run's directory exists): -i's options its tables cannot
   * take, by name. The version strings are YugabyteDB's and PostgreSQL's own.
   */
  @Test
  void whatTheServersTablesCannotTakeIsRefusedOnceItAnswered() {
    Tools.requireInstalled("pgbench", PgbenchBinary.PACKAGE);
    ServerInfo yugabyte = ServerInfo.fromSqlVersion("PostgreSQL 11.2-YB-2.20.1.0-b0 on x86_64-pc-linux-gnu, "
        + "compiled by clang version 16.0.6, 64-bit");
    ServerInfo postgres = ServerInfo.fromSqlVersion("PostgreSQL 17.2 on x86_64-pc-linux-gnu, compiled by gcc "
        + "(Debian 12.2.0-14) 12.2.0, 64-bit");
    Map<List<String>, String> cases = new LinkedHashMap<>();
    cases.put(List.of("-F", "90"), "-F: ybbench creates YSQL's tables on YugabyteDB, which take no fill factor");
    cases.put(List.of("--partitions", "4"), "--partitions: ybbench creates YSQL's tables on YugabyteDB, which take no "
        + "partitions from ybbench (split into tablets with --tablets N, or partition with ysql_bench)");
    cases.put(List.of("--unlogged-tables"), "--unlogged-tables: ybbench creates YSQL's tables on YugabyteDB, which "
        + "take no UNLOGGED");
    cases.put(List.of("-I", "dgp"), "-I dgp: YSQL declares a primary key when it creates the table; give t with p");
    for (Map.Entry<List<String>, String> c : cases.entrySet()) {
      List<String> args = new ArrayList<>(List.of("-i", "-h", "h1"));
      args.addAll(c.getKey());
      PgbenchPlan plan = plan(args);
      UserError e = assertThrows(UserError.class, () -> plan.checkInitOn(yugabyte), args.toString());
      assertTrue(e.getMessage().startsWith(c.getValue()), e.getMessage());
      plan.checkInitOn(postgres); // pgbench -i's own tables take them
    }
    UserError e = assertThrows(UserError.class, () -> plan(List.of("-i", "-h", "h1", "--layout", "range"))
        .checkInitOn(postgres));
    assertEquals("--layout range shapes YugabyteDB's tables, and PostgreSQL 17.2 takes pgbench -i's: leave it out",
        e.getMessage());
    PgbenchPlan ranged = plan(List.of("-i", "-s", "3", "-n", "-h", "h1", "--layout", "range", "--tablets", "6"));
    ranged.checkInitOn(yugabyte);
    assertEquals(new PgbenchSchema(SqlDialect.YUGABYTEDB, "pgbench_", 3, true, 6, true), ranged.ysqlSchema());
    assertEquals("dtgp", ranged.initSteps(), "-n leaves out the vacuum");
    assertEquals("range", ranged.parameters(ranged.endpoint(), null).get("layout"));
  }

  private static PgbenchPlan plan(List<String> args) {
    PgbenchOptions o = new PgbenchOptions();
    new CommandLine(o).parseArgs(args.toArray(String[]::new));
    return PgbenchPlan.of(o);
  }

  @Test
  void pgbenchMissingFromThePathSaysHowToInstallIt(@TempDir Path empty) throws Exception {
    UserError e = assertThrows(UserError.class, () -> PgbenchBinary.find(null, empty.toString()));
    assertEquals("pgbench is not installed: install Debian's package (apt-get install postgresql; ./run_pgbench.sh "
        + "installs it when run as root) or give --pgbench-binary PATH", e.getMessage());
    // Debian's /usr/bin/pgbench is a wrapper, which answers so when no PostgreSQL server package is installed.
    Path wrapper = Files.writeString(empty.resolve("pgbench"), "#!/bin/sh\necho 'Error: You must install at least "
        + "one postgresql-client-<version> package' >&2; exit 1\n");
    wrapper.toFile().setExecutable(true);
    e = assertThrows(UserError.class, () -> PgbenchBinary.find(null, empty.toString()));
    assertTrue(e.getMessage().startsWith(wrapper + " is not pgbench nor ysql_bench (--version printed 'Error: You "
        + "must install"), e.getMessage());
  }
}
