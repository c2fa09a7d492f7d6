package dev.ybbench.pgbench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ybbench.pgbench.core.PgbenchScripts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** pgbench 15's report and progress lines, as it printed them in real runs (src/test/resources/pgbench). */
class PgbenchReportTest {
  static PgbenchReport read(String sample) throws IOException {
    PgbenchReport r = new PgbenchReport();
    try (InputStream in = PgbenchReportTest.class.getResourceAsStream("/pgbench/" + sample)) {
      new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().forEach(r::accept);
    }
    return r;
  }

  @Test
  void aPlainRunsReport() throws IOException {
    PgbenchReport r = read("pgbench-15-tpcb-like.txt");
    assertEquals(new PgbenchReport.Totals(4973, 0, -1, -1, -1, -1, -1, -1, 995.924380, 1.983), r.totals());
    assertEquals(2, r.progress().size());
    assertEquals(new PgbenchReport.Progress(4.0, 1037.2, 1.908, 0, 0, 0), r.progress().get(1));
    assertEquals(false, r.aborted());
  }

  @Test
  void failuresRetriesAndSkippedTransactions() throws IOException {
    // -c 4 -j 2 -T 3 -P 1 -R 300 -L 5 --max-tries=3 --failures-detailed -r, sessions at repeatable read.
    PgbenchReport r = read("pgbench-15-failures.txt");
    assertEquals(new PgbenchReport.Totals(642, 234, 234, 0, 259, 291, 31, 190, 215.144425, 4.030), r.totals());
    assertEquals(new PgbenchReport.Progress(3.0, 201.0, 4.501, 93, 11, 84), r.progress().get(2));
  }

  /**
   * -r's report of each command, per script, and from it the statements on the tables that failed
   * and retried tries completed before the command that failed: every try runs from the first
   * command until one fails.
   */
  @Test
  void theStatementsOfTriesThatFailedPartWayComeFromTheReportOfEachCommand() throws IOException {
    PgbenchScripts.Script tpcb = PgbenchScripts.of(List.of(), List.of(), false, false, "pgbench_").get(0);
    PgbenchScripts.Script simple = PgbenchScripts.of(List.of("simple-update"), List.of(), false, false, "pgbench_")
        .get(0);
    // Failures and retries (--max-tries 3), one script.
    PgbenchReport one = read("pgbench-15-failures.txt");
    assertEquals(new PgbenchReport.Command(0.228, 210, 258, "UPDATE pgbench_branches SET bbalance = bbalance + "
        + ":delta WHERE bid = :bid;"), one.commands(0).get(8));
    assertEquals(11, one.commands(0).size());
    // 642 + 234 + 291 tries: accounts' UPDATE and SELECT 1167 each, tellers' 1167 − 24 − 33, then
    // branches' 1110 − 210 − 258, and the history's INSERT 642.
    assertEquals(1167 + 1167 + 1110 + 642 + 642, PgbenchResults.completedOnTables(tpcb, log(642, 234, 291),
        one.commands(0), false));
    // Failures without tries (pgbench 15's default): the failures column only.
    PgbenchReport noTries = read("pgbench-15-tpcb-like-failures-no-retries.txt");
    assertEquals(new PgbenchReport.Command(0.389, 178, -1, "UPDATE pgbench_tellers SET tbalance = tbalance + :delta "
        + "WHERE tid = :tid;"), noTries.commands(0).get(7));
    assertEquals(2164 + 2164 + 1986 + 751 + 751, PgbenchResults.completedOnTables(tpcb, log(751, 1413, 0),
        noTries.commands(0), false));
    // Two scripts, each its own block after its "SQL script N:" head.
    PgbenchReport two = read("pgbench-15-two-scripts-retries.txt");
    assertEquals(11, two.commands(0).size());
    assertEquals(9, two.commands(1).size());
    assertEquals(2490 + 2490 + 2339 + 884 + 884, PgbenchResults.completedOnTables(tpcb, log(884, 350, 1256),
        two.commands(0), false));
    assertEquals(3 * 1232, PgbenchResults.completedOnTables(simple, log(1232, 0, 0), two.commands(1), false));
    // Counts that disagree with the log's, or no report of the commands: not known.
    assertEquals(-1, PgbenchResults.completedOnTables(tpcb, log(884, 351, 1256), two.commands(0), false));
    assertEquals(-1, PgbenchResults.completedOnTables(tpcb, log(884, 350, 1256), null, false));
    assertEquals(5 * 884, PgbenchResults.completedOnTables(tpcb, log(884, 0, 0), null, false), "no failures: each "
        + "success's five");
    assertEquals(-1, PgbenchResults.completedOnTables(tpcb, log(642, 234, 291), one.commands(0), true), "timed: "
        + "the transactions dropped when the time was up are not known");
    assertNull(read("pgbench-15-tpcb-like.txt").commands(0));
  }

  /** A script's transactions as its log counts them: successes, failures (serialization) and retries. */
  private static PgbenchLog.Script log(long successes, long failed, long retries) {
    PgbenchLog.Script t = new PgbenchLog.Script();
    t.successes = successes;
    if (failed > 0) {
      t.failures.put("serialization", failed);
    }
    t.retries = retries;
    return t;
  }

  @Test
  void aRunEndedBeforeItsReportHasNone() {
    PgbenchReport r = new PgbenchReport();
    r.accept("pgbench (15.18 (Debian 15.18-0+deb12u1), server 17.11)");
    r.accept("progress: 1.0 s, 743.8 tps, lat 2.657 ms stddev 3.075, 0 failed");
    assertNull(r.totals());
    assertEquals(1, r.progress().size());
  }
}
