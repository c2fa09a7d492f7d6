package dev.ybbench.tpcc.txn;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Arrays;

/** Clause 2.4: enter an order of 5–15 lines for a customer of the terminal's warehouse. */
public final class NewOrder implements TpccTransaction {
  static final String GET_WAREHOUSE_TAX = "SELECT w_tax FROM warehouse WHERE w_id = ?";
  static final String GET_DISTRICT = "SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE";
  static final String UPDATE_DISTRICT = "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?";
  static final String GET_CUSTOMER =
      "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?";
  static final String INSERT_ORDER = "INSERT INTO orders (o_w_id, o_d_id, o_id, o_c_id, o_entry_d, o_ol_cnt, "
      + "o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?)";
  static final String INSERT_NEW_ORDER = "INSERT INTO new_order (no_w_id, no_d_id, no_o_id) VALUES (?, ?, ?)";
  static final String GET_ITEM = "SELECT i_price, i_name, i_data FROM item WHERE i_id = ?";
  static final String GET_STOCK = "SELECT s_quantity, s_data, s_dist_%02d FROM stock WHERE s_w_id = ? AND s_i_id = ? "
      + "FOR UPDATE";
  static final String UPDATE_STOCK = "UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, "
      + "s_remote_cnt = s_remote_cnt + ? WHERE s_w_id = ? AND s_i_id = ?";
  static final String INSERT_ORDER_LINE = "INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, "
      + "ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";

  /** An item number no ITEM row has: clause 2.4.1.4's "unused value". */
  static final int UNUSED_ITEM = 100_001;

  @Override
  public String name() {
    return "NewOrder";
  }

  /** One order line's input: item, supplying warehouse, quantity. */
  record Line(int itemId, int supplyWarehouse, int quantity) {}

  @Override
  public Outcome execute(Terminal.Context t) throws SQLException {
    // Input data, clause 2.4.1.
    int w = t.warehouse();
    int d = t.random().uniform(1, 10);
    int c = t.random().customerId();
    int count = t.random().uniform(5, 15);
    boolean rollback = t.random().uniform(1, 100) == 1;
    Line[] lines = new Line[count];
    boolean allLocal = true;
    for (int i = 0; i < count; i++) {
      int item = rollback && i == count - 1 ? UNUSED_ITEM : t.random().itemId();
      // 1 % of lines are supplied by another warehouse, when there is one.
      int supply = w;
      if (t.warehouses() > 1 && t.random().uniform(1, 100) == 1) {
        do {
          supply = t.random().uniform(1, t.warehouses());
        } while (supply == w);
        allLocal = false;
      }
      lines[i] = new Line(item, supply, t.random().uniform(1, 10));
    }
    // Stock rows are locked in one global order so that concurrent orders cannot deadlock;
    // the unused item sorts last, so the rollback still comes after the other lines.
    Arrays.sort(lines, (a, b) -> a.supplyWarehouse() != b.supplyWarehouse()
        ? Integer.compare(a.supplyWarehouse(), b.supplyWarehouse()) : Integer.compare(a.itemId(), b.itemId()));

    Statements s = t.statements();
    BigDecimal wTax = one(s.bind(GET_WAREHOUSE_TAX, w)).getBigDecimal(1);
    ResultSet district = one(s.bind(GET_DISTRICT, w, d));
    int orderId = district.getInt(1);
    BigDecimal dTax = district.getBigDecimal(2);
    s.bind(UPDATE_DISTRICT, w, d).executeUpdate();
    BigDecimal discount = one(s.bind(GET_CUSTOMER, w, d, c)).getBigDecimal(1);
    Timestamp now = new Timestamp(System.currentTimeMillis());
    s.bind(INSERT_ORDER, w, d, orderId, c, now, count, allLocal ? 1 : 0).executeUpdate();
    s.bind(INSERT_NEW_ORDER, w, d, orderId).executeUpdate();

    BigDecimal total = BigDecimal.ZERO;
    for (int n = 0; n < count; n++) {
      Line line = lines[n];
      ResultSet item = s.bind(GET_ITEM, line.itemId()).executeQuery();
      if (!item.next()) {
        // Clause 2.4.2.3: an unused item number rolls the whole order back.
        item.close();
        t.connection().rollback();
        return Outcome.ROLLED_BACK;
      }
      BigDecimal price = item.getBigDecimal(1);
      item.close();
      ResultSet stock = one(s.bind(String.format(GET_STOCK, d), line.supplyWarehouse(), line.itemId()));
      int quantity = stock.getInt(1);
      String distInfo = stock.getString(3);
      stock.close();
      // Clause 2.4.2.2: restock by 91 when the order would leave fewer than 10.
      int newQuantity = quantity >= line.quantity() + 10 ? quantity - line.quantity() : quantity - line.quantity() + 91;
      s.bind(UPDATE_STOCK, newQuantity, line.quantity(), line.supplyWarehouse() == w ? 0 : 1, line.supplyWarehouse(),
          line.itemId()).executeUpdate();
      BigDecimal amount = price.multiply(BigDecimal.valueOf(line.quantity()));
      total = total.add(amount);
      s.bind(INSERT_ORDER_LINE, w, d, orderId, n + 1, line.itemId(), line.supplyWarehouse(), line.quantity(), amount,
          distInfo).executeUpdate();
    }
    // The order's total, as the terminal would display it: clause 2.4.2.2.
    t.display(total.multiply(BigDecimal.ONE.subtract(discount)).multiply(BigDecimal.ONE.add(wTax).add(dTax)));
    t.commit();
    return Outcome.COMMITTED;
  }

  /** The single row a key lookup must find; a missing one means the database is not TPC-C's. */
  static ResultSet one(PreparedStatement ps) throws SQLException {
    ResultSet rs = ps.executeQuery();
    if (!rs.next()) {
      rs.close();
      throw new SQLException("no row for a key that must exist; is the database loaded? (" + ps + ")", "02000");
    }
    return rs;
  }
}
