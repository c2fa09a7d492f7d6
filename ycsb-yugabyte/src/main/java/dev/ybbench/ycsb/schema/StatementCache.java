package dev.ybbench.ycsb.schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Each operation's statement text per field set, built once per binding thread, so that an
 * operation finds its statement without building or sorting anything: YCSB's defaults — every
 * field read or scanned ({@code readallfields=true} passes no field set), one field updated
 * ({@code writeallfields=false}) — by a field or a name lookup; other field sets by their set.
 * Fields always appear in name order, the order the bindings bind them in.
 */
public final class StatementCache {
  private final TableStatements schema;
  private final String readAll;
  private final String scanAll;
  private final Map<String, String> updateOne = new HashMap<>();
  private final Map<Object, String> byFields = new HashMap<>();

  public StatementCache(TableStatements schema) {
    this.schema = schema;
    this.readAll = schema.read(List.of());
    this.scanAll = schema.scan(List.of());
  }

  /** The read of {@code fields}, or of every field when null. */
  public String read(Set<String> fields) {
    return fields == null ? readAll : byFields.computeIfAbsent(List.of("READ", fields), k -> schema.read(sorted(fields)));
  }

  /** The scan of {@code fields}, or of every field when null. */
  public String scan(Set<String> fields) {
    return fields == null ? scanAll : byFields.computeIfAbsent(List.of("SCAN", fields), k -> schema.scan(sorted(fields)));
  }

  /** The update of one field. */
  public String update(String field) {
    return updateOne.computeIfAbsent(field, f -> schema.update(List.of(f)));
  }

  /** The update of several fields, {@code sortedFields} in name order (the order their values are bound in). */
  public String update(Set<String> sortedFields) {
    return byFields.computeIfAbsent(List.of("UPDATE", sortedFields), k -> schema.update(new ArrayList<>(sortedFields)));
  }

  private static List<String> sorted(Set<String> fields) {
    return new ArrayList<>(new TreeSet<>(fields));
  }
}
