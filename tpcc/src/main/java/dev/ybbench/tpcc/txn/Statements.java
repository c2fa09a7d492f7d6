package dev.ybbench.tpcc.txn;

import dev.ybbench.harness.server.BoundStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A terminal's prepared statements, prepared on first use and kept for its connection. */
final class Statements {
  /**
   * Which transaction types issue each statement (Payment and Order-Status share the customer
   * lookups), as they run: what lets compare.sh say which transaction a slower statement belongs to.
   */
  private static final Map<String, Set<String>> ISSUED_BY = new ConcurrentHashMap<>();

  private final Connection connection;
  private final Map<String, PreparedStatement> prepared = new HashMap<>();
  /** The transaction type now running on this connection. */
  private String transaction = "";

  Statements(Connection connection) {
    this.connection = connection;
  }

  /** The transaction type whose statements follow. */
  void runningFor(String transactionType) {
    transaction = transactionType;
  }

  /** Each statement text the transactions have issued, with the transaction types that issued it. */
  static Map<String, Set<String>> issuedBy() {
    return ISSUED_BY;
  }

  /** The statement for {@code sql} with {@code params} bound in order. */
  PreparedStatement bind(String sql, Object... params) throws SQLException {
    PreparedStatement ps = bind(prepared(sql), params);
    BoundStatements.keep(sql, ps);
    return ps;
  }

  /** The statement for {@code sql}, to bind once per batch entry. */
  PreparedStatement prepared(String sql) throws SQLException {
    if (!transaction.isEmpty()) {
      ISSUED_BY.computeIfAbsent(sql, k -> ConcurrentHashMap.newKeySet()).add(transaction);
    }
    PreparedStatement ps = prepared.get(sql);
    if (ps == null) {
      ps = connection.prepareStatement(sql);
      prepared.put(sql, ps);
    }
    return ps;
  }

  /** {@code ps} with {@code params} bound in order. */
  PreparedStatement bind(PreparedStatement ps, Object... params) throws SQLException {
    for (int i = 0; i < params.length; i++) {
      ps.setObject(i + 1, params[i]);
    }
    return ps;
  }

  void close() {
    for (PreparedStatement ps : prepared.values()) {
      try {
        ps.close();
      } catch (SQLException ignored) {
        // the connection is going away
      }
    }
    prepared.clear();
  }
}
