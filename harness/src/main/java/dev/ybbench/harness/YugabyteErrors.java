package dev.ybbench.harness;

import java.util.List;
import java.util.Locale;

/**
 * The texts by which YugabyteDB says "this attempt lost a race; the same request may succeed if
 * sent again": transaction conflicts, read restarts, expired or aborted transactions, catalog
 * or schema version changes. YSQL usually also gives SQLSTATE 40001, but older releases and some
 * paths carry only the storage layer's text (under XX000), and YCQL only ever gives the text.
 */
public final class YugabyteErrors {
  private static final List<String> RETRYABLE_TEXT = List.of(
      "try again",
      "restart read required",
      "conflicts with higher priority transaction",
      "conflicts with committed transaction",
      "transaction aborted",
      "transaction expired",
      "unknown transaction",
      "transaction metadata missing",
      "catalog version mismatch",
      "schema version mismatch",
      "could not serialize access");

  private YugabyteErrors() {}

  /** True if the message (or any cause's) names a retryable YugabyteDB condition. */
  public static boolean isRetryable(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (isRetryableMessage(t.getMessage())) {
        return true;
      }
    }
    return false;
  }

  public static boolean isRetryableMessage(String message) {
    if (message == null) {
      return false;
    }
    String lower = message.toLowerCase(Locale.ROOT);
    return RETRYABLE_TEXT.stream().anyMatch(lower::contains);
  }
}
