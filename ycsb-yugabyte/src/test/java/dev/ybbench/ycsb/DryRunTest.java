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
}
