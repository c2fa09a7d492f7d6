package dev.ybbench.analysis.history;

import dev.ybbench.harness.run.RunHistory;
import java.nio.file.Path;
import java.util.function.Consumer;

/** A runner's --history: the run read as compare.sh reads it ({@link HistoryRuns}) into the {@link HistoryStore}. */
public final class HistoryRecorder implements RunHistory {
  @Override
  public void check(String history, boolean open) {
    if (open) {
      HistoryStore.open(history).close();
    } else {
      HistoryStore.checkForm(history);
    }
  }

  @Override
  public int record(String history, Path runDir, int exit, Consumer<String> out) {
    return HistoryRuns.record(history, runDir, exit, out);
  }
}
