package dev.ybbench.harness.cli;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A command line printed so that it can be pasted into a POSIX shell and mean what it says: each
 * word that holds anything a shell would read (a space, {@code &}, {@code ;}, {@code $}, quotes,
 * globs …) in single quotes, a single quote within as {@code '\''}.
 */
public final class ShellWords {
  /** Words a shell passes through unchanged: no quoting needed. */
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  private ShellWords() {}

  /** One word as a shell must be given it. */
  public static String quote(String word) {
    if (!word.isEmpty() && PLAIN.matcher(word).matches()) {
      return word;
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }

  /** The words joined by spaces, each quoted as it needs. */
  public static String join(List<String> words) {
    StringBuilder s = new StringBuilder();
    for (String w : words) {
      if (!s.isEmpty()) {
        s.append(' ');
      }
      s.append(quote(w));
    }
    return s.toString();
  }
}
