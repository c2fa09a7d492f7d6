package dev.ybbench.harness.server;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The tables whose statements the server's counts are audited against the benchmark's: YCSB's one
 * usertable, sysbench's sbtest1 … sbtestN.
 */
public record AuditedTables(List<String> names) {
  public AuditedTables {
    if (names.isEmpty()) {
      throw new IllegalArgumentException("no table to audit");
    }
    names = List.copyOf(names);
  }

  public static AuditedTables of(String table) {
    return new AuditedTables(List.of(table));
  }

  /** A statement names one of the tables: a word of its text. */
  Pattern pattern() {
    return Pattern.compile("\\b(?:" + String.join("|", names.stream().map(Pattern::quote).toList()) + ")\\b",
        Pattern.CASE_INSENSITIVE);
  }

  /** "usertable", or "sbtest1 … sbtest10" for several. */
  @Override
  public String toString() {
    return names.size() == 1 ? names.get(0) : names.get(0) + " … " + names.get(names.size() - 1);
  }
}
