package dev.ybbench.tpcc.load;

import dev.ybbench.tpcc.core.TpccDatabase;
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
 * ORDER_LINE has no fixed count; it must hold exactly the sum of the orders' O_OL_CNT.
 */
public final class PopulationCheck {
  private PopulationCheck() {}

  /** The population problems of {@code db}'s first {@code warehouses} warehouses; empty when it matches clause 4.3. */
  public static List<String> run(TpccDatabase db, int warehouses) throws SQLException {
    try (Connection c = db.connect(true)) {
      return run(c, warehouses);
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
    List<String> problems = new ArrayList<>();
    try (Statement st = c.createStatement()) {
      for (Map.Entry<String, Long> e : expected(warehouses).entrySet()) {
        long actual = scalar(st, "SELECT count(*) FROM " + e.getKey());
        if (actual != e.getValue()) {
          problems.add(e.getKey() + ": " + actual + " rows, expected " + e.getValue());
        }
      }
      long lines = scalar(st, "SELECT count(*) FROM order_line");
      long declared = scalar(st, "SELECT coalesce(sum(o_ol_cnt), 0) FROM orders");
      if (lines != declared) {
        problems.add("order_line: " + lines + " rows, but the orders' o_ol_cnt add up to " + declared);
      }
    }
    return problems;
  }

  static long scalar(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
