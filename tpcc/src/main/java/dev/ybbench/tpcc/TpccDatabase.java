package dev.ybbench.tpcc;

import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.tpcc.check.ConsistencyChecks;
import dev.ybbench.tpcc.load.PopulationCheck;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** The database the config names, reached through the config's driver. */
public final class TpccDatabase {
  private final JdbcUrl url;
  private final String user;
  private final String password;
  private final int isolation;

  TpccDatabase(JdbcUrl url, String user, String password, String isolation) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.isolation = switch (isolation) {
      case "TRANSACTION_READ_UNCOMMITTED" -> Connection.TRANSACTION_READ_UNCOMMITTED;
      case "TRANSACTION_READ_COMMITTED" -> Connection.TRANSACTION_READ_COMMITTED;
      case "TRANSACTION_REPEATABLE_READ" -> Connection.TRANSACTION_REPEATABLE_READ;
      default -> Connection.TRANSACTION_SERIALIZABLE;
    };
  }

  /** The database the config names. */
  public String databaseName() {
    return url.database();
  }

  /** A connection with autocommit on (setup, load) or off with the config's isolation (transactions). */
  public Connection connect(boolean autocommit) throws SQLException {
    return connect(url, autocommit);
  }

  private Connection connect(JdbcUrl u, boolean autocommit) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    if (!password.isEmpty()) {
      p.setProperty("password", password);
    }
    p.setProperty("connectTimeout", "10");
    Connection c = DriverManager.getConnection(u.toString(), p);
    c.setAutoCommit(autocommit);
    if (!autocommit) {
      c.setTransactionIsolation(isolation);
    }
    return c;
  }

  ServerInfo detect() {
    try (Connection c = connect(url.withDatabase("postgres"), true)) {
      return ServerInfo.detect(c);
    } catch (SQLException e) {
      throw new UserError("Cannot connect to " + url.hosts() + ": "
          + e.getMessage().split("\n")[0].replaceAll("[.\\s]+$", "")
          + "; check --hosts (or YSQL_NODES), --user and --password");
    }
  }

  void createDatabaseIfMissing(java.util.function.Consumer<String> log) throws SQLException {
    try (Connection c = connect(url.withDatabase("postgres"), true);
        PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
      ps.setString(1, url.database());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          log.accept("Creating database " + url.database());
          try (Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE \"" + url.database().replace("\"", "\"\"") + "\"");
          }
        }
      }
    }
  }

  /** Warehouses loaded (rows in WAREHOUSE), or -1 when the tables do not exist. */
  long loadedWarehouses() throws SQLException {
    try (Connection c = connect(true); Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT to_regclass('warehouse') IS NOT NULL")) {
        rs.next();
        if (!rs.getBoolean(1)) {
          return -1;
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM warehouse")) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  void create(TpccSchema schema, java.util.function.Consumer<String> log) throws SQLException {
    List<String> ddl = new ArrayList<>(schema.dropTables());
    ddl.addAll(schema.createTables());
    execute(ddl, log);
  }

  void execute(List<String> statements, java.util.function.Consumer<String> log) throws SQLException {
    try (Connection c = connect(true); Statement st = c.createStatement()) {
      for (String sql : statements) {
        log.accept("Schema: " + sql);
        st.execute(sql);
      }
    }
  }

  public List<String> populationProblems(int warehouses) throws SQLException {
    try (Connection c = connect(true)) {
      return PopulationCheck.run(c, warehouses);
    }
  }

  /**
   * Clause 3.3.2's conditions, all read in one snapshot (a read-only REPEATABLE READ
   * transaction): while other clients still run, conditions that span tables (a district's
   * next order id against its newest order) would otherwise compare rows from different moments.
   */
  List<ConsistencyChecks.Result> consistency() throws SQLException {
    try (Connection c = connect(false)) {
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      c.setReadOnly(true);
      try {
        return ConsistencyChecks.run(c);
      } finally {
        c.rollback();
      }
    }
  }
}
