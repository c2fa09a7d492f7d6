package dev.ybbench.tpcc.txn;

import java.sql.ResultSet;
import java.sql.SQLException;

/** Clause 2.6: a customer asks about their most recent order (read only). */
public final class OrderStatus implements TpccTransaction {
  static final String GET_CUSTOMER = "SELECT c_balance, c_first, c_middle, c_last FROM customer "
      + "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
  static final String GET_NEWEST_ORDER = "SELECT o_id, o_carrier_id, o_entry_d FROM orders "
      + "WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1";
  static final String GET_ORDER_LINES = "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d "
      + "FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?";

  @Override
  public String name() {
    return "OrderStatus";
  }

  @Override
  public boolean readOnly() {
    return true;
  }

  @Override
  public Outcome execute(Terminal.Context t) throws SQLException {
    int w = t.warehouse();
    int d = t.random().uniform(1, 10);
    Statements s = t.statements();
    int c = CustomerLookup.choose(t, s, w, d);
    NewOrder.one(s.bind(GET_CUSTOMER, w, d, c)).close();
    try (ResultSet order = s.bind(GET_NEWEST_ORDER, w, d, c).executeQuery()) {
      // A customer whose only orders were all taken by others may have none yet: nothing to show.
      if (order.next()) {
        int orderId = order.getInt(1);
        int lines = 0;
        try (ResultSet ol = s.bind(GET_ORDER_LINES, w, d, orderId).executeQuery()) {
          while (ol.next()) {
            lines++;
          }
        }
        t.display(lines);
      }
    }
    t.commit();
    return Outcome.COMMITTED;
  }
}
