package dev.ybbench.tpcc.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.merge.ResumedLoad;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.tpcc.core.TpccDatabase;
import dev.ybbench.tpcc.core.TpccSchema;
import dev.ybbench.tpcc.core.WarehouseRange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@code --resume RUN_DIR} with {@code --load}: a client's load that was killed, finished. The
 * warehouses its checkpoint records loaded whole are kept; each other warehouse of its range may
 * hold some of its rows, so they are deleted, and the warehouse loaded again with the rest
 * ({@link WarehouseCheckpoint}).
 */
public final class LoadResume {
  private LoadResume() {}

  /**
   * The load {@code resume} holds, refused in one line when it is not a TPC-C load, is complete,
   * or loaded other warehouses than {@code range}.
   */
  public static WarehouseCheckpoint.Saved earlier(Path resume, WarehouseRange range) {
    WarehouseCheckpoint.Saved saved = null;
    try {
      if (Files.isRegularFile(resume.resolve(ResumedLoad.CHECKPOINT)) && Files.isRegularFile(resume.resolve("run.json"))) {
        saved = WarehouseCheckpoint.Saved.read(resume);
      }
    } catch (IOException | RuntimeException e) {
      throw new UserError("--resume " + resume + ": its " + ResumedLoad.CHECKPOINT + " cannot be read (" + e.getMessage()
          + ")");
    }
    if (saved == null) {
      throw new UserError("--resume " + resume + " is not the run directory of a TPC-C load (it has no "
          + ResumedLoad.CHECKPOINT + " of warehouses)");
    }
    if (saved.complete()) {
      throw new UserError("The load in " + resume + " is complete: nothing to resume");
    }
    if (!saved.range().equals(range)) {
      throw new UserError("--resume " + resume + " loaded warehouses " + saved.range() + " of " + saved.range().total()
          + ", this command's are " + range + " of " + range.total() + "; give the flags of the run it continues");
    }
    return saved;
  }

  /** What a resume of {@code earlier} keeps and loads again: "warehouse 3 kept (499172 rows); warehouse 4 …". */
  public static String said(WarehouseCheckpoint.Saved earlier) {
    List<Integer> doubtful = earlier.doubtful();
    boolean items = earlier.itemsInDoubt();
    // Never empty: a load with nothing in doubt is complete, and not resumed.
    String again = (doubtful.isEmpty() ? "" : warehouses(doubtful)) + (items ? (doubtful.isEmpty() ? "" : " and ")
        + "ITEM" : "");
    return (earlier.loaded().isEmpty() ? "no warehouse loaded whole" : warehouses(List.copyOf(earlier.loaded()
        .keySet())) + " loaded whole kept (" + earlier.total() + " rows)") + "; " + again + " in doubt: deleted and "
        + "loaded again";
  }

  private static String warehouses(List<Integer> ws) {
    return (ws.size() == 1 ? "warehouse " : "warehouses ") + ws.stream().map(String::valueOf)
        .collect(Collectors.joining(", "));
  }

  /**
   * Deletes the rows of the warehouses {@code earlier} left in doubt (and ITEM's, if it was not
   * loaded whole), before the load phase begins; returns the checkpoint of the load that goes on.
   */
  public static WarehouseCheckpoint resume(TpccDatabase db, Path runDir, Path resume, WarehouseCheckpoint.Saved earlier,
      Consumer<String> log) throws SQLException {
    List<Integer> doubtful = earlier.doubtful();
    boolean items = earlier.itemsInDoubt();
    long deleted = 0;
    try (Connection c = db.connect(true); Statement st = c.createStatement()) {
      for (int w : doubtful) {
        for (TpccSchema.Table t : TpccSchema.TABLES) {
          if (t.warehouseColumn() != null) {
            deleted += st.executeUpdate("DELETE FROM " + t.name() + " WHERE " + t.warehouseColumn() + " = " + w);
          }
        }
      }
      if (items) {
        deleted += st.executeUpdate("DELETE FROM item");
      }
    }
    ObjectNode from = RunDirectory.JSON.createObjectNode().put("run", resume.getFileName().toString())
        .put("written", earlier.total() - earlier.inherited()).put("found", 0).put("in_doubt", 0)
        .put("redone", deleted);
    if (earlier.resumedFrom() != null) {
      from.set("resumed_from", earlier.resumedFrom());
    }
    log.accept("Resuming the load of " + resume.getFileName() + ": " + said(earlier) + " (" + deleted
        + " rows deleted)");
    return WarehouseCheckpoint.of(runDir, earlier.range(), earlier.loaded(), earlier.items(), from);
  }
}
