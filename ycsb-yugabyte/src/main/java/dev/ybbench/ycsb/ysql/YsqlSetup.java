package dev.ybbench.ycsb.ysql;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.run.RunFailure;
import dev.ybbench.harness.sql.Cancel;
import dev.ybbench.harness.ysql.TableClaim;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Before a run: the database and table the benchmark uses, and the run's claim on the table
 * (see {@link TableClaim}), which the caller holds until the run ends.
 */
public final class YsqlSetup {
  /** SQLSTATE invalid_catalog_name: the database named in the URL does not exist. */
  private static final String NO_SUCH_DATABASE = "3D000";

  private YsqlSetup() {}

  /**
   * Creates the database if missing, then the table afresh (an existing one is dropped) under an
   * exclusive claim, and returns the claim turned shared for the run that loads it; {@code onStop}
   * is handed what cancels it.
   */
  public static TableClaim createSchema(YsqlConfig config, String fleet, Consumer<String> log,
      Consumer<Runnable> onStop) {
    YsqlEndpoint endpoint = config.endpoint();
    endpoint.createDatabaseIfMissing(log);
    TableClaim claim = claim(config, TableClaim.Mode.EXCLUSIVE, log);
    try (Connection c = config.connect(); Statement st = c.createStatement()) {
      onStop.accept(Cancel.of(st));
      String ddl = config.schema().createTable();
      log.accept("Schema: " + ddl);
      st.execute(config.schema().dropTable());
      st.execute(ddl);
      Optional<String> index = config.schema().createIndex();
      if (index.isPresent()) {
        log.accept("Schema: " + index.get());
        st.execute(index.get());
      }
      if (fleet != null) {
        st.execute("COMMENT ON TABLE " + config.table().table() + " IS '" + FLEET_MARK + fleet + "'");
      }
      claim.downgrade();
      return claim;
    } catch (SQLException e) {
      claim.close();
      throw new UserError("Cannot create table " + config.table().table() + ": " + ErrorText.firstLine(e), e);
    } catch (RuntimeException e) {
      claim.close();
      throw e;
    }
  }

  /**
   * For a run that does not load: claims the table shared and checks that the database and the
   * table are there. Drops nothing; a missing one is a {@link RunFailure}.
   */
  public static TableClaim useExistingSchema(YsqlConfig config, Consumer<String> log) {
    TableClaim claim = claim(config, TableClaim.Mode.SHARED, log);
    try {
      if (!config.endpoint().tableExists(config.table().table())) {
        throw new RunFailure("table " + config.table().table() + " does not exist in database " + config.database()
            + " on " + config.endpoint().hosts() + "; load it first (--phase load or both)");
      }
      return claim;
    } catch (SQLException e) {
      claim.close();
      throw failure(config, e);
    } catch (RuntimeException e) {
      claim.close();
      throw e;
    }
  }

  private static TableClaim claim(YsqlConfig config, TableClaim.Mode mode, Consumer<String> log) {
    try {
      return TableClaim.take(config.endpoint(), config.table().table(), mode, log);
    } catch (SQLException e) {
      throw failure(config, e);
    }
  }

  private static RuntimeException failure(YsqlConfig config, SQLException e) {
    if (NO_SUCH_DATABASE.equals(e.getSQLState())) {
      return new RunFailure("database " + config.database() + " does not exist on " + config.endpoint().hosts()
          + "; load it first (--phase load or both)", e);
    }
    return config.endpoint().connectError(e);
  }

  /** How a table created for a fleet of clients says which (its comment; fleet ids are plain words). */
  private static final String FLEET_MARK = "ybbench fleet ";

  /**
   * Whether the table is there for the other clients of a fleet to load into: it exists and, with
   * a {@code fleet} id, was created for that fleet (not left from an earlier run). Never fails:
   * a database not yet created is a table not ready.
   */
  public static boolean schemaReady(YsqlConfig config, String fleet) {
    try (Connection c = config.connect(); PreparedStatement ps = c.prepareStatement(
        "SELECT to_regclass(?) IS NOT NULL, obj_description(to_regclass(?), 'pg_class')")) {
      ps.setString(1, config.table().table());
      ps.setString(2, config.table().table());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        if (!rs.getBoolean(1) || fleet != null && !(FLEET_MARK + fleet).equals(rs.getString(2))) {
          return false;
        }
      }
      // Client 0 commits the table before it turns its exclusive claim shared: until it has, a
      // shared claim would be refused as another run's.
      return !TableClaim.heldExclusively(c, config.endpoint().database(), config.table().table());
    } catch (SQLException e) {
      return false;
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
}
