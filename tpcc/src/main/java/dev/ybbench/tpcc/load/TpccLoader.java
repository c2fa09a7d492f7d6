package dev.ybbench.tpcc.load;

import dev.ybbench.tpcc.core.TpccRandom;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * The initial database population of clause 4.3.3.1, one warehouse at a time (the unit a loader
 * thread takes), plus ITEM once. Row counts per warehouse: 1 WAREHOUSE, 100,000 STOCK,
 * 10 DISTRICT, 30,000 CUSTOMER, 30,000 HISTORY, 30,000 ORDERS, 9,000 NEW_ORDER (the last 900
 * orders of each district are undelivered), and 5 to 15 ORDER_LINE rows per order.
 */
public final class TpccLoader {
  public static final int ITEMS = 100_000;
  public static final int DISTRICTS_PER_WAREHOUSE = 10;
  public static final int CUSTOMERS_PER_DISTRICT = 3_000;
  public static final int ORDERS_PER_DISTRICT = 3_000;
  /** Orders 2,101 to 3,000 of each district are new (undelivered) orders. */
  public static final int FIRST_NEW_ORDER = 2_101;

  /** Rows a warehouse adds, order lines counted at their mean of 10 per order (for progress only). */
  public static final long ROWS_PER_WAREHOUSE = 1 + ITEMS + DISTRICTS_PER_WAREHOUSE
      * (1 + 2L * CUSTOMERS_PER_DISTRICT + ORDERS_PER_DISTRICT + (ORDERS_PER_DISTRICT - FIRST_NEW_ORDER + 1)
      + 10L * ORDERS_PER_DISTRICT);

  /**
   * Bytes on disk a warehouse adds, tables and indexes (pg_total_relation_size), and the item
   * table's, as PostgreSQL 15 stored 4 warehouses loaded by this loader (docs/tpcc.md): for a dry
   * run's size. YugabyteDB stores rows compressed, times its replication factor.
   */
  public static final long PG_BYTES_PER_WAREHOUSE = 107_147_264;
  public static final long PG_ITEM_BYTES = 12_935_168;

  /** Rows a load of {@code warehouses} writes (order lines at their mean), the items' too when it loads them. */
  public static long rows(long warehouses, boolean items) {
    return (items ? ITEMS : 0) + warehouses * ROWS_PER_WAREHOUSE;
  }

  /** Their bytes on disk as PostgreSQL 15 stores them. */
  public static long postgresBytes(long warehouses, boolean items) {
    return (items ? PG_ITEM_BYTES : 0) + warehouses * PG_BYTES_PER_WAREHOUSE;
  }

  /** Rows per COPY: a few MB, large enough that per-statement overhead does not matter. */
  static final int COPY_BATCH_ROWS = 10_000;

  private static final BigDecimal TEN = new BigDecimal("10.00");

  private final TpccRandom random;
  private final int batchRows;
  private final LongAdder progress;
  private final BooleanSupplier stop;
  /** Rows this loader's batches committed: one loader is one thread's. */
  private long written;
  private final Timestamp now = new Timestamp(System.currentTimeMillis());

  /** @param progress counts rows as they are written, for the caller's status line */
  public TpccLoader(TpccRandom random, LongAdder progress) {
    this(random, progress, () -> false);
  }

  /** @param stop once true, the load ends before its next batch ({@link BulkWriter.Stopped}) */
  public TpccLoader(TpccRandom random, LongAdder progress, BooleanSupplier stop) {
    this.random = random;
    this.batchRows = COPY_BATCH_ROWS;
    this.progress = progress;
    this.stop = stop;
  }

  private BulkWriter writer(Connection c, String table, String... columns) {
    return new BulkWriter(c, table, List.of(columns), batchRows, n -> {
      written += n;
      progress.add(n);
    }, stop);
  }

  /** ITEM's rows; returns how many were written. */
  public long loadItems(Connection c) throws SQLException {
    long before = written;
    try (BulkWriter w = writer(c, "item", "i_id", "i_im_id", "i_name", "i_price", "i_data")) {
      for (int i = 1; i <= ITEMS; i++) {
        w.row(i, random.uniform(1, 10_000), random.astring(14, 24), cents(random.uniform(100, 10_000)),
            random.dataWithOriginal());
      }
    }
    return written - before;
  }

  /** Warehouse {@code w}'s rows in every table but ITEM; returns how many were written. */
  public long loadWarehouse(Connection c, int w) throws SQLException {
    long before = written;
    try (BulkWriter out = writer(c, "warehouse", "w_id", "w_ytd", "w_tax", "w_name", "w_street_1", "w_street_2",
        "w_city", "w_state", "w_zip")) {
      out.row(w, "300000.00", tax(), random.astring(6, 10), random.astring(10, 20), random.astring(10, 20),
          random.astring(10, 20), random.astring(2, 2), random.zip());
    }
    loadStock(c, w);
    for (int d = 1; d <= DISTRICTS_PER_WAREHOUSE; d++) {
      loadDistrict(c, w, d);
    }
    return written - before;
  }

