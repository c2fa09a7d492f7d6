package dev.ybbench.ycsb.ysql;

import static dev.ybbench.ycsb.client.BindingProperties.intProp;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import dev.ybbench.ycsb.schema.KeyLayout;
import dev.ybbench.ycsb.schema.LoadMethod;
import dev.ybbench.ycsb.schema.SqlSchema;
import dev.ybbench.ycsb.schema.TableSpec;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Properties;

/**
 * The YSQL binding's settings, read from YCSB properties (so {@code -p name=value} sets any of
 * them): where to connect, as a {@link YsqlEndpoint}, and the table. With {@code vertx} the run
 * phase goes through the event-loop client ({@link VertxClient}); the endpoint is pgjdbc's then,
 * for everything else (the schema, the load, the server's views).
 */
public record YsqlConfig(
    YsqlEndpoint endpoint,
    SqlDialect dialect,
    TableSpec table,
    long split,
    int batchSize,
    LoadMethod loadMethod,
    int maxRetries,
    int fetchSize,
    boolean vertx) {

  public static final int DEFAULT_PORT = YsqlEndpoint.YSQL_PORT;

  public static final String HOSTS = "ysql.hosts";
  public static final String DATABASE = "ysql.database";
  public static final String USER = "ysql.user";
  public static final String PASSWORD = "ysql.password";
  public static final String DRIVER = "ysql.driver";
  public static final String LOAD_BALANCE = "ysql.load_balance";
  /**
   * More JDBC URL options, passed to the driver as written after the harness's own:
   * {@code ysql.url_options=topology-keys=cloud.region.zone1&sslmode=require}. A same-named
   * option replaces the harness's in its place; a {@code load-balance} here stands unless
   * {@value #LOAD_BALANCE} is given too; a {@code password} never goes into the URL.
   */
  public static final String URL_OPTIONS = "ysql.url_options";
  public static final String DIALECT = "ysql.dialect";
  public static final String MAX_RETRIES = "ysql.max_retries";
  public static final String LAYOUT = "yb.layout";
  public static final String SPLIT = "yb.split";
  /** Rows per insert batch during a load (--batch-size; the runner sets it). */
  public static final String BATCH_SIZE = "ysql.batch_rows";
  /** The JDBC fetch size of scans, as yugabyte/YCSB's jdbc.fetchsize (0: the driver's). */
  public static final String FETCH_SIZE = "ysql.fetch_size";
  /** {@link LoadMethod}: copy (default) or insert. */
  public static final String LOAD_METHOD = "ysql.load_method";

  /** The settings of a binding used without the runner: its nodes are {@value #HOSTS}, else YSQL_NODES, else 127.0.0.1. */
  public static YsqlConfig from(Properties p) {
    String hostSpec = p.getProperty(HOSTS, Objects.requireNonNullElse(ServerTarget.environmentHosts(ServerTarget.Api.YSQL), "127.0.0.1"));
    return from(p, HostList.parse(hostSpec, DEFAULT_PORT));
  }

  /** The settings with the nodes the runner's server target parsed once, for every binding thread. */
  public static YsqlConfig from(Properties p, HostList hosts) {
    String driverName = p.getProperty(DRIVER, "yugabyte").toLowerCase();
    boolean vertx = driverName.equals("vertx");
    YsqlEndpoint.Driver driver = switch (driverName) {
      case "yugabyte", "yb", "smart" -> YsqlEndpoint.Driver.YUGABYTE;
      case "pgjdbc", "postgresql", "postgres", "vertx" -> YsqlEndpoint.Driver.PGJDBC;
      default -> throw new UserError("Unknown " + DRIVER + " '" + p.getProperty(DRIVER)
          + "'; use yugabyte (smart driver), pgjdbc or vertx (event loops)");
    };
    if (vertx) {
      refuseWithVertx(p, URL_OPTIONS, "--url-options are JDBC's connection options", null);
      refuseWithVertx(p, LOAD_BALANCE, "it has no topology awareness; its connections go to the nodes in turn",
          "false");
      refuseWithVertx(p, FETCH_SIZE, "a scan fetches its rows at once, as pgjdbc's do outside a transaction", "0");
    }
    YsqlEndpoint endpoint = YsqlEndpoint.of(driver, hosts,
            p.getProperty(DATABASE, "ycsb"), p.getProperty(USER, "yugabyte"),
            p.getProperty(PASSWORD, System.getenv().getOrDefault("YSQL_PASSWORD", "")))
        .withOptions(p.getProperty(URL_OPTIONS));
    String loadBalance = p.getProperty(LOAD_BALANCE);
    if (loadBalance != null || !endpoint.options().containsKey(YsqlEndpoint.LOAD_BALANCE)) {
      endpoint = endpoint.withLoadBalance(loadBalance == null || Boolean.parseBoolean(loadBalance));
    }
    SqlDialect dialect = SqlDialect.valueOf(p.getProperty(DIALECT, "YUGABYTEDB").toUpperCase());
    TableSpec table = TableSpec.from(p, intProp(p, "fieldcount", 10), KeyLayout.fromFlag(p.getProperty(LAYOUT, "hash")));
    if (table.values() != TableSpec.ValueType.TEXT) {
      throw new UserError(TableSpec.VALUE_TYPE + "=blob is YCQL's; the YSQL binding keeps text values");
    }
    return new YsqlConfig(
        endpoint,
        dialect,
        table,
        intProp(p, SPLIT, 100),
        Math.max(1, intProp(p, BATCH_SIZE, 1)),
        LoadMethod.named(p.getProperty(LOAD_METHOD, "copy")),
        intProp(p, MAX_RETRIES, 10),
        Math.max(0, intProp(p, FETCH_SIZE, 0)),
        vertx);
  }

  /** Refuses {@code name} with the event-loop client, unless it says {@code harmless} (its default). */
  private static void refuseWithVertx(Properties p, String name, String why, String harmless) {
    String v = p.getProperty(name);
    if (v != null && !v.isBlank() && !v.strip().equalsIgnoreCase(harmless)) {
      throw new UserError(name + " cannot be honoured with " + DRIVER + "=vertx: " + why
          + " (leave it out, or use --driver pgjdbc)");
    }
  }

  public SqlSchema schema() {
    return new SqlSchema(table, dialect);
  }

  public String database() {
    return endpoint.database();
  }

  /** The JDBC URL for {@code db}; safe to print. */
  public String url(String db) {
    return endpoint.url(db);
  }

  public Connection connect() throws SQLException {
    return endpoint.connect();
  }
}
