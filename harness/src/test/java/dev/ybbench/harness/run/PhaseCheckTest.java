package dev.ybbench.harness.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ybbench.harness.results.LatencyPercentiles;
import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a phase's figures cannot stand, with the exact reason a user reads. */
class PhaseCheckTest {
  private static final PhaseCheck.Limits LIMITS = PhaseCheck.Limits.DEFAULT;

  private static OperationResult op(long ok, Map<String, Long> errors) {
    long failed = errors.values().stream().mapToLong(Long::longValue).sum();
    return new OperationResult(ok, failed, errors, 0, ok / 10.0, new LatencyPercentiles(ok, null, null, null, null, null, null,
        null, null));
  }

  private static PhaseResult phase(double seconds, List<PhaseResult.Outage> outages, Object... nameAndOp) {
    Map<String, OperationResult> ops = new LinkedHashMap<>();
    for (int i = 0; i < nameAndOp.length; i += 2) {
      ops.put((String) nameAndOp[i], (OperationResult) nameAndOp[i + 1]);
    }
    return PhaseResult.ofOperations(ops, seconds, outages);
  }

  @Test
  void aHealthyPhaseStands() {
    assertNull(PhaseCheck.problem("run", phase(10, List.of(), "READ", op(99_000, Map.of("sqlstate-40001", 990L))),
        LIMITS));
  }

  @Test
  void noSuccessAtAll() {
    assertEquals("no successful operation in the run phase (1200 failed: sqlstate-42P01 1000, connection 200)",
        PhaseCheck.problem("run", phase(10, List.of(), "READ", op(0, Map.of("sqlstate-42P01", 1000L)),
            "UPDATE", op(0, Map.of("connection", 200L))), LIMITS));
    assertEquals("no operation completed in the run phase",
        PhaseCheck.problem("run", phase(10, List.of(), "READ", op(0, Map.of())), LIMITS));
  }

  @Test
  void tooManyErrors() {
    assertEquals("19.0 % of the run phase's operations failed (190 of 1000: connection 190), above --max-error-pct 1",
        PhaseCheck.problem("run", phase(10, List.of(), "READ", op(810, Map.of("connection", 190L))), LIMITS));
    // 1 % exactly is within the limit.
    assertNull(PhaseCheck.problem("run", phase(10, List.of(), "READ", op(990, Map.of("connection", 10L))), LIMITS));
  }

  /** Conflicts that outlasted their retries are aborts: counted apart, judged by their own limit. */
  @Test
  void abortsAreNotErrorsAndHaveTheirOwnLimit() {
    PhaseResult delivery = phase(10, List.of(), "Delivery", op(700, Map.of("connection", 5L))
        .withAborts(Map.of("sqlstate-40001", 295L)));
    assertEquals(295, delivery.aborts());
    assertEquals(5, delivery.errors());
    assertEquals(1000, delivery.operations().get("Delivery").attempts());
    // 29.5 % aborted and 0.5 % failed: within the default 50 % and 1 %.
    assertNull(PhaseCheck.problem("execute", delivery, LIMITS));
    assertEquals("29.5 % of the execute phase's operations aborted on conflicts after their retries (295 of 1000: "
        + "sqlstate-40001 295), above --max-abort-pct 20",
        PhaseCheck.problem("execute", delivery, new PhaseCheck.Limits(1, 10, 20)));
    // Errors are still errors beside aborts, and they are judged first.
    assertEquals("0.5 % of the execute phase's operations failed (5 of 1000: connection 5), above --max-error-pct 0.1",
        PhaseCheck.problem("execute", delivery, new PhaseCheck.Limits(0.1, 10, 20)));
    assertEquals("no successful operation in the execute phase (5 failed: connection 5; 95 aborted: sqlstate-40001 "
        + "95)", PhaseCheck.problem("execute", phase(10, List.of(), "Delivery", op(0, Map.of("connection", 5L))
            .withAborts(Map.of("sqlstate-40001", 95L))), LIMITS));
  }

  @Test
  void readsThatMostlyFindNothing() {
    assertEquals("most READ operations of the run phase found no row (900 of 1000): the table holds fewer records "
        + "than the workload's recordcount; load it (--phase load or both) or lower --records",
        PhaseCheck.problem("run", phase(10, List.of(), "READ", op(100, Map.of("NOT_FOUND", 900L))), LIMITS));
  }

  @Test
  void aServerGoneForMuchOfTheWindow() {
    PhaseResult p = phase(30, List.of(new PhaseResult.Outage(5, 4), new PhaseResult.Outage(20, 2.5)),
        "READ", op(100_000, Map.of("connection", 50L)));
    assertEquals("the server was unreachable for 6.5 s of the run phase's 30.0 s (22 %), above --max-outage-pct 10",
        PhaseCheck.problem("run", p, LIMITS));
    assertNull(PhaseCheck.problem("run", p, new PhaseCheck.Limits(1, 25, 50)));
  }

  @Test
  void aLoadMeasuredInRowsStandsUnlessItsPopulationCheckFailed() {
    assertNull(PhaseCheck.problem("load", PhaseResult.ofRows(1000, 2, "population", "pass"), LIMITS));
    assertNull(PhaseCheck.problem("load", PhaseResult.ofRows(1000, 2, null, null), LIMITS), "no check, nothing failed");
    assertEquals("the population check failed after the load phase: stock has 99999 rows, expected 100000",
        PhaseCheck.problem("load", PhaseResult.ofRows(1000, 2, "population", "stock has 99999 rows, expected 100000"),
            LIMITS));
  }
}
