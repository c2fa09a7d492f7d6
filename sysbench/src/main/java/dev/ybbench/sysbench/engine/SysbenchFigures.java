package dev.ybbench.sysbench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ybbench.harness.results.Format2;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import java.util.Iterator;
import java.util.Map;

/**
 * sysbench's own figures of a phase, under "sysbench" in summary.json: its queries by kind (read,
 * write, other), counted but not timed one by one. Those on the benchmark's tables are the
 * phase's audited statements, which the server's count is audited against.
 */
public record SysbenchFigures(Map<String, OperationResult> queries) {
  public static final String KEY = "sysbench";

  /** The phase with its queries, and the statements on the tables among them. */
  public static PhaseResult with(PhaseResult p, Map<String, OperationResult> queries, long onTables) {
    return p.toBuilder().extension(KEY, new SysbenchFigures(queries)).auditedStatements(onTables).build();
  }

  /** The phase's queries by kind; none where it has none. */
  public static Map<String, OperationResult> queries(PhaseResult p) {
    SysbenchFigures f = p.extension(KEY, SysbenchFigures.class);
    return f == null || f.queries() == null ? Map.of() : f.queries();
  }

  /** Format 2 kept the queries among the common fields: they move under "sysbench". */
  public static void upgradeFormat2(ObjectNode summary) {
    for (Iterator<Map.Entry<String, JsonNode>> it = summary.path("phases").fields(); it.hasNext(); ) {
      if (it.next().getValue() instanceof ObjectNode phase && phase.has("queries")) {
        ObjectNode own = phase.putObject(KEY);
        Format2.move(phase, "queries", own, "queries");
      }
    }
  }
}
