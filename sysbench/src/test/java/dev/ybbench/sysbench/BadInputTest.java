package dev.ybbench.sysbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.testing.Tools;
import dev.ybbench.sysbench.engine.SysbenchBinary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input: one line saying what is wrong and what to do, exit 2, within seconds, nothing started. */
class BadInputTest {
  @TempDir
  Path results;

  @Test
  void eachIsOneLineAndExit2BeforeAnythingStarts() throws Exception {
    Tools.requireInstalled("sysbench", SysbenchBinary.PACKAGE); // a case below is refused by sysbench's version
    Map<List<String>, String> cases = new LinkedHashMap<>();
    cases.put(List.of(), "Name a sysbench test, e.g. ./run_sysbench.sh oltp_read_only (see --help)");
    cases.put(List.of("oltp_readonly"), "Unknown sysbench test 'oltp_readonly'; use one of oltp_read_only, ");
    cases.put(List.of("oltp_multi_insert"), "Unknown sysbench test 'oltp_multi_insert' (oltp_multi_insert is "
        + "yugabyte/sysbench's, which Debian's sysbench does not ship)");
    cases.put(List.of("oltp_read_only", "go"), "Unknown command 'go' after the test; use prepare, run or cleanup");
    cases.put(List.of("oltp_read_only", "--threads", "0"), "--threads must be at least 1, was 0");
    cases.put(List.of("oltp_read_only", "--duration", "0"), "--duration 0 runs until --events: give --events N");
    cases.put(List.of("oltp_read_only", "--percentile", "0"), "--percentile must be 1 … 100, was 0 (0 would turn "
        + "off sysbench's latency, which ybbench records)");
    cases.put(List.of("oltp_read_only", "--layout", "hash-range"), "--layout must be hash or range, was 'hash-range'");
    cases.put(List.of("oltp_read_only", "--random_points=5"), "--random_points is not an option of oltp_read_only");
    cases.put(List.of("select_random_points", "--random_points=many"), "--random_points=many is not a whole number");
    cases.put(List.of("oltp_read_only", "--skip_trx=maybe"), "--skip_trx=maybe: give on or off");
    cases.put(List.of("oltp_read_only", "--secondary=on"), "--secondary is MySQL's (KEY xid in place of the primary "
        + "key)");
    cases.put(List.of("oltp_read_only", "--rate=10"), "--rate sysbench times an event from when a thread takes it");
    cases.put(List.of("oltp_read_only", "--report-checkpoints=10"), "--report-checkpoints prints whole reports");
    cases.put(List.of("oltp_read_only", "--hosts", "h1:5433,h2:5433"), "sysbench 1.0.20 connects to one host: give "
        + "one node in --hosts, or a yugabyte/sysbench build (--sysbench PATH)");
    cases.put(List.of("oltp_read_only", "--hosts", "h1:5433", "--url-options", "prepareThreshold=0"),
        "--url-options prepareThreshold: sysbench connects through libpq and takes sslcert, sslkey, sslmode, "
            + "sslrootcert only");
    cases.put(List.of("oltp_read_only", "--sysbench", "/nonexistent/sysbench"), "--sysbench /nonexistent/sysbench is "
        + "not an executable file: install Debian's package (apt-get install sysbench; ./run_sysbench.sh installs "
        + "it when run as root) or give --sysbench PATH");
    cases.put(List.of("oltp_read_only", "--prometheus-port", "0"), "--prometheus-port serves ybbench's own counters");
    cases.put(List.of("oltp_read_only", "run", "--clients", "2"), "--clients 2 share one server's tables, and an "
        + "embedded server is this client's alone: give --hosts");
    cases.put(List.of("oltp_read_only", "--hosts", "h1:5433", "--clients", "2"), "--clients 2: the clients run on "
        + "tables prepared once; prepare them first (./run_sysbench.sh oltp_read_only prepare …), then give each "
        + "client 'run'");
    cases.put(List.of("oltp_read_only", "--merge", "a", "b"), "--merge joins runs already made: give only the run "
        + "directories (and --results-dir), not a test");
    cases.put(List.of("oltp_read_only", "--table-size", "10", "--layout", "range", "--tablets", "20"),
        "--tablets 20 splits the ids 1 … 10 of a range key: give at most --table-size tablets");
    for (Map.Entry<List<String>, String> c : cases.entrySet()) {
      for (boolean dry : new boolean[] {false, true}) {
        List<String> args = new java.util.ArrayList<>(c.getKey());
        args.addAll(List.of("--results-dir", results.toString()));
        if (dry) {
          args.add("--dry-run");
        }
        long start = System.nanoTime();
        RunSysbenchTest.Outcome o = RunSysbenchTest.run(args.toArray(String[]::new));
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

  @Test
  void sysbenchMissingFromThePathSaysHowToInstallIt(@TempDir Path empty) throws Exception {
    UserError e = assertThrows(UserError.class, () -> SysbenchBinary.find(null, empty.toString()));
    assertEquals("sysbench is not installed: install Debian's package (apt-get install sysbench; ./run_sysbench.sh "
        + "installs it when run as root) or give --sysbench PATH", e.getMessage());
    Path notSysbench = Files.writeString(empty.resolve("sysbench"), "#!/bin/sh\necho hello\n");
    notSysbench.toFile().setExecutable(true);
    e = assertThrows(UserError.class, () -> SysbenchBinary.find(null, empty.toString()));
    assertTrue(e.getMessage().startsWith(notSysbench + " is not sysbench (--version printed 'hello')"),
        e.getMessage());
    Path noDriver = Files.writeString(empty.resolve("sysbench"), "#!/bin/sh\necho sysbench 1.0.20\n");
    noDriver.toFile().setExecutable(true);
    e = assertThrows(UserError.class, () -> SysbenchBinary.find(null, empty.toString()));
    assertTrue(e.getMessage().endsWith("has no pgsql driver: install Debian's package, or build sysbench with "
        + "./configure --with-pgsql"), e.getMessage());
  }
}
