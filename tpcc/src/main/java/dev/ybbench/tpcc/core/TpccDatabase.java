package dev.ybbench.tpcc.core;

import dev.ybbench.harness.run.RunFailure;
import dev.ybbench.harness.sql.Cancel;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The TPC-C tables in the database the config names: what is loaded, the DDL, the population and
 * consistency checks. Connections come from the one YSQL endpoint; transactions run at the
 * config's isolation.
 */
public final class TpccDatabase {
  private final YsqlEndpoint endpoint;
  private final int isolation;
  private final String ordersTable;

  public TpccDatabase(YsqlEndpoint endpoint, String isolation) {
    this(endpoint, switch (isolation) {
      case "TRANSACTION_READ_UNCOMMITTED" -> Connection.TRANSACTION_READ_UNCOMMITTED;
      case "TRANSACTION_READ_COMMITTED" -> Connection.TRANSACTION_READ_COMMITTED;
      case "TRANSACTION_REPEATABLE_READ" -> Connection.TRANSACTION_REPEATABLE_READ;
      default -> Connection.TRANSACTION_SERIALIZABLE;
    }, "orders");
  }

  private TpccDatabase(YsqlEndpoint endpoint, int isolation, String ordersTable) {
    this.endpoint = endpoint;
    this.isolation = isolation;
    this.ordersTable = ordersTable;
  }

  public YsqlEndpoint endpoint() {
    return endpoint;
  }

  /**
   * Where --engine benchbase runs: a database of its own beside ours ({@code <db>_benchbase}), as
   * BenchBase's schema differs (ORDER is {@code oorder}) and its DDL would leave our tables
   * half-replaced; the same checks apply to it.
   */
  public TpccDatabase forBenchBase() {
    return new TpccDatabase(endpoint.withDatabase(endpoint.database() + "_benchbase"), isolation, "oorder");
  }

  /** The database the config names. */
  public String databaseName() {
    return endpoint.database();
  }

  /** A connection with autocommit on (setup, load) or off with the config's isolation (transactions). */
  public Connection connect(boolean autocommit) throws SQLException {
    Connection c = endpoint.connect(autocommit);
    if (!autocommit) {
      try {
        c.setTransactionIsolation(isolation);
      } catch (SQLException e) {
        c.close();
        throw e;
      }
    }
    return c;
  }

  /** Refuses to execute over tables missing, or holding fewer warehouses than {@code range} drives. */
  public void requireLoaded(WarehouseRange range) throws SQLException {
    long have = loadedWarehouses();
    if (have < range.last()) {
      throw new RunFailure(have < 0 ? "the TPC-C tables do not exist in database " + databaseName()
          + "; create and load them first (--create --load, or no phase flags)"
          : "database " + databaseName() + " holds " + have + " warehouses, fewer than warehouse " + range.last()
              + " this run drives; load them first (--load)");
    }
  }

  /** Warehouses loaded (rows in WAREHOUSE), or -1 when the tables do not exist. */
  public long loadedWarehouses() throws SQLException {
    if (!endpoint.tableExists("warehouse")) {
      return -1;
    }
    try (Connection c = connect(true); Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM warehouse")) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Drops and creates the tables, as {@link #execute}. */
  public void create(TpccSchema schema, Consumer<String> log, Consumer<Runnable> onStop) throws SQLException {
    List<String> ddl = new ArrayList<>(schema.dropTables());
    ddl.addAll(schema.createTables());
    execute(ddl, log, onStop);
  }

  /**
   * Runs DDL one statement after another; {@code onStop} is handed what ends it at once (the
   * running statement cancelled on the server), for Ctrl-C while a cluster's DDL waits on a lock
   * or takes minutes (foreign keys validated over a loaded database).
   */
  public void execute(List<String> statements, Consumer<String> log, Consumer<Runnable> onStop)
      throws SQLException {
    try (Connection c = connect(true); Statement st = c.createStatement()) {
      onStop.accept(Cancel.of(st));
      for (String sql : statements) {
        log.accept("Schema: " + sql);
        st.execute(sql);
      }
    }
  }

  /** The name of the orders table (BenchBase's is {@code oorder}). */
  public String ordersTable() {
    return ordersTable;
  }
}
