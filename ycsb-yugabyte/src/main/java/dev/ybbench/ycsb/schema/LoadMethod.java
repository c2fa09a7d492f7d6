package dev.ybbench.ycsb.schema;

import dev.ybbench.harness.UserError;

/**
 * How a batch of inserted rows is written: one {@code COPY … FROM STDIN} (the default, the bulk
 * path of PostgreSQL and YSQL alike) or one multi-row INSERT (a JDBC batch the driver rewrites),
 * each in one transaction. A batch size of 1 writes one INSERT per row either way.
 */
public enum LoadMethod {
  COPY, INSERT;

  /** The method named by {@code --load-method} or the property {@code ysql.load_method}, or a one-line error. */
  public static LoadMethod named(String name) {
    return switch (name.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "copy" -> COPY;
      case "insert" -> INSERT;
      default -> throw new UserError("Unknown load method '" + name + "'; use copy or insert");
    };
  }
}
