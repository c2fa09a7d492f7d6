package dev.ybbench.tpcc.check;

import dev.ybbench.harness.sql.Cancel;
import dev.ybbench.tpcc.core.TpccDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The consistency conditions of clause 3.3.2, each a query that returns the rows breaking it
 * (warehouse first), so a pass is an empty answer and a failure names where it broke. They hold
 * after the initial load and after any run with no transaction in flight.
 */
public final class ConsistencyChecks {
  /**
   * One condition.
   *
   * @param clause    its number in the spec, e.g. "3.3.2.1"
   * @param statement what must hold
   * @param violations SQL returning (warehouse, district or null, detail) for every row that breaks it
   */
  public record Condition(String clause, String statement, String violations) {}

  /** A condition's outcome: passed, or the first offending warehouse and district and the count. */
  public record Result(Condition condition, boolean passed, long violations, String firstOffender) {
    @Override
    public String toString() {
      return condition.clause() + " " + (passed ? "pass" : "FAIL") + ": " + condition.statement()
          + (passed ? "" : " (" + violations + " violations; first: " + firstOffender + ")");
    }
  }

  /** Joins each customer (alias c) to the amount of their delivered order lines (d.s). */
  private static final String DELIVERED_PER_CUSTOMER = "LEFT JOIN (SELECT o.o_w_id, o.o_d_id, o.o_c_id, "
      + "sum(ol.ol_amount) AS s FROM orders o JOIN order_line ol ON ol.ol_w_id = o.o_w_id AND ol.ol_d_id = o.o_d_id "
      + "AND ol.ol_o_id = o.o_id WHERE ol.ol_delivery_d IS NOT NULL GROUP BY o.o_w_id, o.o_d_id, o.o_c_id) d "
      + "ON d.o_w_id = c.c_w_id AND d.o_d_id = c.c_d_id AND d.o_c_id = c.c_id";

  /**
   * Conditions 3.3.2.1–3.3.2.10 and 3.3.2.12. 3.3.2.11 (count(ORDER) − count(NEW_ORDER) = 2100
   * per district) is left out: it describes the initial population, and every delivery since
   * moves it by one.
   */
  public static final List<Condition> CONDITIONS = List.of(
      new Condition("3.3.2.1", "W_YTD = sum(D_YTD) for each warehouse",
          "SELECT w.w_id, NULL, w.w_ytd || ' vs ' || s.ytd FROM warehouse w JOIN "
              + "(SELECT d_w_id, sum(d_ytd) AS ytd FROM district GROUP BY d_w_id) s ON s.d_w_id = w.w_id "
              + "WHERE w.w_ytd <> s.ytd ORDER BY 1"),
      new Condition("3.3.2.2", "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) for each district",
          "SELECT d.d_w_id, d.d_id, (d.d_next_o_id - 1) || ' vs ' || o.m || ' vs ' || coalesce(n.m, -1) "
              + "FROM district d "
              + "JOIN (SELECT o_w_id, o_d_id, max(o_id) AS m FROM orders GROUP BY o_w_id, o_d_id) o "
              + "ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id "
              + "LEFT JOIN (SELECT no_w_id, no_d_id, max(no_o_id) AS m FROM new_order GROUP BY no_w_id, no_d_id) n "
              + "ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id "
              + "WHERE d.d_next_o_id - 1 <> o.m OR (n.m IS NOT NULL AND n.m <> o.m) ORDER BY 1, 2"),
      new Condition("3.3.2.3", "max(NO_O_ID) - min(NO_O_ID) + 1 = count(NEW_ORDER rows) for each district",
          "SELECT no_w_id, no_d_id, (max(no_o_id) - min(no_o_id) + 1) || ' vs ' || count(*) FROM new_order "
              + "GROUP BY no_w_id, no_d_id HAVING max(no_o_id) - min(no_o_id) + 1 <> count(*) ORDER BY 1, 2"),
      new Condition("3.3.2.4", "sum(O_OL_CNT) = count(ORDER_LINE rows) for each district",
          "SELECT o.o_w_id, o.o_d_id, o.s || ' vs ' || coalesce(l.c, 0) FROM "
              + "(SELECT o_w_id, o_d_id, sum(o_ol_cnt) AS s FROM orders GROUP BY o_w_id, o_d_id) o LEFT JOIN "
              + "(SELECT ol_w_id, ol_d_id, count(*) AS c FROM order_line GROUP BY ol_w_id, ol_d_id) l "
              + "ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id WHERE o.s <> coalesce(l.c, 0) ORDER BY 1, 2"),
      new Condition("3.3.2.5", "O_CARRIER_ID is null exactly for the orders with a NEW_ORDER row",
          "SELECT o.o_w_id, o.o_d_id, 'order ' || o.o_id FROM orders o LEFT JOIN new_order n "
              + "ON n.no_w_id = o.o_w_id AND n.no_d_id = o.o_d_id AND n.no_o_id = o.o_id "
              + "WHERE (o.o_carrier_id IS NULL) <> (n.no_o_id IS NOT NULL) ORDER BY 1, 2"),
      new Condition("3.3.2.6", "O_OL_CNT = count(ORDER_LINE rows) for each order",
          "SELECT o.o_w_id, o.o_d_id, 'order ' || o.o_id || ': ' || o.o_ol_cnt || ' vs ' || coalesce(l.c, 0) "
              + "FROM orders o LEFT JOIN (SELECT ol_w_id, ol_d_id, ol_o_id, count(*) AS c FROM order_line "
              + "GROUP BY ol_w_id, ol_d_id, ol_o_id) l ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id "
              + "AND l.ol_o_id = o.o_id WHERE o.o_ol_cnt <> coalesce(l.c, 0) ORDER BY 1, 2"),
      new Condition("3.3.2.7", "OL_DELIVERY_D is null exactly when the order's O_CARRIER_ID is null",
          "SELECT o.o_w_id, o.o_d_id, 'order ' || o.o_id FROM orders o JOIN order_line l "
              + "ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id AND l.ol_o_id = o.o_id "
              + "WHERE (o.o_carrier_id IS NULL) <> (l.ol_delivery_d IS NULL) ORDER BY 1, 2"),
      new Condition("3.3.2.8", "W_YTD = sum(H_AMOUNT) for each warehouse",
          "SELECT w.w_id, NULL, w.w_ytd || ' vs ' || coalesce(h.s, 0) FROM warehouse w LEFT JOIN "
              + "(SELECT h_w_id, sum(h_amount) AS s FROM history GROUP BY h_w_id) h ON h.h_w_id = w.w_id "
              + "WHERE w.w_ytd <> coalesce(h.s, 0) ORDER BY 1"),
      new Condition("3.3.2.9", "D_YTD = sum(H_AMOUNT) for each district",
          "SELECT d.d_w_id, d.d_id, d.d_ytd || ' vs ' || coalesce(h.s, 0) FROM district d LEFT JOIN "
              + "(SELECT h_w_id, h_d_id, sum(h_amount) AS s FROM history GROUP BY h_w_id, h_d_id) h "
              + "ON h.h_w_id = d.d_w_id AND h.h_d_id = d.d_id WHERE d.d_ytd <> coalesce(h.s, 0) ORDER BY 1, 2"),
      new Condition("3.3.2.10", "C_BALANCE = sum(delivered OL_AMOUNT) - sum(H_AMOUNT) for each customer",
          "SELECT c.c_w_id, c.c_d_id, 'customer ' || c.c_id || ': ' || c.c_balance || ' vs ' "
              + "|| (coalesce(d.s, 0) - coalesce(h.s, 0)) FROM customer c " + DELIVERED_PER_CUSTOMER
              + " LEFT JOIN (SELECT h_c_w_id, h_c_d_id, h_c_id, sum(h_amount) AS s FROM history "
              + "GROUP BY h_c_w_id, h_c_d_id, h_c_id) h ON h.h_c_w_id = c.c_w_id AND h.h_c_d_id = c.c_d_id "
              + "AND h.h_c_id = c.c_id WHERE c.c_balance <> coalesce(d.s, 0) - coalesce(h.s, 0) ORDER BY 1, 2"),
      new Condition("3.3.2.12", "C_BALANCE + C_YTD_PAYMENT = sum(delivered OL_AMOUNT) for each customer",
          "SELECT c.c_w_id, c.c_d_id, 'customer ' || c.c_id || ': ' || (c.c_balance + c.c_ytd_payment) || ' vs ' "
              + "|| coalesce(d.s, 0) FROM customer c " + DELIVERED_PER_CUSTOMER
              + " WHERE c.c_balance + c.c_ytd_payment <> coalesce(d.s, 0) ORDER BY 1, 2"));

