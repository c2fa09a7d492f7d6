package dev.ybbench.ycsb.ysql;

import static dev.ybbench.ycsb.BindingProperties.intProp;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.UserError;
import dev.ybbench.ycsb.schema.KeyLayout;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.ycsb.schema.SqlSchema;
import dev.ybbench.ycsb.schema.TableSpec;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The YSQL binding's settings, read from YCSB properties (so {@code -p name=value} sets any of
 * them), and how to connect with them.
 */
public record YsqlConfig(
    HostList hosts,
    String database,
    String user,
    String password,
    Driver driver,
    boolean loadBalance,
    SqlDialect dialect,
    TableSpec table,
    long split,
    int batchSize,
    int maxRetries) {

  public static final int DEFAULT_PORT = 5433;

  public static final String HOSTS = "ysql.hosts";
  public static final String DATABASE = "ysql.database";
  public static final String USER = "ysql.user";
  public static final String PASSWORD = "ysql.password";
  public static final String DRIVER = "ysql.driver";
  public static final String LOAD_BALANCE = "ysql.load_balance";
  public static final String DIALECT = "ysql.dialect";
  public static final String MAX_RETRIES = "ysql.max_retries";
  public static final String LAYOUT = "yb.layout";
  public static final String SPLIT = "yb.split";
  public static final String TABLETS = "yb.tablets";
  /** YCSB's JDBC binding's name for rows per insert batch during load. */
  public static final String BATCH_SIZE = "db.batchsize";

  /** Which JDBC driver talks to the server. */
  public enum Driver {
    /** com.yugabyte:jdbc-yugabytedb, the smart driver: balances connections over all tservers. */
    YUGABYTE("jdbc:yugabytedb://"),
    /** org.postgresql:postgresql. */
    PGJDBC("jdbc:postgresql://");

    final String prefix;

    Driver(String prefix) {
      this.prefix = prefix;
    }
  }

  public static YsqlConfig from(Properties p) {
    String hostSpec = p.getProperty(HOSTS, System.getenv().getOrDefault("YSQL_NODES", "127.0.0.1"));
    Driver driver = switch (p.getProperty(DRIVER, "yugabyte").toLowerCase()) {
      case "yugabyte", "yb", "smart" -> Driver.YUGABYTE;
      case "pgjdbc", "postgresql", "postgres" -> Driver.PGJDBC;
      default -> throw new UserError("Unknown " + DRIVER + " '" + p.getProperty(DRIVER)
          + "'; use yugabyte (smart driver) or pgjdbc");
    };
    SqlDialect dialect = SqlDialect.valueOf(p.getProperty(DIALECT, "YUGABYTEDB").toUpperCase());
    TableSpec table = new TableSpec(
        p.getProperty("table", "usertable"),
        intProp(p, "fieldcount", 10),
        KeyLayout.fromFlag(p.getProperty(LAYOUT, "hash")),
        intProp(p, TABLETS, 0));
    return new YsqlConfig(
        HostList.parse(hostSpec, DEFAULT_PORT),
        p.getProperty(DATABASE, "ycsb"),
        p.getProperty(USER, "yugabyte"),
        p.getProperty(PASSWORD, System.getenv().getOrDefault("YSQL_PASSWORD", "")),
        driver,
        Boolean.parseBoolean(p.getProperty(LOAD_BALANCE, "true")),
        dialect,
        table,
        intProp(p, SPLIT, 100),
        Math.max(1, intProp(p, BATCH_SIZE, 1)),
        intProp(p, MAX_RETRIES, 10));
  }

  /** The same settings with the smart driver's load balancing on or off. */
  public YsqlConfig withLoadBalance(boolean on) {
    return new YsqlConfig(hosts, database, user, password, driver, on, dialect, table, split, batchSize, maxRetries);
  }

  public SqlSchema schema() {
    return new SqlSchema(table, dialect);
  }

  /** The JDBC URL for {@code db}. It never holds the password, so it is safe to print. */
  public String url(String db) {
    StringBuilder url = new StringBuilder(driver.prefix).append(hosts).append('/').append(db);
    url.append("?ApplicationName=ybbench&connectTimeout=10&reWriteBatchedInserts=true");
    if (driver == Driver.YUGABYTE) {
      url.append("&load-balance=").append(loadBalance);
    } else if (hosts.hosts().size() > 1) {
      url.append("&loadBalanceHosts=true");
    }
    return url.toString();
  }

  public Connection connect() throws SQLException {
    return connect(database);
  }

  public Connection connect(String db) throws SQLException {
    Properties props = new Properties();
    props.setProperty("user", user);
    if (!password.isEmpty()) {
      props.setProperty("password", password);
    }
    return DriverManager.getConnection(url(db), props);
  }
}
