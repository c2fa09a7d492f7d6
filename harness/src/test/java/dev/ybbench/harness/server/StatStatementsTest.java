package dev.ybbench.harness.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Types;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The statements query asks for the columns each server's pg_stat_statements has. YugabyteDB's
 * column lists are its own extension's, in order, from yugabyte-db:
 * {@code src/postgres/contrib/pg_stat_statements/pg_stat_statements--1.6--1.6-yb-1.0.sql} @ d035222
 * (its PostgreSQL 11.2 base, every release before 2.25) and {@code pg_stat_statements--1.10-yb-1.0.sql}
 * @ 329515e (its 15 base).
 */
class StatStatementsTest {
  private static final String WHERE = " FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database "
      + "WHERE datname = current_database())";

  static final List<String> YUGABYTE_1_6 = List.of("userid", "dbid", "queryid", "query", "calls", "total_time",
      "min_time", "max_time", "mean_time", "stddev_time", "rows", "shared_blks_hit", "shared_blks_read",
      "shared_blks_dirtied", "shared_blks_written", "local_blks_hit", "local_blks_read", "local_blks_dirtied",
      "local_blks_written", "temp_blks_read", "temp_blks_written", "blk_read_time", "blk_write_time",
      "yb_latency_histogram");
  static final List<String> YUGABYTE_1_10 = List.of("userid", "dbid", "toplevel", "queryid", "query", "plans",
      "total_plan_time", "min_plan_time", "max_plan_time", "mean_plan_time", "stddev_plan_time", "calls",
      "total_exec_time", "min_exec_time", "max_exec_time", "mean_exec_time", "stddev_exec_time", "rows",
      "shared_blks_hit", "shared_blks_read", "shared_blks_dirtied", "shared_blks_written", "local_blks_hit",
      "local_blks_read", "local_blks_dirtied", "local_blks_written", "temp_blks_read", "temp_blks_written",
      "blk_read_time", "blk_write_time", "temp_blk_read_time", "temp_blk_write_time", "wal_records", "wal_fpi",
      "wal_bytes", "jit_functions", "jit_generation_time", "jit_inlining_count", "jit_inlining_time",
      "jit_optimization_count", "jit_optimization_time", "jit_emission_count", "jit_emission_time",
      "yb_latency_histogram");

  /**
   * The columns with the JDBC types pgjdbc reports for pg_stat_statements' (oid and bigint as
   * BIGINT, numeric as NUMERIC, double precision as DOUBLE, text, boolean, jsonb).
   */
  static Map<String, Integer> typed(List<String> names) {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (String n : names) {
      out.put(n, switch (n) {
        case "query" -> Types.VARCHAR;
        case "toplevel" -> Types.BIT;
        case "yb_latency_histogram" -> Types.OTHER;
        case "wal_bytes" -> Types.NUMERIC;
        default -> n.endsWith("_time") ? Types.DOUBLE : Types.BIGINT;
      });
    }
    return out;
  }

  private static final String WORK_11 = "shared_blks_dirtied, shared_blks_written, local_blks_hit, local_blks_read, "
      + "local_blks_dirtied, local_blks_written, temp_blks_read, temp_blks_written, blk_read_time, blk_write_time";

  @Test
  void yugabyteDbBefore225HasTotalTimeAndItsHistogram() {
    StatStatements s = StatStatements.of(typed(YUGABYTE_1_6));
    assertEquals("SELECT query, calls, rows, total_time, shared_blks_hit, shared_blks_read, yb_latency_histogram, "
        + WORK_11 + ", queryid" + WHERE, s.query());
    assertEquals("pg_stat_statements (total_time, shared blocks, yb_latency_histogram, 10 work counters)",
        s.describe());
  }

  @Test
  void yugabyteDbOnItsPostgres15BaseHasTotalExecTimeAndItsHistogram() {
    assertEquals("SELECT query, calls, rows, total_exec_time, shared_blks_hit, shared_blks_read, "
        + "yb_latency_histogram, plans, total_plan_time, " + WORK_11 + ", temp_blk_read_time, temp_blk_write_time, "
        + "wal_records, wal_fpi, wal_bytes, jit_functions, jit_generation_time, jit_inlining_count, "
        + "jit_inlining_time, jit_optimization_count, jit_optimization_time, jit_emission_count, jit_emission_time, "
        + "queryid" + WHERE, StatStatements.of(typed(YUGABYTE_1_10)).query());
  }

  @Test
  void postgres11And12HaveTotalTime13AndLaterTotalExecTime() {
    List<String> pg11 = YUGABYTE_1_6.subList(0, YUGABYTE_1_6.size() - 1);
    assertEquals("SELECT query, calls, rows, total_time, shared_blks_hit, shared_blks_read, " + WORK_11
        + ", queryid" + WHERE, StatStatements.of(typed(pg11)).query());
    List<String> pg13 = YUGABYTE_1_10.subList(0, YUGABYTE_1_10.size() - 1);
    assertTrue(StatStatements.of(typed(pg13)).query().startsWith("SELECT query, calls, rows, total_exec_time, "
        + "shared_blks_hit, shared_blks_read, plans, total_plan_time, shared_blks_dirtied"));
  }

  /**
   * YugabyteDB's view with its storage work (1.10-yb-2.0: the OUT parameters of its upgrade
   * script, read from the script itself), each SQL type as pgjdbc reports it: every docdb counter
   * and retry count is read as work; the ids, the text, the histogram and the min/max/mean/stddev are not.
   */
  @Test
  void yugabyteDbsStorageWorkColumnsAreReadAsWork() throws Exception {
    String script;
    try (var in = StatStatementsTest.class.getResourceAsStream("pg_stat_statements--1.10-yb-1.0--1.10-yb-2.0.sql")) {
      script = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    Map<String, Integer> columns = new LinkedHashMap<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("OUT (\\w+) (\\w+)").matcher(script);
    while (m.find()) {
      columns.put(m.group(1), switch (m.group(2)) {
        case "oid", "int8", "bigint" -> Types.BIGINT;
        case "float8" -> Types.DOUBLE;
        case "numeric" -> Types.NUMERIC;
        case "bool" -> Types.BIT;
        case "text" -> Types.VARCHAR;
        default -> Types.OTHER; // jsonb
      });
    }
    assertEquals(55, columns.size(), columns.toString());
    String query = StatStatements.of(columns).query();
    assertTrue(query.contains(", yb_latency_histogram, plans, total_plan_time, "), query);
    assertTrue(query.contains(", jit_emission_time, docdb_read_rpcs, docdb_write_rpcs, catalog_wait_time, "
        + "docdb_read_operations, docdb_write_operations, docdb_rows_scanned, docdb_rows_returned, docdb_wait_time, "
        + "conflict_retries, read_restart_retries, total_retries, queryid FROM "), query);
    assertFalse(query.contains("mean_exec_time") || query.contains("toplevel") || query.contains("userid"), query);
  }

  @Test
  void aViewWithoutWhatARecordNeedsIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> StatStatements.of(typed(List.of("query", "total_time", "dbid"))));
    assertEquals("pg_stat_statements has no column calls, rows", e.getMessage());
    assertEquals("SELECT query, calls, rows" + WHERE, StatStatements.of(typed(List.of("query", "calls", "rows",
        "dbid"))).query());
  }
}
