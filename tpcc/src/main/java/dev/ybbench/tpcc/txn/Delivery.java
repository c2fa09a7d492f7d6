package dev.ybbench.tpcc.txn;

import dev.ybbench.tpcc.core.TpccRandom;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/**
 * Clause 2.7: deliver the oldest undelivered order of each of the warehouse's 10 districts. Run
 * at once by the terminal, as BenchBase does, or queued and run deferred (clause 2.7.2) by
 * {@link Terminals} under {@code --spec}: the terminal then keys only the warehouse and carrier.
 */
public final class Delivery implements TpccTransaction {
  static final String GET_OLDEST_NEW_ORDER = "SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? "
      + "ORDER BY no_o_id LIMIT 1 FOR UPDATE";
  static final String DELETE_NEW_ORDER = "DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?";
  static final String GET_ORDER_CUSTOMER = "SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?";
  static final String UPDATE_CARRIER = "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?";
  static final String UPDATE_DELIVERY_DATE = "UPDATE order_line SET ol_delivery_d = ? "
      + "WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?";
  static final String SUM_AMOUNT = "SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? "
      + "AND ol_o_id = ?";
  static final String UPDATE_CUSTOMER = "UPDATE customer SET c_balance = c_balance + ?, "
      + "c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";

  @Override
  public String name() {
    return "Delivery";
  }

  @Override
  public Outcome execute(Terminal.Context t) throws SQLException {
    return deliver(t, carrier(t.random()));
  }

  /** The carrier the terminal keys (clause 2.7.1.2). */
  static int carrier(TpccRandom random) {
    return random.uniform(1, 10);
  }

  /** The business transaction for the context's warehouse, with the carrier keyed when it was queued. */
  static Outcome deliver(Terminal.Context t, int carrier) throws SQLException {
    int w = t.warehouse();
    Timestamp now = new Timestamp(System.currentTimeMillis());
    Statements s = t.statements();
    int delivered = 0;
    for (int d = 1; d <= 10; d++) {
      int orderId;
      try (ResultSet no = s.bind(GET_OLDEST_NEW_ORDER, w, d).executeQuery()) {
        if (!no.next()) {
          continue; // clause 2.7.4.2: a district with no undelivered order is skipped
        }
        orderId = no.getInt(1);
      }
      s.bind(DELETE_NEW_ORDER, w, d, orderId).executeUpdate();
      int customer = NewOrder.one(s.bind(GET_ORDER_CUSTOMER, w, d, orderId)).getInt(1);
      s.bind(UPDATE_CARRIER, carrier, w, d, orderId).executeUpdate();
      s.bind(UPDATE_DELIVERY_DATE, now, w, d, orderId).executeUpdate();
      BigDecimal amount = NewOrder.one(s.bind(SUM_AMOUNT, w, d, orderId)).getBigDecimal(1);
      s.bind(UPDATE_CUSTOMER, amount == null ? BigDecimal.ZERO : amount, w, d, customer).executeUpdate();
      delivered++;
    }
    t.display(delivered);
    t.commit();
    return Outcome.COMMITTED;
  }
}
