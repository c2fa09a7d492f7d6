package dev.ybbench.tpcc.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.tpcc.check.ConsistencyChecks.Condition;
import dev.ybbench.tpcc.check.ConsistencyChecks.Result;
import dev.ybbench.tpcc.core.TpccRandom;
import dev.ybbench.tpcc.core.TpccSchema;
import dev.ybbench.tpcc.load.TpccLoader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Shows that every consistency condition holds on a fresh population and that each one fails,
 * alone, when the data breaks it. One warehouse is loaded once into a real embedded PostgreSQL;
 * each case corrupts it inside a transaction, runs the checks on that same connection (they see
 * the uncommitted change) and rolls back, so all cases share the one load.
 *
 * <p>The loaded warehouse 1 has, per district, orders 1 to 3,000 (1 to 2,100 delivered, with a
 * carrier and order lines of amount 0.00 and a delivery date; 2,101 to 3,000 new, with a NEW_ORDER
 * row and undelivered lines of non-zero amount), D_NEXT_O_ID 3,001, D_YTD 30,000.00, and one
 * HISTORY row of 10.00 per customer paid at the customer's own district; W_YTD is 300,000.00 and
 * every customer has C_BALANCE −10.00 and C_YTD_PAYMENT 10.00.
 *
 * <p>Several conditions overlap: 3.3.2.1 follows from 3.3.2.8 and 3.3.2.9 whenever every HISTORY
 * row names an existing district; 3.3.2.4 follows from 3.3.2.6 whenever every ORDER_LINE row
 * belongs to an existing order; 3.3.2.10 and 3.3.2.12 share C_BALANCE and the delivered amounts.
 * Each corruption below is chosen to break exactly one of them, which is why some touch two rows
 * or leave a row that refers to nothing (the schema has no foreign keys unless asked for).
 */
class ConsistencyChecksIT {
  /** A way to break one condition: statements that must each change at least one row. */
  record Corruption(String clause, String what, List<String> statements) {
    Corruption(String clause, String what, String... statements) {
      this(clause, what, List.of(statements));
    }
  }

  /** One case per condition; every corruption is in warehouse 1, district 1 unless it says otherwise. */
  static final List<Corruption> CORRUPTIONS = List.of(
      // Bumping one district's D_YTD would also break 3.3.2.9 (that district's D_YTD = its HISTORY),
      // and bumping W_YTD alone would also break 3.3.2.8. Here a payment went into W_YTD and into a
      // HISTORY row whose district does not exist: W_YTD still matches all of the warehouse's
      // HISTORY (3.3.2.8) and each district still matches its own (3.3.2.9), but no D_YTD has it.
      new Corruption("3.3.2.1", "W_YTD and a HISTORY row of a district that does not exist gain 5.00",
          "UPDATE warehouse SET w_ytd = w_ytd + 5 WHERE w_id = 1",
          "INSERT INTO history (h_w_id, h_d_id, h_date, h_amount, h_data) VALUES (1, 11, now(), 5.00, 'x')"),
      // Only this condition reads D_NEXT_O_ID.
      new Corruption("3.3.2.2", "D_NEXT_O_ID is one ahead of the newest order",
          "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 1 AND d_id = 1"),
      // Deleting only the NEW_ORDER row would also break 3.3.2.5 (an undelivered order without
      // one). An undelivered order in the middle of the queue vanishes whole instead: its ORDER,
      // ORDER_LINE and NEW_ORDER rows. Per order and per district everything else still adds up,
      // and its lines were undelivered, so no customer's delivered amount changes.
      new Corruption("3.3.2.3", "undelivered order 2500 is gone entirely, leaving a gap in NEW_ORDER",
          "DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = 2500",
          "DELETE FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 2500",
          "DELETE FROM orders WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 2500"),
      // Changing an order's O_OL_CNT or its lines would also break 3.3.2.6. A line of an order that
      // was never written counts in the district's total but belongs to no order, so 3.3.2.6,
      // 3.3.2.7 and the delivered amounts (all reached through ORDER) do not see it.
      new Corruption("3.3.2.4", "an ORDER_LINE row of order 3001, which does not exist",
          "INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_delivery_d, ol_amount, "
              + "ol_supply_w_id, ol_quantity, ol_dist_info) VALUES (1, 1, 3001, 1, 1, NULL, 1.00, 1, 5, 'x')"),
      // The oldest new order loses its NEW_ORDER row but keeps no carrier: a delivery half done.
      // The queue stays contiguous (3.3.2.3) and its newest entry is unchanged (3.3.2.2); its lines
      // are still undelivered, matching the missing carrier (3.3.2.7).
      new Corruption("3.3.2.5", "order 2101 has no carrier and no NEW_ORDER row",
          "DELETE FROM new_order WHERE no_w_id = 1 AND no_d_id = 1 AND no_o_id = 2101"),
      // Changing one order's O_OL_CNT would also break 3.3.2.4 (the district's total). One line
      // moves from order 1 to order 2 instead, both delivered with lines of 0.00: the district's
      // total and every customer's delivered amount stay the same, two orders' counts do not.
      new Corruption("3.3.2.6", "line 1 of order 1 is filed under order 2",
          "UPDATE order_line SET ol_o_id = 2, ol_number = 16 "
              + "WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 1 AND ol_number = 1"),
      // Giving an undelivered line a delivery date would add its non-zero amount to the
      // customer's delivered amount (3.3.2.10, 3.3.2.12); a delivered line is 0.00, so taking its
      // date away changes no sum.
      new Corruption("3.3.2.7", "a line of delivered order 1 has no delivery date",
          "UPDATE order_line SET ol_delivery_d = NULL "
              + "WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 1 AND ol_number = 1"),
      // Changing W_YTD would also break 3.3.2.1, and changing a district's HISTORY would break
      // 3.3.2.9 (and 3.3.2.10 for its customer). A HISTORY row of the warehouse that names no
      // existing district and no customer is only in the warehouse's total.
      new Corruption("3.3.2.8", "a HISTORY row of 5.00 for district 11, which does not exist",
          "INSERT INTO history (h_w_id, h_d_id, h_date, h_amount, h_data) VALUES (1, 11, now(), 5.00, 'x')"),
      // Changing one D_YTD would also break 3.3.2.1. Customer 1's payment is recorded as made at
      // district 2 instead of 1: the warehouse total and the customer's payments stay the same,
      // districts 1 and 2 no longer match their HISTORY.
      new Corruption("3.3.2.9", "customer 1's HISTORY row says it was paid at district 2",
          "UPDATE history SET h_d_id = 2 WHERE h_w_id = 1 AND h_d_id = 1 "
              + "AND h_c_w_id = 1 AND h_c_d_id = 1 AND h_c_id = 1"),
      // Changing C_BALANCE alone would also break 3.3.2.12. Customer 1's HISTORY row names
      // customer 2 instead: 3.3.2.12 does not read HISTORY, and the district totals stay the same.
      new Corruption("3.3.2.10", "customer 1's HISTORY row names customer 2",
          "UPDATE history SET h_c_id = 2 WHERE h_w_id = 1 AND h_d_id = 1 "
              + "AND h_c_w_id = 1 AND h_c_d_id = 1 AND h_c_id = 1"),
      // Only this condition reads C_YTD_PAYMENT.
      new Corruption("3.3.2.12", "customer 1's C_YTD_PAYMENT is 1.00 too high",
          "UPDATE customer SET c_ytd_payment = c_ytd_payment + 1 WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 1"));

