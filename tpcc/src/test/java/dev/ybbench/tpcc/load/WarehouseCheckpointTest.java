package dev.ybbench.tpcc.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import dev.ybbench.tpcc.core.WarehouseRange;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A TPC-C load's checkpoint, as a resume reads it: what it keeps, what it loads again, what it refuses. */
class WarehouseCheckpointTest {
  @TempDir
  Path dir;

  @Test
  void aKilledLoadIsReadBackAndSaysWhatItsResumeDoes() throws Exception {
    Files.writeString(dir.resolve("run.json"), "{}");
    WarehouseCheckpoint c = WarehouseCheckpoint.start(dir, new WarehouseRange(1, 3, 6));
    c.items(100_000);
    c.warehouse(2, 499_172);
    WarehouseCheckpoint.Saved saved = LoadResume.earlier(dir, new WarehouseRange(1, 3, 6));
    assertEquals(Map.of(2, 499_172L), saved.loaded());
    assertEquals(599_172, saved.total());
    assertEquals(0, saved.inherited());
    assertFalse(saved.complete());
    assertNull(saved.resumedFrom());
    assertEquals("warehouse 2 loaded whole kept (599172 rows); warehouses 1, 3 in doubt: deleted and loaded again",
        LoadResume.said(saved));

    UserError other = assertThrows(UserError.class, () -> LoadResume.earlier(dir, new WarehouseRange(4, 3, 6)));
    assertEquals("--resume " + dir + " loaded warehouses 1..3 of 6, this command's are 4..6 of 6; give the flags of "
        + "the run it continues", other.getMessage());

    c.warehouse(1, 500_000);
    c.warehouse(3, 500_100);
    assertTrue(WarehouseCheckpoint.Saved.read(dir).complete());
    UserError done = assertThrows(UserError.class, () -> LoadResume.earlier(dir, new WarehouseRange(1, 3, 6)));
    assertEquals("The load in " + dir + " is complete: nothing to resume", done.getMessage());
  }

  @Test
  void itemInDoubtIsLoadedAgainByTheClientWithWarehouseOne() throws Exception {
    Files.writeString(dir.resolve("run.json"), "{}");
    WarehouseCheckpoint.start(dir, new WarehouseRange(1, 1, 2));
    assertEquals("no warehouse loaded whole; warehouse 1 and ITEM in doubt: deleted and loaded again",
        LoadResume.said(LoadResume.earlier(dir, new WarehouseRange(1, 1, 2))));
  }
}