  private ConsistencyChecks() {}

  /**
   * Clause 3.3.2's conditions on {@code db}, all read in one snapshot (a read-only REPEATABLE READ
   * transaction): while other clients still run, conditions that span tables (a district's
   * next order id against its newest order) would otherwise compare rows from different moments.
   */
  public static List<Result> run(TpccDatabase db) throws SQLException {
    return run(db, stop -> { });
  }

  /**
   * As {@link #run(TpccDatabase)}; {@code onStop} is handed what ends the checks at once (the
   * running query cancelled on the server), for Ctrl-C on a database whose checks take minutes.
   */
  public static List<Result> run(TpccDatabase db, Consumer<Runnable> onStop) throws SQLException {
    try (Connection c = db.connect(false); Statement st = c.createStatement()) {
      onStop.accept(Cancel.of(st));
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      c.setReadOnly(true);
      try {
        return run(st, db.ordersTable());
      } finally {
        c.rollback();
      }
    }
  }

  /** Checks every condition; {@code ordersTable} is ORDER's name (ours: orders; BenchBase's: oorder). */
  public static List<Result> run(Connection c, String ordersTable) throws SQLException {
    try (Statement st = c.createStatement()) {
      return run(st, ordersTable);
    }
  }

  private static List<Result> run(Statement st, String ordersTable) throws SQLException {
    List<Result> results = new ArrayList<>();
    for (Condition cond : CONDITIONS) {
      long count = 0;
      String first = null;
      try (ResultSet rs = st.executeQuery(cond.violations().replace("FROM orders ", "FROM " + ordersTable + " "))) {
        while (rs.next()) {
          if (first == null) {
            String d = rs.getString(2);
            first = "warehouse " + rs.getInt(1) + (d == null ? "" : " district " + d) + ": " + rs.getString(3);
          }
          count++;
        }
      }
      results.add(new Result(cond, count == 0, count, first));
    }
    return results;
  }
}
