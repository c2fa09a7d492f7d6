package dev.ybbench.harness.ysql;

import dev.ybbench.harness.UserError;
import java.util.List;

/**
 * How YugabyteDB pre-splits a new table: not at all (the server's default), into a number of
 * tablets ({@code SPLIT INTO n TABLETS}, for a hashed key), or at key values ({@code SPLIT AT
 * VALUES}, for a range key: YSQL cannot split a range-sharded table by count). PostgreSQL has no
 * tablets and takes neither.
 *
 * @param tablets the tablets to split into, or 0
 * @param at      the split points as SQL literals, in ascending key order, or none
 */
public record TableSplit(int tablets, List<String> at) {
  public static final TableSplit NONE = new TableSplit(0, List.of());

  public TableSplit {
    at = List.copyOf(at);
    if (tablets < 0 || tablets > 0 && !at.isEmpty()) {
      throw new IllegalArgumentException("a table splits into tablets or at values, not both");
    }
  }

  /** Into {@code tablets} tablets (0: the server's default). */
  public static TableSplit into(int tablets) {
    return tablets == 0 ? NONE : new TableSplit(tablets, List.of());
  }

  /**
   * At text key values, each a split point where a tablet begins.
   *
   * @param what how the user gave them, for the error
   * @throws UserError unless they ascend strictly (YSQL refuses split points out of key order)
   */
  public static TableSplit atText(List<String> values, String what) {
    for (int i = 1; i < values.size(); i++) {
      // YSQL orders an ASC text key by its bytes: for ASCII that is String's order.
      if (values.get(i - 1).compareTo(values.get(i)) >= 0) {
        throw new UserError(what + " must ascend without repeats; '" + values.get(i - 1) + "' comes before '"
            + values.get(i) + "'");
      }
    }
    return new TableSplit(0, values.stream().map(v -> "'" + v.replace("'", "''") + "'").toList());
  }

  /** At whole-number key values, ascending (callers make them so). */
  public static TableSplit atNumbers(List<Long> values) {
    return new TableSplit(0, values.stream().map(String::valueOf).toList());
  }

  public boolean none() {
    return tablets == 0 && at.isEmpty();
  }

  /** The clause after {@code CREATE TABLE …(…)} on YugabyteDB, or "" for none. */
  String clause() {
    if (tablets > 0) {
      return " SPLIT INTO " + tablets + " TABLETS";
    }
    if (!at.isEmpty()) {
      return " SPLIT AT VALUES (" + String.join(", ", at.stream().map(v -> "(" + v + ")").toList()) + ")";
    }
    return "";
  }
}
