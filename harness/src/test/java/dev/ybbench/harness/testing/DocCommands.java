package dev.ybbench.harness.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The commands the README and the docs show for a script: every line of a ```bash block that runs
 * it (after any VAR=value prefixes), with its continuation lines, split into words by bash — its
 * quotes, variables and comments taken as a user's shell takes them — so that a test can run each
 * as written.
 */
public final class DocCommands {
  /** One command: where it is, as written, and the words bash makes of its arguments. */
  public record Command(String page, String text, List<String> args) {
    /** Its arguments as a dry run takes them: --dry-run added unless there, the results in {@code results}. */
    public String[] dryRun(Path results) {
      List<String> all = new ArrayList<>(args);
      if (!all.contains("--dry-run")) {
        all.add("--dry-run");
      }
      all.addAll(List.of("--results-dir", results.toString(), "--no-install"));
      return all.toArray(String[]::new);
    }
  }

  private static final Pattern BLOCK = Pattern.compile("(?s)```bash\\n(.*?)```");

  private DocCommands() {}

  /**
   * @param script  e.g. "run_ycsb.sh"
   * @param replace text replaced before splitting (a doc's example path by a real file)
   * @param env     the variables the examples assume
   */
  public static List<Command> of(Path home, String script, Map<String, String> replace, Map<String, String> env)
      throws IOException, InterruptedException {
    Pattern command = Pattern.compile("(?m)^(?:\\w+=\\S+ )*\\./" + Pattern.quote(script)
        + "((?:[^\\n]*\\\\\\n)*[^\\n]*)$");
    List<Path> pages = new ArrayList<>(List.of(home.resolve("README.md")));
    try (Stream<Path> docs = Files.list(home.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    List<Command> out = new ArrayList<>();
    for (Path page : pages) {
      Matcher block = BLOCK.matcher(Files.readString(page));
      while (block.find()) {
        Matcher m = command.matcher(block.group(1));
        while (m.find()) {
          String rest = m.group(1).replace("\\\n", " ");
          for (Map.Entry<String, String> r : replace.entrySet()) {
            rest = rest.replace(r.getKey(), r.getValue());
          }
          out.add(new Command(page.getFileName().toString(), "./" + script + m.group(1).replace("\\\n", " "),
              words(rest, env)));
        }
      }
    }
    return out;
  }

  private static List<String> words(String rest, Map<String, String> env) throws IOException, InterruptedException {
    ProcessBuilder b = new ProcessBuilder("bash", "-c", "printf '%s\\0' " + rest);
    b.environment().putAll(env);
    Process p = b.start();
    String split = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException("bash could not split: " + rest);
    }
    List<String> out = new ArrayList<>(List.of(split.split("\0")));
    out.removeIf(String::isEmpty);
    return out;
  }
}
