package dev.ybbench.tpcc.txn;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

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
  /** The order's items in one round trip; a missing one is the unused item of clause 2.4.1.4. */
  static final String GET_ITEMS = "SELECT i_id, i_price, i_name, i_data FROM item WHERE i_id = ANY(?)";
  /**
   * One supplying warehouse's stock rows for the order, locked in item order (PostgreSQL and
   * YugabyteDB lock the rows after the sort), so that concurrent orders cannot deadlock.
   */
  static final String[] GET_STOCK = new String[11];
  static final String UPDATE_STOCK = "UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, "
      + "s_remote_cnt = s_remote_cnt + ? WHERE s_w_id = ? AND s_i_id = ?";
  static final String INSERT_ORDER_LINE = "INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, "
      + "ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";

  static {
    for (int d = 1; d <= 10; d++) {
      GET_STOCK[d] = String.format(Locale.ROOT, "SELECT s_i_id, s_quantity, s_dist_%02d FROM stock WHERE s_w_id = ? "
          + "AND s_i_id = ANY(?) ORDER BY s_i_id FOR UPDATE", d);
    }
  }

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
    // Stock rows are locked in one global order so that concurrent orders cannot deadlock.
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

    // The lines' reads and writes go as BenchBase's and yugabyte/tpcc's do: the items in one
    // query, each supplying warehouse's stock rows in one, and the stock updates and order lines
    // each as one batch (one round trip; the inserts one statement with reWriteBatchedInserts).
    // Against a statement per line that is 11 round trips for a 10-line order instead of 46, and
    // the district's row, locked above, is held that much shorter: at 10 warehouses and 64
    // terminals New-Order conflicted half as often (docs/performance.md).
    Map<Integer, BigDecimal> prices = prices(s, lines);
    if (prices == null) {
      // Clause 2.4.2.3: an unused item number rolls the whole order back.
      t.connection().rollback();
      return Outcome.ROLLED_BACK;
    }
    Map<Long, Stock> stock = lockStock(s, d, lines);
    PreparedStatement updateStock = s.prepared(UPDATE_STOCK);
    PreparedStatement insertLine = s.prepared(INSERT_ORDER_LINE);
    // A batch an earlier attempt left unsent (its other batch failed) must not be sent with this one.
    updateStock.clearBatch();
    insertLine.clearBatch();
    BigDecimal total = BigDecimal.ZERO;
    for (int n = 0; n < count; n++) {
      Line line = lines[n];
      Stock row = stock.get(stockKey(line.supplyWarehouse(), line.itemId()));
      // Clause 2.4.2.2: restock by 91 when the order would leave fewer than 10. An item ordered
      // twice is taken from what the first line left.
      row.quantity = row.quantity >= line.quantity() + 10 ? row.quantity - line.quantity()
          : row.quantity - line.quantity() + 91;
      s.bind(updateStock, row.quantity, line.quantity(), line.supplyWarehouse() == w ? 0 : 1,
          line.supplyWarehouse(), line.itemId()).addBatch();
      BigDecimal amount = prices.get(line.itemId()).multiply(BigDecimal.valueOf(line.quantity()));
      total = total.add(amount);
      s.bind(insertLine, w, d, orderId, n + 1, line.itemId(), line.supplyWarehouse(), line.quantity(), amount,
          row.distInfo).addBatch();
    }
    updateStock.executeBatch();
    insertLine.executeBatch();
    // The order's total, as the terminal would display it: clause 2.4.2.2.
    t.display(total.multiply(BigDecimal.ONE.subtract(discount)).multiply(BigDecimal.ONE.add(wTax).add(dTax)));
    t.commit();
    return Outcome.COMMITTED;
  }

  /** A stock row as the order found it, and its quantity after the order's lines so far. */
  private static final class Stock {
    int quantity;
    final String distInfo;

    Stock(int quantity, String distInfo) {
      this.quantity = quantity;
      this.distInfo = distInfo;
    }
  }

  private static long stockKey(int warehouse, int item) {
    return (long) warehouse << 32 | item;
  }

  /** Each ordered item's price, or null when one of them does not exist. */
  private static Map<Integer, BigDecimal> prices(Statements s, Line[] lines) throws SQLException {
    int[] ids = Arrays.stream(lines).mapToInt(Line::itemId).distinct().toArray();
    Map<Integer, BigDecimal> prices = new HashMap<>();
    try (ResultSet rs = s.bind(GET_ITEMS, ids).executeQuery()) {
      while (rs.next()) {
        prices.put(rs.getInt(1), rs.getBigDecimal(2));
      }
    }
    return prices.size() == ids.length ? prices : null;
  }

  /** Locks the order's stock rows, one query per supplying warehouse, in the lines' (sorted) order. */
  private static Map<Long, Stock> lockStock(Statements s, int district, Line[] lines) throws SQLException {
    Map<Long, Stock> rows = new HashMap<>();
    for (int from = 0; from < lines.length; ) {
      int supply = lines[from].supplyWarehouse();
      int to = from;
      while (to < lines.length && lines[to].supplyWarehouse() == supply) {
        to++;
      }
      int[] items = Arrays.stream(lines, from, to).mapToInt(Line::itemId).distinct().toArray();
      try (ResultSet rs = s.bind(GET_STOCK[district], supply, items).executeQuery()) {
        while (rs.next()) {
          rows.put(stockKey(supply, rs.getInt(1)), new Stock(rs.getInt(2), rs.getString(3)));
        }
      }
      for (int item : items) {
        if (!rows.containsKey(stockKey(supply, item))) {
          throw new SQLException("no stock row for warehouse " + supply + ", item " + item
              + "; is the database loaded?", "02000");
        }
      }
      from = to;
    }
    return rows;
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
