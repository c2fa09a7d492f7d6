package dev.ybbench.tpcc.txn;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;

/** Clause 2.5: a customer pays; the warehouse's, district's and customer's balances move. */
public final class Payment implements TpccTransaction {
  // The warehouse's and district's updates return their names and addresses, one round trip
  // each where the clause's profile has two: the warehouse's row, which every payment of the
  // warehouse updates, is locked that much shorter.
  static final String UPDATE_WAREHOUSE = "UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ? "
      + "RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip";
  static final String UPDATE_DISTRICT = "UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ? "
      + "RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip";
  static final String GET_CUSTOMER = "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, "
      + "c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_since FROM customer "
      + "WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE";
  static final String GET_CUSTOMER_DATA = "SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
  static final String UPDATE_CUSTOMER = "UPDATE customer SET c_balance = c_balance - ?, "
      + "c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? "
      + "AND c_id = ?";
  static final String UPDATE_BAD_CREDIT_CUSTOMER = "UPDATE customer SET c_balance = c_balance - ?, "
      + "c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ? WHERE c_w_id = ? "
      + "AND c_d_id = ? AND c_id = ?";
  static final String INSERT_HISTORY = "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, "
      + "h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

  @Override
  public String name() {
    return "Payment";
  }

  @Override
  public Outcome execute(Terminal.Context t) throws SQLException {
    // Input data, clause 2.5.1.
    int w = t.warehouse();
    int d = t.random().uniform(1, 10);
    int cw = w;
    int cd = d;
    // 85 % of payments are by a customer of the terminal's warehouse; 15 % by one of another.
    if (t.warehouses() > 1 && t.random().uniform(1, 100) > 85) {
      do {
        cw = t.random().uniform(1, t.warehouses());
      } while (cw == w);
      cd = t.random().uniform(1, 10);
    }
    BigDecimal amount = BigDecimal.valueOf(t.random().uniform(100, 500_000), 2);

    Statements s = t.statements();
    String warehouseName = NewOrder.one(s.bind(UPDATE_WAREHOUSE, amount, w)).getString(1);
    String districtName = NewOrder.one(s.bind(UPDATE_DISTRICT, amount, w, d)).getString(1);
    int c = CustomerLookup.choose(t, s, cw, cd);
    ResultSet customer = NewOrder.one(s.bind(GET_CUSTOMER, cw, cd, c));
    String credit = customer.getString("c_credit");
    customer.close();
    if ("BC".equals(credit)) {
      // Clause 2.5.2.2: a bad-credit customer's C_DATA gets this payment in front, cut to 500.
      String data = NewOrder.one(s.bind(GET_CUSTOMER_DATA, cw, cd, c)).getString(1);
      String entry = c + " " + cd + " " + cw + " " + d + " " + w + " " + amount + " | ";
      String updated = (entry + data);
      s.bind(UPDATE_BAD_CREDIT_CUSTOMER, amount, amount, updated.substring(0, Math.min(500, updated.length())), cw, cd,
          c).executeUpdate();
    } else {
      s.bind(UPDATE_CUSTOMER, amount, amount, cw, cd, c).executeUpdate();
    }
    // H_DATA: W_NAME and D_NAME separated by 4 spaces.
    s.bind(INSERT_HISTORY, c, cd, cw, d, w, new Timestamp(System.currentTimeMillis()), amount,
        warehouseName + "    " + districtName).executeUpdate();
    t.commit();
    return Outcome.COMMITTED;
  }
}
