package dev.ybbench.harness.results;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the user sees, also kept as the run's {@code console.log}. Lines printed before the
 * result directory exists are buffered and written when it is attached. A password given as a
 * value ({@code password=…} in a URL or a property, {@code --password …} in a command line) loses
 * its value in every line, on the terminal and in the file; free text is never rewritten, so a
 * password that is also a word ("yugabyte", "PostgreSQL", "x") leaves messages and banners intact.
 */
public final class Console {
  private final PrintStream terminal;
  private final List<String> pending = new ArrayList<>();
  private Writer file;

  public Console(PrintStream terminal) {
    this.terminal = terminal;
  }

  private static final Pattern PASSWORD_FLAG = Pattern.compile("(?i)(--?password[ =])\\S+");

  /** {@code text} with the value of every password given as a value hidden ("password=***"). */
  public static String clean(String text) {
    return text == null ? null : PASSWORD_FLAG.matcher(RunInfo.redactInline(text)).replaceAll("$1***");
  }

  public synchronized void line(String text) {
    String l = clean(text);
    terminal.println(l);
    terminal.flush();
    if (file == null) {
      pending.add(l);
      return;
    }
    try {
      file.write(l + "\n");
      file.flush();
    } catch (IOException e) {
      terminal.println("warning: cannot write console.log: " + e.getMessage());
    }
  }

  /** Starts keeping lines in {@code console.log}, beginning with those printed so far. */
  public synchronized void attach(Path consoleLog) throws IOException {
    file = Files.newBufferedWriter(consoleLog, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    for (String l : pending) {
      file.write(l + "\n");
    }
    pending.clear();
    file.flush();
  }

  public synchronized void close() {
    if (file != null) {
      try {
        file.close();
      } catch (IOException ignored) {
        // nothing left to say
      }
      file = null;
    }
  }
}