  private void loadStock(Connection c, int w) throws SQLException {
    try (BulkWriter out = writer(c, "stock", "s_w_id", "s_i_id", "s_quantity", "s_ytd", "s_order_cnt",
        "s_remote_cnt", "s_data", "s_dist_01", "s_dist_02", "s_dist_03", "s_dist_04", "s_dist_05", "s_dist_06",
        "s_dist_07", "s_dist_08", "s_dist_09", "s_dist_10")) {
      for (int i = 1; i <= ITEMS; i++) {
        out.row(w, i, random.uniform(10, 100), 0, 0, 0, random.dataWithOriginal(), random.astring(24, 24),
            random.astring(24, 24), random.astring(24, 24), random.astring(24, 24), random.astring(24, 24),
            random.astring(24, 24), random.astring(24, 24), random.astring(24, 24), random.astring(24, 24),
            random.astring(24, 24));
      }
    }
  }

  private void loadDistrict(Connection c, int w, int d) throws SQLException {
    try (BulkWriter out = writer(c, "district", "d_w_id", "d_id", "d_ytd", "d_tax", "d_next_o_id", "d_name",
        "d_street_1", "d_street_2", "d_city", "d_state", "d_zip")) {
      out.row(w, d, "30000.00", tax(), ORDERS_PER_DISTRICT + 1, random.astring(6, 10), random.astring(10, 20),
          random.astring(10, 20), random.astring(10, 20), random.astring(2, 2), random.zip());
    }
    try (BulkWriter cust = writer(c, "customer", "c_w_id", "c_d_id", "c_id", "c_discount", "c_credit", "c_last",
        "c_first", "c_credit_lim", "c_balance", "c_ytd_payment", "c_payment_cnt", "c_delivery_cnt", "c_street_1",
        "c_street_2", "c_city", "c_state", "c_zip", "c_phone", "c_since", "c_middle", "c_data");
        BulkWriter hist = writer(c, "history", "h_c_id", "h_c_d_id", "h_c_w_id", "h_d_id", "h_w_id", "h_date",
            "h_amount", "h_data")) {
      for (int id = 1; id <= CUSTOMERS_PER_DISTRICT; id++) {
        // Clause 4.3.3.1: 10 % of customers have bad credit.
        String credit = random.uniform(1, 10) == 1 ? "BC" : "GC";
        cust.row(w, d, id, fraction4(random.uniform(0, 5000)), credit, random.lastNameForLoad(id),
            random.astring(8, 16), "50000.00", "-10.00", "10.00", 1, 0, random.astring(10, 20),
            random.astring(10, 20), random.astring(10, 20), random.astring(2, 2), random.zip(),
            random.nstring(16, 16), now, "OE", random.astring(300, 500));
        hist.row(id, d, w, d, w, now, TEN, random.astring(12, 24));
      }
    }
    int[] customers = random.permutation(CUSTOMERS_PER_DISTRICT);
    try (BulkWriter orders = writer(c, "orders", "o_w_id", "o_d_id", "o_id", "o_c_id", "o_carrier_id", "o_ol_cnt",
        "o_all_local", "o_entry_d");
        BulkWriter lines = writer(c, "order_line", "ol_w_id", "ol_d_id", "ol_o_id", "ol_number", "ol_i_id",
            "ol_delivery_d", "ol_amount", "ol_supply_w_id", "ol_quantity", "ol_dist_info");
        BulkWriter newOrders = writer(c, "new_order", "no_w_id", "no_d_id", "no_o_id")) {
      for (int o = 1; o <= ORDERS_PER_DISTRICT; o++) {
        boolean delivered = o < FIRST_NEW_ORDER;
        int lineCount = random.uniform(5, 15);
        orders.row(w, d, o, customers[o - 1], delivered ? random.uniform(1, 10) : null, lineCount, 1, now);
        for (int n = 1; n <= lineCount; n++) {
          lines.row(w, d, o, n, random.uniform(1, ITEMS), delivered ? now : null,
              delivered ? "0.00" : cents(random.uniform(1, 999_999)), w, 5, random.astring(24, 24));
        }
        if (!delivered) {
          newOrders.row(w, d, o);
        }
      }
    }
  }

  /** W_TAX and D_TAX: random within [0.0000 .. 0.2000]. */
  private String tax() {
    return fraction4(random.uniform(0, 2000));
  }

  static String fraction4(int tenThousandths) {
    return BigDecimal.valueOf(tenThousandths, 4).toPlainString();
  }

  static String cents(int cents) {
    return BigDecimal.valueOf(cents, 2).toPlainString();
  }
}
