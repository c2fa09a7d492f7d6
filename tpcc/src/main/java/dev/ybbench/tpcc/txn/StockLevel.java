package dev.ybbench.tpcc.txn;

import java.sql.SQLException;

/** Clause 2.8: how many items of the district's last 20 orders are low on stock (read only). */
public final class StockLevel implements TpccTransaction {
  static final String GET_NEXT_ORDER = "SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?";
  static final String COUNT_LOW_STOCK = "SELECT COUNT(DISTINCT s.s_i_id) FROM order_line ol JOIN stock s "
      + "ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id WHERE ol.ol_w_id = ? AND ol.ol_d_id = ? "
      + "AND ol.ol_o_id < ? AND ol.ol_o_id >= ? AND s.s_quantity < ?";

  @Override
  public String name() {
    return "StockLevel";
  }

  @Override
  public boolean readOnly() {
    return true;
  }

  @Override
  public Outcome execute(Terminal.Context t) throws SQLException {
    int w = t.warehouse();
    int d = t.district(); // clause 2.8.1: the terminal's own district
    int threshold = t.random().uniform(10, 20);
    Statements s = t.statements();
    int next = NewOrder.one(s.bind(GET_NEXT_ORDER, w, d)).getInt(1);
    t.display(NewOrder.one(s.bind(COUNT_LOW_STOCK, w, d, next, next - 20, threshold)).getInt(1));
    t.commit();
    return Outcome.COMMITTED;
  }
}
