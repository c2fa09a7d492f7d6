package dev.ybbench.tpcc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.ysql.SqlDialect;
import java.util.List;
import org.junit.jupiter.api.Test;

class TpccSchemaTest {
  private static String ddl(SqlDialect d, int tablets, String table) {
    TpccSchema s = new TpccSchema(d, tablets);
    return s.createTables().stream().filter(x -> x.startsWith("CREATE TABLE " + table + " ")).findFirst().orElseThrow();
  }

  @Test
  void yugabyteKeepsAWarehouseTogether() {
    assertEquals("CREATE TABLE new_order (no_w_id INT NOT NULL, no_d_id INT NOT NULL, no_o_id INT NOT NULL, "
        + "PRIMARY KEY (no_w_id HASH, no_d_id ASC, no_o_id ASC))", ddl(SqlDialect.YUGABYTEDB, 0, "new_order"));
    assertEquals("CREATE TABLE new_order (no_w_id INT NOT NULL, no_d_id INT NOT NULL, no_o_id INT NOT NULL, "
        + "PRIMARY KEY (no_w_id HASH, no_d_id ASC, no_o_id ASC)) SPLIT INTO 6 TABLETS",
        ddl(SqlDialect.YUGABYTEDB, 6, "new_order"));
    assertEquals("CREATE TABLE item (i_id INT NOT NULL, i_name VARCHAR(24), i_price DECIMAL(5,2), "
        + "i_data VARCHAR(50), i_im_id INT, PRIMARY KEY (i_id HASH))", ddl(SqlDialect.YUGABYTEDB, 0, "item"));
  }

  @Test
  void historyHasNoKeyToSplitOn() {
    assertEquals("CREATE TABLE history (h_c_id INT, h_c_d_id INT, h_c_w_id INT, h_d_id INT, h_w_id INT, "
        + "h_date TIMESTAMP, h_amount DECIMAL(6,2), h_data VARCHAR(24))", ddl(SqlDialect.YUGABYTEDB, 6, "history"));
    assertEquals("CREATE TABLE order_line (ol_w_id INT NOT NULL, ol_d_id INT NOT NULL, ol_o_id INT NOT NULL, "
        + "ol_number INT NOT NULL, ol_i_id INT, ol_delivery_d TIMESTAMP, ol_amount DECIMAL(6,2), ol_supply_w_id INT, "
        + "ol_quantity INT, ol_dist_info CHAR(24), "
        + "PRIMARY KEY (ol_w_id HASH, ol_d_id ASC, ol_o_id ASC, ol_number ASC)) SPLIT INTO 6 TABLETS",
        ddl(SqlDialect.YUGABYTEDB, 6, "order_line"));
  }

  @Test
  void theWarehouseColumnMustLeadTheKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new TpccSchema.Table("t", List.of("a INT", "w INT"), List.of("a", "w"), "w"));
    assertEquals("t: the warehouse column w must lead the key, as YSQL hashes only leading key columns",
        e.getMessage());
  }

  @Test
  void postgresGetsPlainKeys() {
    assertEquals("CREATE TABLE new_order (no_w_id INT NOT NULL, no_d_id INT NOT NULL, no_o_id INT NOT NULL, "
        + "PRIMARY KEY (no_w_id, no_d_id, no_o_id))", ddl(SqlDialect.POSTGRESQL, 6, "new_order"));
    assertEquals("CREATE TABLE history (h_c_id INT, h_c_d_id INT, h_c_w_id INT, h_d_id INT, h_w_id INT, "
        + "h_date TIMESTAMP, h_amount DECIMAL(6,2), h_data VARCHAR(24))", ddl(SqlDialect.POSTGRESQL, 0, "history"));
  }

  @Test
  void indexesFollowTheSameRule() {
    List<String> yb = new TpccSchema(SqlDialect.YUGABYTEDB, 0).createTables();
    assertEquals("CREATE INDEX idx_customer_name ON customer (c_w_id HASH, c_d_id ASC, c_last ASC, c_first ASC)",
        yb.get(9));
    assertEquals("CREATE INDEX idx_orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id)",
        new TpccSchema(SqlDialect.POSTGRESQL, 0).createTables().get(10));
    assertEquals(11, yb.size());
  }

  @Test
  void dropsGoChildrenFirst() {
    List<String> drops = new TpccSchema(SqlDialect.POSTGRESQL, 0).dropTables();
    assertEquals("DROP TABLE IF EXISTS stock CASCADE", drops.get(0));
    assertEquals("DROP TABLE IF EXISTS warehouse CASCADE", drops.get(8));
  }
}
