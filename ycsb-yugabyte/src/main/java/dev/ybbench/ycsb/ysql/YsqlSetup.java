package dev.ybbench.ycsb.ysql;

import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.sql.SqlErrors;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Consumer;

/** Before a run: what the server is, and the database and table the benchmark uses. */
public final class YsqlSetup {
  /** Exists on both PostgreSQL and YugabyteDB; used to create the benchmark's database. */
  static final String MAINTENANCE_DB = "postgres";

  private YsqlSetup() {}

  /** Connects once (a clear error if that fails) and asks the server what it is. */
  public static ServerInfo detect(YsqlConfig config) {
    try (Connection c = config.connect(MAINTENANCE_DB)) {
      return ServerInfo.detect(c);
    } catch (SQLException e) {
      throw connectError(config, e);
    }
  }

  static UserError connectError(YsqlConfig config, SQLException e) {
    String why = (e.getMessage() == null ? e.toString() : e.getMessage().strip().split("\n")[0])
        .replaceAll("[.\\s]+$", "");
    if (SqlErrors.isConnectionLost(e)) {
      return new UserError("Cannot connect to YSQL at " + config.hosts() + ": " + why
          + "; check --hosts (or YSQL_NODES) and that the server is up");
    }
    return new UserError("YSQL at " + config.hosts() + " refused the connection: " + why
        + "; check --user/--password and --database");
  }

  /** Creates the database if missing, then the table afresh (an existing one is dropped). */
  public static void createSchema(YsqlConfig config, Consumer<String> log) {
    try (Connection c = config.connect(MAINTENANCE_DB)) {
      try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
        ps.setString(1, config.database());
        try (ResultSet rs = ps.executeQuery(); Statement st = c.createStatement()) {
          if (!rs.next()) {
            log.accept("Creating database " + config.database());
            st.execute("CREATE DATABASE " + quoteIdent(config.database()));
          }
        }
      }
    } catch (SQLException e) {
      throw new UserError("Cannot create database " + config.database() + ": " + e.getMessage().split("\n")[0]);
    }
    try (Connection c = config.connect(); Statement st = c.createStatement()) {
      String ddl = config.schema().createTable();
      log.accept("Schema: " + ddl);
      st.execute(config.schema().dropTable());
      st.execute(ddl);
    } catch (SQLException e) {
      throw new UserError("Cannot create table " + config.table().table() + ": " + e.getMessage().split("\n")[0]);
    }
  }

  /** Rows in the benchmark table. */
  public static long countRows(YsqlConfig config) throws SQLException {
    try (Connection c = config.connect(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM " + config.table().table())) {
      rs.next();
      return rs.getLong(1);
    }
  }

  static String quoteIdent(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
