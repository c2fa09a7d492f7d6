package dev.ybbench.tpcc.core;

import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.harness.ysql.TableSplit;
import java.util.ArrayList;
import java.util.List;

/**
 * The nine TPC-C tables (clause 1.3) and their secondary indexes as data, and their DDL per
 * dialect. On YugabyteDB every table is hash-sharded on its warehouse column alone, with the
 * rest of the key ascending, so one warehouse's rows stay together in one tablet (a New-Order
 * touches one warehouse's district, customer, stock and order rows); ITEM, which every
 * warehouse shares, is hash-sharded on its id. On PostgreSQL the same keys are plain primary
 * keys. Pure text: unit-tested exactly.
 */
public final class TpccSchema {
  /** YugabyteDB hashes a key's leading column: the warehouse column, or ITEM's id. */
  private static final int HASHED = 1;

  /**
   * A table: its columns, its primary key (null for HISTORY, which has none in the spec), and
   * its warehouse column, which YugabyteDB hashes and which therefore leads the key.
   */
  public record Table(String name, List<String> columns, List<String> key, String warehouseColumn) {
    public Table {
      if (key != null && warehouseColumn != null && !key.get(0).equals(warehouseColumn)) {
        throw new IllegalArgumentException(name + ": the warehouse column " + warehouseColumn
            + " must lead the key, as YSQL hashes only leading key columns");
      }
    }
  }

  /** A secondary index the transactions need. */
  public record Index(String name, String table, List<String> columns) {}

  public static final List<Table> TABLES = List.of(
      new Table("warehouse", List.of("w_id INT NOT NULL", "w_ytd DECIMAL(12,2)", "w_tax DECIMAL(4,4)",
          "w_name VARCHAR(10)", "w_street_1 VARCHAR(20)", "w_street_2 VARCHAR(20)", "w_city VARCHAR(20)",
          "w_state CHAR(2)", "w_zip CHAR(9)"), List.of("w_id"), "w_id"),
      new Table("district", List.of("d_w_id INT NOT NULL", "d_id INT NOT NULL", "d_ytd DECIMAL(12,2)",
          "d_tax DECIMAL(4,4)", "d_next_o_id INT", "d_name VARCHAR(10)", "d_street_1 VARCHAR(20)",
          "d_street_2 VARCHAR(20)", "d_city VARCHAR(20)", "d_state CHAR(2)", "d_zip CHAR(9)"),
          List.of("d_w_id", "d_id"), "d_w_id"),
      new Table("customer", List.of("c_w_id INT NOT NULL", "c_d_id INT NOT NULL", "c_id INT NOT NULL",
          "c_discount DECIMAL(4,4)", "c_credit CHAR(2)", "c_last VARCHAR(16)", "c_first VARCHAR(16)",
          "c_credit_lim DECIMAL(12,2)", "c_balance DECIMAL(12,2)", "c_ytd_payment DECIMAL(12,2)",
          "c_payment_cnt INT", "c_delivery_cnt INT", "c_street_1 VARCHAR(20)", "c_street_2 VARCHAR(20)",
          "c_city VARCHAR(20)", "c_state CHAR(2)", "c_zip CHAR(9)", "c_phone CHAR(16)", "c_since TIMESTAMP",
          "c_middle CHAR(2)", "c_data VARCHAR(500)"), List.of("c_w_id", "c_d_id", "c_id"), "c_w_id"),
      new Table("history", List.of("h_c_id INT", "h_c_d_id INT", "h_c_w_id INT", "h_d_id INT", "h_w_id INT",
          "h_date TIMESTAMP", "h_amount DECIMAL(6,2)", "h_data VARCHAR(24)"), null, "h_w_id"),
      new Table("new_order", List.of("no_w_id INT NOT NULL", "no_d_id INT NOT NULL", "no_o_id INT NOT NULL"),
          List.of("no_w_id", "no_d_id", "no_o_id"), "no_w_id"),
      new Table("orders", List.of("o_w_id INT NOT NULL", "o_d_id INT NOT NULL", "o_id INT NOT NULL",
          "o_c_id INT", "o_carrier_id INT", "o_ol_cnt INT", "o_all_local INT", "o_entry_d TIMESTAMP"),
          List.of("o_w_id", "o_d_id", "o_id"), "o_w_id"),
      new Table("order_line", List.of("ol_w_id INT NOT NULL", "ol_d_id INT NOT NULL", "ol_o_id INT NOT NULL",
          "ol_number INT NOT NULL", "ol_i_id INT", "ol_delivery_d TIMESTAMP", "ol_amount DECIMAL(6,2)",
          "ol_supply_w_id INT", "ol_quantity INT", "ol_dist_info CHAR(24)"),
          List.of("ol_w_id", "ol_d_id", "ol_o_id", "ol_number"), "ol_w_id"),
      new Table("item", List.of("i_id INT NOT NULL", "i_name VARCHAR(24)", "i_price DECIMAL(5,2)",
          "i_data VARCHAR(50)", "i_im_id INT"), List.of("i_id"), null),
      new Table("stock", List.of("s_w_id INT NOT NULL", "s_i_id INT NOT NULL", "s_quantity INT",
          "s_ytd DECIMAL(8,2)", "s_order_cnt INT", "s_remote_cnt INT", "s_data VARCHAR(50)",
          "s_dist_01 CHAR(24)", "s_dist_02 CHAR(24)", "s_dist_03 CHAR(24)", "s_dist_04 CHAR(24)",
          "s_dist_05 CHAR(24)", "s_dist_06 CHAR(24)", "s_dist_07 CHAR(24)", "s_dist_08 CHAR(24)",
          "s_dist_09 CHAR(24)", "s_dist_10 CHAR(24)"), List.of("s_w_id", "s_i_id"), "s_w_id"));

