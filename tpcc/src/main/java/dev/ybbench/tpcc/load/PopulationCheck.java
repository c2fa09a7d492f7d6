package dev.ybbench.tpcc.load;

import dev.ybbench.tpcc.core.TpccDatabase;
import dev.ybbench.tpcc.core.TpccSchema;
import dev.ybbench.tpcc.core.WarehouseRange;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * After a load: does every table hold the rows clause 4.3.3.1 prescribes for W warehouses?
 * ORDER_LINE has no fixed count; it must hold exactly the sum of the orders' O_OL_CNT. A client
 * that loads some of the warehouses checks its own, and that the rows it finds are exactly those
 * its loads recorded ({@link WarehouseCheckpoint}): a warehouse written twice or half would show.
 */
public final class PopulationCheck {
  private PopulationCheck() {}

  /** The population problems of {@code range}'s warehouses in {@code db}; empty when they match clause 4.3. */
  public static List<String> run(TpccDatabase db, WarehouseRange range, Long loaded) throws SQLException {
    try (Connection c = db.connect(true)) {
      return run(c, range, loaded);
    }
  }

  /** Expected row count per table for {@code warehouses} warehouses (ORDER_LINE excluded). */
  public static Map<String, Long> expected(int warehouses) {
    long w = warehouses;
    long districts = w * TpccLoader.DISTRICTS_PER_WAREHOUSE;
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("warehouse", w);
    m.put("district", districts);
    m.put("customer", districts * TpccLoader.CUSTOMERS_PER_DISTRICT);
    m.put("history", districts * TpccLoader.CUSTOMERS_PER_DISTRICT);
    m.put("orders", districts * TpccLoader.ORDERS_PER_DISTRICT);
    m.put("new_order", districts * (TpccLoader.ORDERS_PER_DISTRICT - TpccLoader.FIRST_NEW_ORDER + 1));
    m.put("item", (long) TpccLoader.ITEMS);
    m.put("stock", w * TpccLoader.ITEMS);
    return m;
  }

  /** The problems found, one line each; empty when the population is right. */
  public static List<String> run(Connection c, int warehouses) throws SQLException {
    return run(c, new WarehouseRange(1, warehouses, warehouses), null);
  }

  /**
   * The problems of {@code range}'s warehouses (ITEM's too when the range loads it), one line
   * each; with {@code loaded}, also when the rows found are not the rows the loads recorded.
   */
  public static List<String> run(Connection c, WarehouseRange range, Long loaded) throws SQLException {
    List<String> problems = new ArrayList<>();
    long found = 0;
    try (Statement st = c.createStatement()) {
      for (Map.Entry<String, Long> e : expected(range.count()).entrySet()) {
        if (e.getKey().equals("item") && !range.loadsItems()) {
          continue; // another client's
        }
        long actual = scalar(st, "SELECT count(*) FROM " + e.getKey() + where(e.getKey(), range));
        found += actual;
        if (actual != e.getValue()) {
          problems.add(e.getKey() + ": " + actual + " rows, expected " + e.getValue());
        }
      }
      long lines = scalar(st, "SELECT count(*) FROM order_line" + where("order_line", range));
      long declared = scalar(st, "SELECT coalesce(sum(o_ol_cnt), 0) FROM orders" + where("orders", range));
      found += lines;
      if (lines != declared) {
        problems.add("order_line: " + lines + " rows, but the orders' o_ol_cnt add up to " + declared);
      }
    }
    if (loaded != null && found != loaded) {
      problems.add("the tables hold " + found + " rows of warehouses " + range + (range.loadsItems() ? " and ITEM" : "")
          + ", the loads recorded " + loaded);
    }
    return problems;
  }

  /** The range's rows of {@code table}: all of them when the range is the whole database. */
  private static String where(String table, WarehouseRange range) {
    if (range.isWhole()) {
      return "";
    }
    String column = TpccSchema.TABLES.stream().filter(t -> t.name().equals(table)).findFirst().orElseThrow()
        .warehouseColumn();
    return column == null ? "" : " WHERE " + column + " BETWEEN " + range.first() + " AND " + range.last();
  }

  static long scalar(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
