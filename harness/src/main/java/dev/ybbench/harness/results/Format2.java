package dev.ybbench.harness.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Results format 2 (summary.json before a phase named its own headline) read as format 3, so a run
 * directory or a history of the earlier format still compares, merges and imports. What every
 * phase had moves here; a benchmark's own fields (TPC-C's tpmC, sysbench's queries) move by its
 * own upgrade first (the plug-in's {@code upgradeFormat2}), else they stay among the phase's
 * extensions under their old names, and the phase's headline is its throughput.
 */
public final class Format2 {
  public static final int FORMAT = 2;

  private Format2() {}

  /** The summary, changed in place: format 3's names for format 2's common fields. */
  static JsonNode upgrade(ObjectNode summary) {
    summary.put("format", RunSummary.FORMAT);
    for (Iterator<Map.Entry<String, JsonNode>> it = summary.path("phases").fields(); it.hasNext(); ) {
      if (it.next().getValue() instanceof ObjectNode phase) {
        move(phase, "queries_on_tables", phase, "audited_statements");
        if (phase.has("population_check")) {
          phase.putObject("checks").set("population", phase.remove("population_check"));
        }
      }
    }
    return summary;
  }

  /** Moves {@code from.name} to {@code to.as}, where it is there; for a benchmark's own upgrade too. */
  public static void move(ObjectNode from, String name, ObjectNode to, String as) {
    if (from.has(name)) {
      to.set(as, from.remove(name));
    }
  }
}
