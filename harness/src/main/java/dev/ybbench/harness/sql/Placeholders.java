package dev.ybbench.harness.sql;

import java.util.function.IntFunction;

/** JDBC's {@code ?} parameters in a statement's text, found outside quoted strings and names. */
public final class Placeholders {
  private Placeholders() {}

  /** {@code sql} with its n-th {@code ?} (from 0) outside quotes replaced by {@code nth.apply(n)}. */
  public static String replace(String sql, IntFunction<String> nth) {
    StringBuilder out = new StringBuilder(sql.length() + 16);
    int n = 0;
    char quote = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '?') {
        out.append(nth.apply(n++));
        continue;
      }
      out.append(c);
    }
    return out.toString();
  }
}