  /** Payment and Order-Status find customers by last name; Order-Status finds a customer's newest order. */
  public static final List<Index> INDEXES = List.of(
      new Index("idx_customer_name", "customer", List.of("c_w_id", "c_d_id", "c_last", "c_first")),
      new Index("idx_orders_customer", "orders", List.of("o_w_id", "o_d_id", "o_c_id", "o_id")));

  /** Foreign keys of clause 1.3, added after the load when asked for (they slow loading). */
  public static final List<String> FOREIGN_KEYS = List.of(
      "ALTER TABLE district ADD CONSTRAINT fk_district_warehouse FOREIGN KEY (d_w_id) REFERENCES warehouse (w_id)",
      "ALTER TABLE customer ADD CONSTRAINT fk_customer_district FOREIGN KEY (c_w_id, c_d_id) "
          + "REFERENCES district (d_w_id, d_id)",
      "ALTER TABLE history ADD CONSTRAINT fk_history_customer FOREIGN KEY (h_c_w_id, h_c_d_id, h_c_id) "
          + "REFERENCES customer (c_w_id, c_d_id, c_id)",
      "ALTER TABLE history ADD CONSTRAINT fk_history_district FOREIGN KEY (h_w_id, h_d_id) "
          + "REFERENCES district (d_w_id, d_id)",
      "ALTER TABLE new_order ADD CONSTRAINT fk_new_order_orders FOREIGN KEY (no_w_id, no_d_id, no_o_id) "
          + "REFERENCES orders (o_w_id, o_d_id, o_id)",
      "ALTER TABLE orders ADD CONSTRAINT fk_orders_customer FOREIGN KEY (o_w_id, o_d_id, o_c_id) "
          + "REFERENCES customer (c_w_id, c_d_id, c_id)",
      "ALTER TABLE order_line ADD CONSTRAINT fk_order_line_orders FOREIGN KEY (ol_w_id, ol_d_id, ol_o_id) "
          + "REFERENCES orders (o_w_id, o_d_id, o_id)",
      "ALTER TABLE order_line ADD CONSTRAINT fk_order_line_stock FOREIGN KEY (ol_supply_w_id, ol_i_id) "
          + "REFERENCES stock (s_w_id, s_i_id)",
      "ALTER TABLE stock ADD CONSTRAINT fk_stock_warehouse FOREIGN KEY (s_w_id) REFERENCES warehouse (w_id)",
      "ALTER TABLE stock ADD CONSTRAINT fk_stock_item FOREIGN KEY (s_i_id) REFERENCES item (i_id)");

  private final SqlDialect dialect;
  private final int tablets;

  /** @param tablets YugabyteDB: pre-split each keyed table into this many tablets (0 = default) */
  public TpccSchema(SqlDialect dialect, int tablets) {
    this.dialect = dialect;
    this.tablets = tablets;
  }

  public List<String> createTables() {
    List<String> ddl = new ArrayList<>();
    for (Table t : TABLES) {
      ddl.add(createTable(t));
    }
    for (Index i : INDEXES) {
      ddl.add(createIndex(i));
    }
    return ddl;
  }

  /** Drops in an order that foreign keys allow (children first). */
  public List<String> dropTables() {
    List<String> ddl = new ArrayList<>();
    for (int i = TABLES.size() - 1; i >= 0; i--) {
      ddl.add("DROP TABLE IF EXISTS " + TABLES.get(i).name() + " CASCADE");
    }
    return ddl;
  }

  String createTable(Table t) {
    if (t.key() == null) {
      // HISTORY has no key in the spec, so nothing of its own to hash: it keeps the server's default sharding.
      return dialect.createTable(t.name(), t.columns(), TableSplit.NONE);
    }
    List<String> parts = new ArrayList<>(t.columns());
    parts.add(dialect.primaryKey(t.key(), HASHED));
    return dialect.createTable(t.name(), parts, TableSplit.into(tablets));
  }

  /** An index leads with its warehouse column, hashed like the tables' keys, so it stays with its warehouse. */
  String createIndex(Index i) {
    return dialect.createIndex(i.name(), i.table(), i.columns(), HASHED);
  }
}
