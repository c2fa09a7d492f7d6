package dev.ybbench.sysbench.core;

import dev.ybbench.harness.UserError;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OLTP tests sysbench 1.0.20 ships (Debian's package, /usr/share/sysbench), what each runs per
 * event, and the options its Lua script declares (oltp_common.lua's for all, a few of their own).
 * ybbench creates and loads their tables; sysbench runs them.
 */
public final class SysbenchTests {
  private SysbenchTests() {}

  /**
   * A test.
   *
   * @param event       what one event (sysbench's transaction) runs, for the plan
   * @param firstTable  whether it reads sbtest1 alone, whatever --tables says (select_random_*)
   * @param begins      whether an event is BEGIN … COMMIT (unless --skip_trx)
   * @param ownOptions  options its script adds to oltp_common.lua's, with their defaults
   */
  public record Test(String name, String event, boolean firstTable, boolean begins, Map<String, String> ownOptions) {}

  /** oltp_common.lua's options and defaults, but --tables and --table-size (flags of ybbench's own). */
  public static final Map<String, String> COMMON_OPTIONS = ordered(
      "range_size", "100", "point_selects", "10", "simple_ranges", "1", "sum_ranges", "1", "order_ranges", "1",
      "distinct_ranges", "1", "index_updates", "1", "non_index_updates", "1", "delete_inserts", "1",
      "range_selects", "on", "auto_inc", "on", "skip_trx", "off", "create_secondary", "on");

  /**
   * oltp_common.lua's options that cannot apply to the tables ybbench creates over YSQL, and why.
   */
  public static final Map<String, String> REFUSED_OPTIONS = ordered(
      "secondary", "is MySQL's (KEY xid in place of the primary key); sysbench's pgsql tables keep their primary key",
      "mysql_storage_engine", "is MySQL's; ybbench runs sysbench over YSQL (pgsql)",
      "pgsql_variant", "has no effect in sysbench 1.0.20 (its script tests a global, not the option)");

  private static final Map<String, Test> TESTS = new LinkedHashMap<>();

  static {
    String reads = "10 point selects, a simple, sum, order and distinct range of 100 ids";
    String writes = "an index update, a non-index update, a delete and an insert of the same id";
    add("oltp_read_only", "BEGIN; " + reads + "; COMMIT", true);
    add("oltp_read_write", "BEGIN; " + reads + "; " + writes + "; COMMIT", true);
    add("oltp_write_only", "BEGIN; " + writes + "; COMMIT", true);
    add("oltp_point_select", "one point select by id", false);
    add("oltp_insert", "one INSERT (a new id from the table's sequence, or with --auto_inc=off a unique one)",
        false);
    add("oltp_update_index", "one UPDATE of the indexed column k by id", false);
    add("oltp_update_non_index", "one UPDATE of the column c by id", false);
    add("oltp_delete", "one DELETE by id (rows are not put back)", false);
    TESTS.put("select_random_points", new Test("select_random_points", "one SELECT of 10 random k values (IN) "
        + "on sbtest1, through the index on k", true, false, ordered("random_points", "10")));
    TESTS.put("select_random_ranges", new Test("select_random_ranges", "one count(k) over 10 random k ranges "
        + "(BETWEEN … OR …) of sbtest1", true, false, ordered("number_of_ranges", "10", "delta", "5")));
  }

  private static void add(String name, String event, boolean begins) {
    TESTS.put(name, new Test(name, event, false, begins, Map.of()));
  }

  public static List<String> names() {
    return List.copyOf(TESTS.keySet());
  }

  /** The test by name; an unknown one is refused with the list, and the fork's own named as such. */
  public static Test named(String name) {
    Test t = TESTS.get(name);
    if (t != null) {
      return t;
    }
    String fork = List.of("oltp_multi_insert", "oltp_multi_value_insert", "oltp_index_scan", "oltp_join",
        "oltp_primarykey_scan", "oltp_sequential_scan", "oltp_simple_ranges", "oltp_sum_scan", "select_one",
        "idleconnection").contains(name) ? " (" + name + " is yugabyte/sysbench's, which Debian's sysbench does not "
        + "ship)" : "";
    throw new UserError("Unknown sysbench test '" + name + "'" + fork + "; use one of " + String.join(", ", names()));
  }

  /** Every option the test's script declares, with its default. */
  public static Map<String, String> options(Test test) {
    Map<String, String> all = new LinkedHashMap<>(COMMON_OPTIONS);
    all.putAll(test.ownOptions());
    return all;
  }

  private static Map<String, String> ordered(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(m);
  }
}
