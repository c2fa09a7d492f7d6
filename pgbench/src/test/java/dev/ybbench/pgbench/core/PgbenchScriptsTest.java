package dev.ybbench.pgbench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PgbenchScriptsTest {
  @TempDir
  Path dir;

  @Test
  void theBuiltInsAndTheirStatementsOnTheTables() {
    List<PgbenchScripts.Script> none = PgbenchScripts.of(List.of(), List.of(), false, false, "pgbench_");
    assertEquals(List.of("tpcb-like"), none.stream().map(PgbenchScripts.Script::name).toList());
    assertEquals(5, none.get(0).onTables());
    // As -r lists them: four \set, BEGIN, five statements on the tables, END.
    assertEquals(List.of(false, false, false, false, false, true, true, true, true, true, false),
        none.get(0).commands());
    assertEquals("tpcb-like", PgbenchScripts.workload(none));
    List<PgbenchScripts.Script> mix = PgbenchScripts.of(List.of("simple@2", "select-only@8"), List.of(), false, false,
        "pgbench_");
    assertEquals(List.of("simple-update@2 3", "select-only@8 1"), mix.stream().map(s -> s.name() + "@" + s.weight()
        + " " + s.onTables()).toList());
    assertEquals(List.of(false, true), mix.get(1).commands());
    assertEquals("simple-update@2+select-only@8", PgbenchScripts.workload(mix));
    assertEquals(List.of("-b", "simple-update@2"), mix.get(0).argument());
    assertEquals("select-only", PgbenchScripts.workload(PgbenchScripts.of(List.of(), List.of(), false, true,
        "pgbench_")));
  }

  @Test
  void aNameOrWeightPgbenchWouldRefuseIsRefused() {
    assertEquals("-b s: ambiguous; pgbench's are tpcb-like, simple-update, select-only", assertThrows(UserError.class,
        () -> PgbenchScripts.of(List.of("s"), List.of(), false, false, "pgbench_")).getMessage());
    assertEquals("-b tpcc: no such built-in script; pgbench's are tpcb-like, simple-update, select-only",
        assertThrows(UserError.class, () -> PgbenchScripts.of(List.of("tpcc"), List.of(), false, false, "pgbench_"))
            .getMessage());
    assertTrue(assertThrows(UserError.class, () -> PgbenchScripts.of(List.of("tpcb-like@x"), List.of(), false, false,
        "pgbench_")).getMessage().contains("the weight after @ must be a whole number"));
    assertTrue(assertThrows(UserError.class, () -> PgbenchScripts.of(List.of("select-only"), List.of(), false, true,
        "pgbench_")).getMessage().startsWith("a script is given twice"));
  }

  @Test
  void aScriptOfOnesOwnCountsItsCommandsOnTheTables() throws Exception {
    String script = String.join("\n",
        "\\set aid random(1, 100000 * :scale)",
        "\\set delta random(-5000, \\",
        "  5000)",
        "BEGIN;",
        "UPDATE pgbench_accounts SET abalance = abalance + :delta",
        "  WHERE aid = :aid;  -- over two lines",
        "SELECT 1; SELECT abalance FROM pgbench_accounts WHERE aid = :aid;",
        "-- SELECT * FROM pgbench_tellers;",
        "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, :aid, :delta, now())",
        "END;");
    // BEGIN, SELECT 1 and END name no table; the commented SELECT is no command; the INSERT ends at END's ';'.
    assertEquals(3, PgbenchScripts.onTables(script, "pgbench_"));
    assertEquals(List.of(false, false, false, true, false, true, true), PgbenchScripts.commands(script,
        "pgbench_"));
    // \gset ends the SQL before it, in place of its semicolon, and is no command of its own.
    assertEquals(List.of(true, false, true), PgbenchScripts.commands("SELECT abalance FROM pgbench_accounts WHERE "
        + "aid = 1 \\gset\n\\set x :abalance + 1\nSELECT 1\nFROM pgbench_branches\n\\gset b_\n", "pgbench_"));
    assertEquals(0, PgbenchScripts.onTables(script, "ysql_bench_"));
    assertEquals(-1, PgbenchScripts.onTables("\\if :aid > 5\nSELECT 1 FROM pgbench_accounts;\n\\endif\n",
        "pgbench_"));
    Path f = Files.writeString(dir.resolve("mine.sql"), script);
    PgbenchScripts.Script s = PgbenchScripts.of(List.of(), List.of(f + "@3"), false, false, "pgbench_").get(0);
    assertEquals(new PgbenchScripts.Script("mine", f.toAbsolutePath(), 3, PgbenchScripts.commands(script,
        "pgbench_")), s);
  }
}
