package dev.ybbench.tpcc.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.tpcc.core.TpccRandom;
import dev.ybbench.tpcc.core.TpccSchema;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/** Loads two warehouses into a real embedded PostgreSQL and checks the population. */
class TpccLoaderIT {
  @Test
  void twoWarehousesHaveTheSpecPopulation() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(null, 20, System.out::println);
        Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/postgres", pg.user(), "");
        Statement st = c.createStatement()) {
      for (String ddl : new TpccSchema(SqlDialect.POSTGRESQL, 0).createTables()) {
        st.execute(ddl);
      }
      LongAdder progress = new LongAdder();
      TpccLoader loader = new TpccLoader(new TpccRandom(1, TpccRandom.Constants.forLoad(new Random(1))), progress);
      loader.loadItems(c);
      loader.loadWarehouse(c, 1);
      loader.loadWarehouse(c, 2);

      assertEquals(List.of(), PopulationCheck.run(c, 2));
      // Progress counts every row written; order lines vary around their mean of 10 per order.
      long expectedRows = TpccLoader.ITEMS + 2 * TpccLoader.ROWS_PER_WAREHOUSE;
      assertTrue(Math.abs(progress.sum() - expectedRows) < 0.01 * expectedRows, "progress counted " + progress.sum());
      // 10 % of customers have bad credit; 10 % of items and stock say ORIGINAL (clause 4.3.3.1).
      double bad = fraction(st, "SELECT avg(CASE WHEN c_credit = 'BC' THEN 1.0 ELSE 0 END) FROM customer");
      assertTrue(Math.abs(bad - 0.10) < 0.01, "bad credit " + bad);
      double original = fraction(st, "SELECT avg(CASE WHEN s_data LIKE '%ORIGINAL%' THEN 1.0 ELSE 0 END) FROM stock");
      assertTrue(Math.abs(original - 0.10) < 0.01, "ORIGINAL " + original);
      // Every district's newest 900 orders are undelivered: no carrier, and a NEW_ORDER row.
      assertEquals(20 * 900, fraction(st, "SELECT count(*) FROM orders WHERE o_carrier_id IS NULL"));
      assertEquals(0, fraction(st, "SELECT count(*) FROM new_order n JOIN orders o ON o.o_w_id = n.no_w_id "
          + "AND o.o_d_id = n.no_d_id AND o.o_id = n.no_o_id WHERE o.o_carrier_id IS NOT NULL"));
      // All 1,000 last names occur in every district.
      assertEquals(1000, fraction(st, "SELECT count(DISTINCT c_last) FROM customer WHERE c_w_id = 2 AND c_d_id = 7"));
    }
  }

  private static double fraction(Statement st, String sql) throws Exception {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getDouble(1);
    }
  }
}
