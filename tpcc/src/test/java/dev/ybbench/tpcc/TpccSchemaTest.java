package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TpccSchemaTest {
  private static String ddl(TpccSchema.Dialect d, int tablets, String table) {
    TpccSchema s = new TpccSchema(d, tablets);
    return s.createTables().stream().filter(x -> x.startsWith("CREATE TABLE " + table + " ")).findFirst().orElseThrow();
  }

  @Test
  void yugabyteKeepsAWarehouseTogether() {
    assertEquals("CREATE TABLE new_order (no_w_id INT NOT NULL, no_d_id INT NOT NULL, no_o_id INT NOT NULL, "
        + "PRIMARY KEY (no_w_id HASH, no_d_id ASC, no_o_id ASC))", ddl(TpccSchema.Dialect.YUGABYTEDB, 0, "new_order"));
    assertEquals("CREATE TABLE new_order (no_w_id INT NOT NULL, no_d_id INT NOT NULL, no_o_id INT NOT NULL, "
        + "PRIMARY KEY (no_w_id HASH, no_d_id ASC, no_o_id ASC)) SPLIT INTO 6 TABLETS",
        ddl(TpccSchema.Dialect.YUGABYTEDB, 6, "new_order"));
    assertEquals("CREATE TABLE item (i_id INT NOT NULL, i_name VARCHAR(24), i_price DECIMAL(5,2), "
        + "i_data VARCHAR(50), i_im_id INT, PRIMARY KEY (i_id HASH))", ddl(TpccSchema.Dialect.YUGABYTEDB, 0, "item"));
  }

  @Test
  void postgresGetsPlainKeys() {
    assertEquals("CREATE TABLE new_order (no_w_id INT NOT NULL, no_d_id INT NOT NULL, no_o_id INT NOT NULL, "
        + "PRIMARY KEY (no_w_id, no_d_id, no_o_id))", ddl(TpccSchema.Dialect.POSTGRESQL, 6, "new_order"));
    assertEquals("CREATE TABLE history (h_c_id INT, h_c_d_id INT, h_c_w_id INT, h_d_id INT, h_w_id INT, "
        + "h_date TIMESTAMP, h_amount DECIMAL(6,2), h_data VARCHAR(24))", ddl(TpccSchema.Dialect.POSTGRESQL, 0, "history"));
  }

  @Test
  void indexesFollowTheSameRule() {
    List<String> yb = new TpccSchema(TpccSchema.Dialect.YUGABYTEDB, 0).createTables();
    assertEquals("CREATE INDEX idx_customer_name ON customer (c_w_id HASH, c_d_id ASC, c_last ASC, c_first ASC)",
        yb.get(9));
    assertEquals("CREATE INDEX idx_orders_customer ON orders (o_w_id, o_d_id, o_c_id, o_id)",
        new TpccSchema(TpccSchema.Dialect.POSTGRESQL, 0).createTables().get(10));
    assertEquals(11, yb.size());
  }

  @Test
  void dropsGoChildrenFirst() {
    List<String> drops = new TpccSchema(TpccSchema.Dialect.POSTGRESQL, 0).dropTables();
    assertEquals("DROP TABLE IF EXISTS stock CASCADE", drops.get(0));
    assertEquals("DROP TABLE IF EXISTS warehouse CASCADE", drops.get(8));
  }
}
