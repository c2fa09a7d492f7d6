package dev.ybbench.ycsb.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.harness.run.Run;
import dev.ybbench.harness.run.RunFailure;
import dev.ybbench.ycsb.workload.CoreWorkload64;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.measurements.Measurements;

/**
 * {@code --resume RUN_DIR}: a load that crashed or was stopped, continued. The earlier part's
 * checkpoint says which keys it handed out and which it wrote; the keys it left in doubt are
 * looked up in the table and the missing ones inserted first, then the load goes on where it
 * stopped ({@link LoadCheckpoint}).
 */
public final class LoadResume {
  /** What a resumed load may do differently: how many threads, batches, and how long a run phase. */
  private static final Pattern MAY_CHANGE = Pattern.compile(
      "threadcount|ybbench\\.threads|ybbench\\.batch_size|ybbench\\.duration_s");

  private LoadResume() {}

  /**
   * The load {@code resume} holds: its checkpoint, refused with one line when there is none, when
   * it is complete, or when this command would load other keys or another workload.
   *
   * @param params this command's run.json parameters
   * @param mine   this client's first key and count
   */
  public static LoadCheckpoint.Saved earlier(Path resume, String workloadName, Map<String, String> params, long[] mine)
      throws IOException {
    if (!Files.isRegularFile(resume.resolve(LoadCheckpoint.FILE)) || !Files.isRegularFile(resume.resolve("run.json"))) {
      throw new UserError("--resume " + resume + " is not the run directory of a load (it has no "
          + LoadCheckpoint.FILE + ")");
    }
    LoadCheckpoint.Saved saved = LoadCheckpoint.Saved.read(resume);
    if (saved.complete()) {
      throw new UserError("The load in " + resume + " is complete: nothing to resume");
    }
    JsonNode info = RunDirectory.JSON.readTree(resume.resolve("run.json").toFile());
    if (!info.path("workload").asText().equals(workloadName)) {
      throw new UserError("--resume " + resume + " ran " + info.path("workload").asText() + ", not " + workloadName);
    }
    // The command's own parameters; those the server adds once it is found (driver, dialect) are left out.
    for (String n : new TreeSet<>(params.keySet())) {
      String was = info.path("parameters").path(n).isMissingNode() ? null : info.path("parameters").path(n).asText();
      if (!RunInfo.mayDifferBetweenRuns(n) && !MAY_CHANGE.matcher(n).matches() && !Objects.equals(was, params.get(n))) {
        throw new UserError("--resume " + resume + ": its " + n + " was " + was + ", this command's is "
            + params.get(n) + "; give the flags of the run it continues");
      }
    }
    if (saved.start() != mine[0] || saved.end() != mine[0] + mine[1]) {
      throw new UserError("--resume " + resume + " loaded keys " + saved.start() + " … " + (saved.end() - 1)
          + ", this command's are " + mine[0] + " … " + (mine[0] + mine[1] - 1));
    }
    return saved;
  }

  /**
   * The checkpoint of the resumed load: it first inserts the keys the earlier part left in doubt
   * and did not write (looked up in the table here, before the phase and its server audit
   * begin), then goes on where it stopped.
   *
   * @param reserveAhead keys handed out per write of the checkpoint file
   */
  public static LoadCheckpoint resume(Run run, Path resume, LoadCheckpoint.Saved earlier, Properties loadProps,
      Supplier<DB> bindings, int reserveAhead) throws Exception {
    Measurements.setProperties(loadProps);
    CoreWorkload64 names = (CoreWorkload64) YcsbPhase.workload(loadProps);
    List<Long> doubtful = earlier.doubtful();
    List<Long> missing = new ArrayList<>();
    DB db = bindings.get();
    db.setProperties(loadProps);
    db.init();
    try {
      String table = loadProps.getProperty("table", "usertable");
      for (long k : doubtful) {
        Status s = db.read(table, names.buildKeyName(k), null, new HashMap<>());
        if (s == Status.NOT_FOUND) {
          missing.add(k);
        } else if (!s.isOk()) {
          throw new RunFailure("cannot tell whether key " + names.buildKeyName(k) + " of " + resume + " was written: "
              + s.getName() + " " + s.getDescription());
        }
      }
    } finally {
      db.cleanup();
    }
    ObjectNode from = RunDirectory.JSON.createObjectNode().put("run", resume.getFileName().toString())
        .put("written", earlier.written()).put("lost", earlier.lost()).put("in_doubt", doubtful.size())
        .put("found", doubtful.size() - missing.size()).put("missing", missing.size());
    if (earlier.resumedFrom() != null) {
      from.set("resumed_from", earlier.resumedFrom());
    }
    run.console().line(String.format("Resuming the load of %s: it wrote %d rows (%d lost); of the %d keys it left in "
        + "doubt %d are in the table and %d are not, which go first; %s", resume.getFileName(), earlier.written(),
        earlier.lost(), doubtful.size(), doubtful.size() - missing.size(), missing.size(),
        earlier.reserved() < earlier.end() ? "then keys " + earlier.reserved() + " … " + (earlier.end() - 1)
            : "no key after them was handed out"));
    return new LoadCheckpoint(run.directory().path(), earlier.start(), earlier.end(), earlier.reserved(), missing,
        reserveAhead, from);
  }
}
