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
  // Four statements a district, where the clause's profile has seven: each update returns what
  // the next step needs (the order's customer, its lines' amounts). A shorter Delivery holds its
  // locks shorter and conflicts less (docs/performance.md).
  static final String DELETE_OLDEST_NEW_ORDER = "DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? "
      + "AND no_o_id = (SELECT min(no_o_id) FROM new_order WHERE no_w_id = ? AND no_d_id = ?) RETURNING no_o_id";
  static final String UPDATE_CARRIER = "UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ? "
      + "RETURNING o_c_id";
  static final String UPDATE_DELIVERY_DATE = "UPDATE order_line SET ol_delivery_d = ? "
      + "WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ? RETURNING ol_amount";
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
      try (ResultSet no = s.bind(DELETE_OLDEST_NEW_ORDER, w, d, w, d).executeQuery()) {
        if (!no.next()) {
          continue; // clause 2.7.4.2: a district with no undelivered order is skipped
        }
        orderId = no.getInt(1);
      }
      int customer = NewOrder.one(s.bind(UPDATE_CARRIER, carrier, w, d, orderId)).getInt(1);
      BigDecimal amount = BigDecimal.ZERO;
      try (ResultSet lines = s.bind(UPDATE_DELIVERY_DATE, now, w, d, orderId).executeQuery()) {
        while (lines.next()) {
          amount = amount.add(lines.getBigDecimal(1));
        }
      }
      s.bind(UPDATE_CUSTOMER, amount, w, d, customer).executeUpdate();
      delivered++;
    }
    t.display(delivered);
    t.commit();
    return Outcome.COMMITTED;
  }
}
