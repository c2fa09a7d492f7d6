package dev.ybbench.analysis.history;

import dev.ybbench.analysis.Compare;
import dev.ybbench.analysis.compare.RunGroup;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.run.RunHistory;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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

  /** compare.sh --history HISTORY --confirm N on the run's label (or the run alone), its report beside the runs. */
  @Override
  public int confirm(String history, Path runDir, int more, Path home, Consumer<String> out) {
    String label = RunGroup.read(runDir).info().path("label").asText(null);
    PrintStream lines = new PrintStream(new LineSink(out), true, StandardCharsets.UTF_8);
    return new Compare(new Console(lines), home).execute(new String[] {"--history", history, "--confirm",
        Integer.toString(more), label != null ? label : runDir.toString(), "--results-dir",
        runDir.getParent().toString()}, lines);
  }

  /** The lines written to it, each passed on as it ends, so a long confirmation is seen as it goes. */
  private static final class LineSink extends OutputStream {
    private final Consumer<String> out;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    LineSink(Consumer<String> out) {
      this.out = out;
    }

    @Override
    public void write(int b) {
      if (b == '\n') {
        out.accept(line.toString(StandardCharsets.UTF_8));
        line.reset();
      } else {
        line.write(b);
      }
    }
  }
}
