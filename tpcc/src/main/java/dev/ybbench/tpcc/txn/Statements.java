package dev.ybbench.tpcc.txn;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/** A terminal's prepared statements, prepared on first use and kept for its connection. */
final class Statements {
  private final Connection connection;
  private final Map<String, PreparedStatement> prepared = new HashMap<>();

  Statements(Connection connection) {
    this.connection = connection;
  }

  /** The statement for {@code sql} with {@code params} bound in order. */
  PreparedStatement bind(String sql, Object... params) throws SQLException {
    PreparedStatement ps = prepared.get(sql);
    if (ps == null) {
      ps = connection.prepareStatement(sql);
      prepared.put(sql, ps);
    }
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
