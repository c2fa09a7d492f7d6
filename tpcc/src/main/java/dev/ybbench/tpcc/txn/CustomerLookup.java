package dev.ybbench.tpcc.txn;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Payment and Order-Status find their customer by C_ID or, 60 % of the time, by C_LAST: then the
 * one in the middle of the matches sorted by C_FIRST, position ceil(n / 2) (clauses 2.5.2.2 and
 * 2.6.2.2).
 */
final class CustomerLookup {
  static final String BY_LAST_NAME =
      "SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first";

  private CustomerLookup() {}

  /** The customer's C_ID: by last name 60 % of the time, else NURand(1023, 1, 3000). */
  static int choose(Terminal.Context t, Statements s, int w, int d) throws SQLException {
    if (t.random().uniform(1, 100) > 60) {
      return t.random().customerId();
    }
    List<Integer> ids = new ArrayList<>();
    try (ResultSet rs = s.bind(BY_LAST_NAME, w, d, t.random().lastNameForRun()).executeQuery()) {
      while (rs.next()) {
        ids.add(rs.getInt(1));
      }
    }
    if (ids.isEmpty()) {
      // Every last name exists in every district (clause 4.3.3.1), so this means a bad load.
      throw new SQLException("no customer with the chosen last name in warehouse " + w + " district " + d, "02000");
    }
    return ids.get(middle(ids.size()) - 1);
  }

  /** ceil(n / 2), 1-based: of 1 match the 1st, of 4 the 2nd, of 5 the 3rd. */
  static int middle(int n) {
    return (n + 1) / 2;
  }
}
