package dev.ybbench.harness.cli;

import dev.ybbench.harness.UserError;
import java.io.PrintStream;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * How every entry point parses and reports: a bad flag or a {@link UserError} is one line on
 * stderr and exit code 2; anything else is one line and exit code 1, with the stack trace only
 * under --verbose.
 */
public final class CommandLines {
  private CommandLines() {}

  /**
   * @param command a picocli command
   * @param clean   hides secrets in messages
   * @param verbose whether --verbose was given (read after parsing)
   */
  public static int execute(Object command, String[] args, PrintStream err, UnaryOperator<String> clean,
      BooleanSupplier verbose) {
    return execute(new CommandLine(command), args, err, clean, verbose);
  }

  /** As the method above, for a command line the caller has set up (e.g. its unmatched words kept). */
  public static int execute(CommandLine cl, String[] args, PrintStream err, UnaryOperator<String> clean,
      BooleanSupplier verbose) {
    cl.setParameterExceptionHandler((ex, a) -> {
      err.println("error: " + clean.apply(message(ex)) + " (see --help)");
      return 2;
    });
    cl.setExecutionExceptionHandler((ex, c, parsed) -> {
      boolean user = ex instanceof UserError;
      String msg = ex.getMessage() != null ? ex.getMessage() : ex.toString();
      err.println("error: " + clean.apply(msg)
          + (user || verbose.getAsBoolean() ? "" : " (--verbose shows the stack trace)"));
      if (verbose.getAsBoolean()) {
        ex.printStackTrace(err);
      }
      return user ? 2 : 1;
    });
    return cl.execute(args);
  }

  /**
   * picocli's message, said in the user's terms where picocli's own reads badly: an unknown
   * option named alone (not the value after it) with the likeliest options it was meant to be.
   */
  static String message(CommandLine.ParameterException ex) {
    if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
      List<String> unmatched = u.getUnmatched();
      List<String> options = unmatched.stream().filter(w -> w.startsWith("-") && w.length() > 1).toList();
      List<String> named = options.isEmpty() ? unmatched : options.subList(0, 1);
      String what = (options.isEmpty() ? "unexpected argument" + (named.size() == 1 ? "" : "s") : "unknown option")
          + " " + String.join(" ", named.stream().map(w -> "'" + w + "'").toList());
      List<String> like = options.isEmpty() ? List.of()
          : nearest(options.get(0), u.getCommandLine().getCommandSpec().optionsMap().keySet());
      return like.isEmpty() ? what : what + "; did you mean " + String.join(" or ", like) + "?";
    }
    Matcher pair = KEY_VALUE.matcher(String.valueOf(ex.getMessage()));
    if (pair.matches()) { // picocli: "Value for option option '-p' (KEY=VALUE) should be in KEY=VALUE format but was x"
      return pair.group(1) + " " + pair.group(2) + " has no value: give " + pair.group(1) + " " + pair.group(2)
          + "=VALUE";
    }
    return String.valueOf(ex.getMessage());
  }

  private static final Pattern KEY_VALUE = Pattern.compile(
      "Value for option (?:option )?'([^']+)' \\([^)]*\\) should be in KEY=VALUE format but was (.*)");

  /**
   * The known names nearest to a misspelt one (at most 2 edits, or a quarter of its length), in
   * order; none for a name of one or two letters, whose every neighbour would be as near.
   */
  static List<String> nearest(String given, java.util.Collection<String> known) {
    if (given.replaceFirst("^-+", "").length() < 3) {
      return List.of();
    }
    int most = Math.max(2, given.length() / 4);
    java.util.TreeMap<Integer, List<String>> byDistance = new java.util.TreeMap<>();
    for (String k : known) {
      int d = distance(given, k);
      if (d <= most && k.startsWith("--") == given.startsWith("--")) {
        byDistance.computeIfAbsent(d, x -> new java.util.ArrayList<>()).add(k);
      }
    }
    return byDistance.isEmpty() ? List.of() : byDistance.firstEntry().getValue().stream().sorted().limit(3).toList();
  }

  /** Levenshtein's edit distance. */
  static int distance(String a, String b) {
    int[] row = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      row[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      int diagonal = row[0];
      row[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int above = row[j];
        int replace = diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1), replace);
        diagonal = above;
      }
    }
    return row[b.length()];
  }
}