  private static EmbeddedPostgres pg;
  private static Connection connection;

  @BeforeAll
  static void loadOneWarehouse() throws Exception {
    pg = EmbeddedPostgres.start(null, 20, System.out::println);
    connection = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/postgres", pg.user(), "");
    try (Statement st = connection.createStatement()) {
      for (String ddl : new TpccSchema(SqlDialect.POSTGRESQL, 0).createTables()) {
        st.execute(ddl);
      }
      // ITEM is left empty: no condition reads it.
      new TpccLoader(new TpccRandom(1, TpccRandom.Constants.forLoad(new Random(1))), new LongAdder())
          .loadWarehouse(connection, 1);
      st.execute("ANALYZE");
    }
    connection.setAutoCommit(false);
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (connection != null) {
        connection.close();
      }
    } finally {
      if (pg != null) {
        pg.close();
      }
    }
  }

  @Test
  void everyConditionHasExactlyOneCorruption() {
    List<String> conditions = ConsistencyChecks.CONDITIONS.stream().map(Condition::clause).toList();
    List<String> cases = CORRUPTIONS.stream().map(Corruption::clause).toList();
    assertEquals(conditions, cases, "one corruption case per condition, in the same order");
  }

  @Test
  void freshPopulationPassesEveryCondition() throws SQLException {
    List<Result> results = ConsistencyChecks.run(connection, "orders");
    connection.rollback();
    assertEquals(ConsistencyChecks.CONDITIONS.size(), results.size());
    assertEquals(List.of(), failed(results), () -> describe(results));
  }

  /** One test per condition, named by its clause; a condition with no corruption case fails by name. */
  @TestFactory
  Stream<DynamicTest> eachCorruptionBreaksItsConditionAlone() {
    Map<String, Corruption> byClause =
        CORRUPTIONS.stream().collect(Collectors.toMap(Corruption::clause, Function.identity()));
    return ConsistencyChecks.CONDITIONS.stream().map(cond -> DynamicTest.dynamicTest(
        cond.clause() + " " + cond.statement(), () -> {
          Corruption corruption = byClause.get(cond.clause());
          if (corruption == null) {
            fail("no corruption case shows that " + cond.clause() + " can fail");
          }
          breakAndCheck(corruption);
        }));
  }

  private static void breakAndCheck(Corruption corruption) throws SQLException {
    List<Result> results;
    try (Statement st = connection.createStatement()) {
      for (String sql : corruption.statements()) {
        assertTrue(st.executeUpdate(sql) > 0, () -> "changed no rows: " + sql);
      }
      results = ConsistencyChecks.run(connection, "orders");
    } finally {
      connection.rollback();
    }
    String context = corruption.clause() + " corrupted (" + corruption.what() + "):\n" + describe(results);
    assertEquals(List.of(corruption.clause()), failed(results), () -> "conditions failing after " + context);
    Result result = results.stream().filter(r -> r.condition().clause().equals(corruption.clause()))
        .findFirst().orElseThrow();
    assertTrue(result.violations() >= 1, () -> "violations after " + context);
    assertNotNull(result.firstOffender(), () -> "first offender after " + context);
    assertTrue(result.firstOffender().matches("warehouse 1[ :].*"),
        () -> "first offender should be in warehouse 1 after " + context);
  }

  private static List<String> failed(List<Result> results) {
    return results.stream().filter(r -> !r.passed()).map(r -> r.condition().clause()).toList();
  }

  private static String describe(List<Result> results) {
    List<String> lines = new ArrayList<>();
    for (Result r : results) {
      lines.add("  " + r);
    }
    return String.join("\n", lines);
  }
}
