package dev.ybbench.tpcc.txn;

import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.tpcc.core.TpccRandom;
import dev.ybbench.tpcc.core.TpccSchema;
import dev.ybbench.tpcc.load.LoadPhase;
import dev.ybbench.tpcc.load.TpccLoader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/** One loaded TPC-C warehouse in an embedded PostgreSQL's postgres database, for tests of a single terminal. */
final class OneWarehouse {
  private OneWarehouse() {}

  /** Creates the tables, loads the items and warehouse 1, and returns the database's JDBC URL. */
  static String load(EmbeddedPostgres pg) throws SQLException {
    String url = "jdbc:postgresql://" + pg.hostPort() + "/postgres";
    try (Connection c = DriverManager.getConnection(url, "postgres", ""); Statement st = c.createStatement()) {
      for (String ddl : new TpccSchema(SqlDialect.POSTGRESQL, 0).createTables()) {
        st.execute(ddl);
      }
      TpccLoader loader = new TpccLoader(new TpccRandom(1, LoadPhase.LOAD_CONSTANTS), new LongAdder());
      loader.loadItems(c);
      loader.loadWarehouse(c, 1);
    }
    return url;
  }

  /** A terminal's connections: autocommit off, as the runner opens them. */
  static Supplier<Connection> connections(String url) {
    return () -> {
      try {
        Connection c = DriverManager.getConnection(url, "postgres", "");
        c.setAutoCommit(false);
        return c;
      } catch (SQLException e) {
        throw new RuntimeException(e);
      }
    };
  }
}
