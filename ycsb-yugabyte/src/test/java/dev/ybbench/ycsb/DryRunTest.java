package dev.ybbench.ycsb;

import static dev.ybbench.ycsb.RunYcsbTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.ycsb.RunYcsbTest.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A dry run writes no file and contacts no host; what it cannot check without them, it checks the form of. */
class DryRunTest {
  @TempDir
  Path dir;

  @Test
  void aDryRunCreatesNoResultsDirectoryAndNoHistoryFile() {
    Path results = dir.resolve("new/results");
    Path history = dir.resolve("history.db");
    Outcome o = run("workloada", "--dry-run", "--results-dir", results.toString(), "--history", history.toString());
    assertEquals(0, o.exitCode(), o.err() + o.out());
    assertTrue(o.out().contains("Plan (nothing started):"), o.out());
    assertFalse(Files.exists(dir.resolve("new")), "no results directory made");
    assertFalse(Files.exists(history), "no history file made");
  }

  @Test
  void aDryRunOpensNoHistoryServerButTheRunChecksItBeforeItStarts() {
    String history = "postgresql://u:secret@127.0.0.1:1/runs"; // port 1 refuses every connection
    Outcome dry = run("workloada", "--hosts", "127.0.0.1:1", "--dry-run", "--results-dir", dir.toString(),
        "--history", history);
    assertEquals(0, dry.exitCode(), dry.err() + dry.out());
    assertFalse((dry.out() + dry.err()).contains("secret"), dry.out());
    Outcome ran = run("workloada", "--hosts", "127.0.0.1:1", "--results-dir", dir.toString(), "--history", history);
    assertEquals(2, ran.exitCode(), ran.out());
    assertTrue(ran.err().startsWith("error: Cannot open the history postgresql://u:***@127.0.0.1:1/runs"), ran.err());
  }

  @Test
  void whatCannotBeWrittenIsRefusedByTheDryRunToo() throws Exception {
    Path file = Files.writeString(dir.resolve("a-file"), "");
    Outcome history = run("workloada", "--dry-run", "--results-dir", dir.toString(), "--history",
        file.resolve("history.db").toString());
    assertEquals(2, history.exitCode(), history.out());
    assertEquals("error: Cannot open the history " + file.resolve("history.db") + ": it cannot be written; give a "
        + "file (e.g. results/history.db) or a postgresql:// URL", history.err().strip());
    Outcome directory = run("workloada", "--dry-run", "--results-dir", dir.toString(), "--history", dir.toString());
    assertTrue(directory.err().startsWith("error: Cannot open the history " + dir + ": it is a directory"),
        directory.err());
    Outcome results = run("workloada", "--dry-run", "--results-dir", "/proc/ybbench-results");
    assertEquals(2, results.exitCode(), results.out());
    assertTrue(results.err().startsWith("error: cannot create results directory /proc/ybbench-results"),
        results.err());
  }

  /** The outline every benchmark's plan starts with: what is reached, dropped, opened and read, and for how long. */
  @Test
  void thePlanSaysWhatTheRunWillTouchAndForHowLong() {
    Outcome load = run("workloada", "--dry-run", "--duration", "30", "--warmup", "5", "--results-dir",
        dir.toString());
    assertEquals(0, load.exitCode(), load.err() + load.out());
    for (String line : new String[] {"  target: embedded PostgreSQL ", "  database: ycsb as postgres",
        "  schema: usertable: dropped if it is there, and created before the load",
        "  connections: 8, one per client thread", "  phase.load: 100000 records, about 122 MB on PostgreSQL (1220 bytes a record) (time unknown until "
            + "it runs; no earlier complete load of this benchmark on this target in the results directory to go by)",
        "  phase.warmup: (5 s)", "  phase.run: 100000000 operations or 30 s, whichever ends first (30 s)",
        "  wall_time: at least 35 s, plus the time of the load, which only the run can tell",
        "  label: none", "  create_table: always (a load's default)",
        "  binding.table: CREATE TABLE usertable (ycsb_key VARCHAR(255), field0 TEXT"}) {
      assertTrue(load.out().contains(line), line + " in " + load.out());
    }
    assertFalse(load.out().contains("TableSpec["), load.out());
    Outcome run = run("workloadc", "--phase", "run", "--hosts", "10.0.0.1,10.0.0.2", "--url-options",
        "sslmode=verify-full&sslrootcert=/etc/yb/ca.crt", "--password", "Secret-Pw-1", "--dry-run", "--results-dir",
        dir.toString());
    assertEquals(0, run.exitCode(), run.err() + run.out());
    for (String line : new String[] {"  target: 10.0.0.1,10.0.0.2 (given), TLS sslmode=verify-full "
        + "(sslrootcert=/etc/yb/ca.crt)", "  database: ycsb as yugabyte with a password",
        "  schema: usertable: used as it is, and must be there (nothing created or dropped)",
        "  reads: on YugabyteDB, each node's (10.0.0.1, 10.0.0.2) :9000 and :13000/prometheus-metrics and "
            + ":13000/statements", "  create_table: never (a run alone's default)",
        "  command: ./run_ycsb.sh workloadc --phase run --hosts 10.0.0.1,10.0.0.2 --url-options "
            + "'sslmode=verify-full&sslrootcert=/etc/yb/ca.crt' --password ***",
        "  binding.table: CREATE TABLE usertable (ycsb_key VARCHAR(255)"}) {
      assertTrue(run.out().contains(line), line + " in " + run.out());
    }
    assertFalse(run.out().contains("phase.load"), run.out());
    assertFalse(run.out().contains("Secret-Pw-1"), run.out());
    assertFalse(run.out().contains("As ybbench:"), "the plan's command says it: " + run.out());
  }
}
