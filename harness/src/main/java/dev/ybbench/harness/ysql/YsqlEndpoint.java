package dev.ybbench.harness.ysql;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.sql.SqlErrors;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a YSQL benchmark connects: the nodes, the database, the credentials, the JDBC driver and
 * its URL options. Immutable; the {@code with…} methods return changed copies.
 *
 * <p>Options pass through to the driver in the order given, so anything either driver knows
 * works without code here: the smart driver's {@code topology-keys} or
 * {@code yb-servers-refresh-interval}, {@code sslmode}, and so on. YCSB gives them as the
 * property {@code ysql.url_options} ({@code topology-keys=cloud.region.zone1&sslmode=require});
 * TPC-C takes them from the query string of the BenchBase config's {@code <url>} ({@link #parse}).
 * A {@code user=} among them becomes the endpoint's user, as the driver itself would take it over
 * a connection property. A {@code password=} becomes the endpoint's password, sent as a
 * connection property and never written into the URL, so {@link #url()} is always safe to print
 * and record.
 */
public final class YsqlEndpoint {
  /** YSQL's port; the smart driver's default too. */
  public static final int YSQL_PORT = 5433;

  /** Exists on both PostgreSQL and YugabyteDB: where the server is asked what it is and databases are created. */
  public static final String MAINTENANCE_DB = "postgres";

  /** The smart driver's option: spread connections over every tserver (false, true, or a placement policy). */
  public static final String LOAD_BALANCE = "load-balance";

  /** How many connection handshakes this process runs at once; see {@link #connect(String)}. */
  private static final Semaphore HANDSHAKES = new Semaphore(32);

  /**
   * The options of an endpoint built from flags rather than a URL: the application name, so the
   * server's pg_stat_activity tells benchmark sessions apart; a 10 s connect timeout, so a dead
   * node fails fast; and batched inserts rewritten into multi-row INSERTs, which the load phase
   * needs to reach the server's write rate.
   */
  public static final String DEFAULT_OPTIONS = "ApplicationName=ybbench&connectTimeout=10&reWriteBatchedInserts=true";

  /** pgjdbc's option to pick a random host per connection rather than always the first. */
  private static final String PGJDBC_LOAD_BALANCE_HOSTS = "loadBalanceHosts";
  private static final Pattern URL =
      Pattern.compile("^(jdbc:(?:postgresql|yugabytedb)://)([^/]*)/([^?]*)(?:\\?(.*))?$");

  /** Which JDBC driver talks to the server. */
  public enum Driver {
    /** com.yugabyte:jdbc-yugabytedb, the smart driver: balances connections over all tservers. */
    YUGABYTE("jdbc:yugabytedb://", YSQL_PORT),
    /** org.postgresql:postgresql. */
    PGJDBC("jdbc:postgresql://", 5432);

    private final String prefix;
    private final int defaultPort;

    Driver(String prefix, int defaultPort) {
      this.prefix = prefix;
      this.defaultPort = defaultPort;
    }

    public String prefix() {
      return prefix;
    }

    /** The port the driver assumes for a host given without one. */
    public int defaultPort() {
      return defaultPort;
    }
  }

  private final Driver driver;
  private final HostList hosts;
  private final String database;
  private final String user;
  private final String password;
  /** Options in URL order; a null value is a bare name. */
  private final Map<String, String> options;

  private YsqlEndpoint(Driver driver, HostList hosts, String database, String user, String password,
      Map<String, String> options) {
    this.driver = Objects.requireNonNull(driver);
    this.hosts = Objects.requireNonNull(hosts);
    this.database = Objects.requireNonNull(database);
    this.user = user == null ? "" : user;
    this.password = password == null ? "" : password;
    this.options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
  }

  /** An endpoint from flags, with {@link #DEFAULT_OPTIONS}. An empty user or password is not sent. */
  public static YsqlEndpoint of(Driver driver, HostList hosts, String database, String user, String password) {
    return new YsqlEndpoint(driver, hosts, database, user, password, Map.of()).withOptions(DEFAULT_OPTIONS);
  }

  /**
   * A JDBC URL taken apart, as a BenchBase config gives it ({@code <url>}), with its options kept
   * in order; a host without a port takes the driver's default. User and password come from the
   * URL's options if it has them, else are empty until {@link #withUser} / {@link #withPassword}.
   */
  public static YsqlEndpoint parse(String jdbcUrl) {
    Matcher m = URL.matcher(jdbcUrl == null ? "" : jdbcUrl.strip());
    if (!m.matches() || m.group(3).isEmpty() || m.group(2).isBlank()) {
      throw new UserError("<url> '" + jdbcUrl
          + "' is not a jdbc:postgresql:// or jdbc:yugabytedb:// URL with a database");
    }
    Driver driver = m.group(1).equals(Driver.YUGABYTE.prefix) ? Driver.YUGABYTE : Driver.PGJDBC;
    return new YsqlEndpoint(driver, HostList.parse(m.group(2), driver.defaultPort), m.group(3), "", "", Map.of())
        .withOptions(m.group(4));
  }

  public Driver driver() {
    return driver;
  }

  public HostList hosts() {
    return hosts;
  }

  public String database() {
    return database;
  }

  public String user() {
    return user;
  }

  /**
   * The password, sent as a connection property; for hiding it in what a run prints and records.
   * Empty when none is given.
   */
  public String password() {
    return password;
  }

  /** The URL options in order (a null value is a name without '='); never the password. */
  public Map<String, String> options() {
    return options;
  }

  /**
   * How the connection is secured, for a plan: the URL's sslmode (and certificates), else the
   * driver's default, TLS when the server offers it ({@code sslmode=prefer}).
   */
  public String tls() {
    Map<String, String> o = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    o.putAll(options());
    String mode = o.get("sslmode");
    if (mode == null) {
      return o.containsKey("ssl") ? "ssl=" + o.get("ssl") : "when the server offers it (the driver's sslmode=prefer)";
    }
    List<String> files = java.util.stream.Stream.of("sslrootcert", "sslcert", "sslkey").filter(o::containsKey)
        .map(k -> k + "=" + o.get(k)).toList();
    return "sslmode=" + mode + (files.isEmpty() ? "" : " (" + String.join(", ", files) + ")");
  }

  public boolean isYugabyteDriver() {
    return driver == Driver.YUGABYTE;
  }

  /** True when the smart driver spreads connections over the tservers it discovers. */
  public boolean loadBalance() {
    String v = options.get(LOAD_BALANCE);
    return driver == Driver.YUGABYTE && v != null && !v.equalsIgnoreCase("false");
  }

  public YsqlEndpoint withHosts(HostList newHosts) {
    return new YsqlEndpoint(driver, newHosts, database, user, password, options);
  }

  public YsqlEndpoint withDatabase(String newDatabase) {
    return new YsqlEndpoint(driver, hosts, newDatabase, user, password, options);
  }

  public YsqlEndpoint withUser(String newUser) {
    return new YsqlEndpoint(driver, hosts, database, newUser, password, options);
  }

  public YsqlEndpoint withPassword(String newPassword) {
    return new YsqlEndpoint(driver, hosts, database, user, newPassword, options);
  }

  /**
   * The smart driver's {@code load-balance} on or off, in its place among the options. Off is
   * what PostgreSQL needs: it has no {@code yb_servers()} for the driver to discover nodes with.
   * A placement policy already set ({@code load-balance=prefer-rr}) counts as on and is kept.
   * pgjdbc has no such option, so for it this is the same endpoint.
   */
  public YsqlEndpoint withLoadBalance(boolean on) {
    if (driver != Driver.YUGABYTE || (on == loadBalance() && options.containsKey(LOAD_BALANCE))) {
      return this;
    }
    return withOption(LOAD_BALANCE, Boolean.toString(on));
  }

  /**
   * Sets one option, in its place if it is there, else last. {@code user} and {@code password}
   * (in any case) set the user and password instead, as they are given to the driver apart.
   */
  public YsqlEndpoint withOption(String name, String value) {
    if (name.equalsIgnoreCase("user")) {
      return withUser(value);
    }
    if (name.equalsIgnoreCase("password")) {
      return withPassword(value);
    }
    Map<String, String> o = new LinkedHashMap<>(options);
    o.put(name, value);
    return new YsqlEndpoint(driver, hosts, database, user, password, o);
  }

  /**
   * Sets each option of a URL query string ({@code a=1&b=2}) in turn, as {@link #withOption}.
   * Values stay as written (URL-encoded) in the URL; a user or password is decoded, as the
   * driver would decode it.
   */
  public YsqlEndpoint withOptions(String query) {
    YsqlEndpoint e = this;
    for (Map.Entry<String, String> o : parseQuery(query).entrySet()) {
      String name = o.getKey();
      String value = o.getValue();
      boolean credential = name.equalsIgnoreCase("user") || name.equalsIgnoreCase("password");
      e = e.withOption(name, credential && value != null ? URLDecoder.decode(value, StandardCharsets.UTF_8) : value);
    }
    return e;
  }

  /** A URL query string's options in order, as written; a null value for a name without '='. */
  public static Map<String, String> parseQuery(String query) {
    Map<String, String> out = new LinkedHashMap<>();
    if (query == null || query.isBlank()) {
      return out;
    }
    for (String part : query.strip().split("&")) {
      if (part.isEmpty()) {
        continue;
      }
      int eq = part.indexOf('=');
      String name = eq < 0 ? part : part.substring(0, eq);
      out.put(name, eq < 0 ? null : part.substring(eq + 1));
    }
    return out;
  }

  /** Options as a URL query string: the inverse of {@link #parseQuery}. */
  public static String query(Map<String, String> options) {
    StringBuilder q = new StringBuilder();
    options.forEach((name, value) -> {
      q.append(q.length() == 0 ? "" : "&").append(name);
      if (value != null) {
        q.append('=').append(value);
      }
    });
    return q.toString();
  }

  /** The URL of the endpoint's own database. */
  public String url() {
    return url(database);
  }

  /**
   * The JDBC URL for {@code db}: the options in order, then, for pgjdbc over several hosts,
   * {@code loadBalanceHosts=true} unless the options say otherwise (pgjdbc would otherwise send
   * every connection to the first host). It never holds the password, so it is safe to print.
   */
  public String url(String db) {
    Map<String, String> o = options;
    if (driver == Driver.PGJDBC && hosts.hosts().size() > 1 && !o.containsKey(PGJDBC_LOAD_BALANCE_HOSTS)) {
      o = new LinkedHashMap<>(o);
      o.put(PGJDBC_LOAD_BALANCE_HOSTS, "true");
    }
    String query = query(o);
    return driver.prefix + hosts + "/" + db + (query.isEmpty() ? "" : "?" + query);
  }

  public Connection connect() throws SQLException {
    return connect(database);
  }

  public Connection connect(String db) throws SQLException {
    return connect(db, new Properties());
  }

  /**
   * A connection that sends each statement as plain text (the simple query protocol), so that a
   * statement text holding {@code $1} — as the server's statistics show statements — reaches the
   * server as written instead of as a statement with parameters to bind.
   */
  public Connection connectSimpleProtocol() throws SQLException {
    Properties props = new Properties();
    props.setProperty("preferQueryMode", "simple");
    return connect(database, props);
  }

  private Connection connect(String db, Properties props) throws SQLException {
    if (!user.isEmpty()) {
      props.setProperty("user", user);
    }
    if (!password.isEmpty()) {
      props.setProperty("password", password);
    }
    // Hundreds of client threads opening their connections at the same instant are a connection
    // storm: every server process forks (PostgreSQL) or sets up a backend (YugabyteDB) at once and
    // handshakes time out on a busy machine. Queued here, each connection still opens as soon as
    // a handshake slot is free, and a run of 400 threads starts in about the same time.
    try {
      HANDSHAKES.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting to connect", "08001", e);
    }
    try {
      return DriverManager.getConnection(url(db), props);
    } finally {
      HANDSHAKES.release();
    }
  }

  /** A connection to the endpoint's database with autocommit on or off. */
  public Connection connect(boolean autoCommit) throws SQLException {
    Connection c = connect();
    try {
      c.setAutoCommit(autoCommit);
      return c;
    } catch (SQLException e) {
      c.close();
      throw e;
    }
  }

  /**
   * Connects once to {@link #MAINTENANCE_DB} and asks the server what it is; a failure is a
   * one-line {@link UserError} that tells an unreachable server from a refused login. The smart
   * driver's balancing is off for this, as the server may turn out to be PostgreSQL.
   */
  public ServerInfo detect() {
    try (Connection c = withLoadBalance(false).connect(MAINTENANCE_DB)) {
      return ServerInfo.detect(c);
    } catch (SQLException e) {
      throw connectError(e);
    }
  }

  /**
   * The one-line error for a connection that failed: TLS refused (the server's certificate, or a
   * server without TLS), the server unreachable, or the login refused.
   */
  public UserError connectError(SQLException e) {
    String why = ErrorText.firstLine(e);
    if (isTls(e)) {
      return new UserError("Cannot connect to YSQL at " + hosts + " over TLS: " + why
          + "; check sslmode and sslrootcert in the URL options (docs/yugabytedb.md)", e);
    }
    if (SqlErrors.isConnectionLost(e)) {
      return new UserError("Cannot connect to YSQL at " + hosts + ": " + why
          + "; check --hosts (or YSQL_NODES) and that the server is up", e);
    }
    return new UserError("YSQL at " + hosts + " refused the connection: " + why
        + "; check --user, --password, --database", e);
  }

  /** Whether TLS failed: pgjdbc's "SSL error: …", a server without TLS, a name not in its certificate. */
  private static boolean isTls(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      if (t instanceof javax.net.ssl.SSLException || t instanceof java.security.cert.CertificateException
          || m.startsWith("SSL error") || m.contains("does not support SSL") || m.contains("hostnameverifier")) {
        return true;
      }
    }
    return false;
  }

  /** Creates the endpoint's database unless the server has it; says so on {@code log} when it does. */
  public void createDatabaseIfMissing(Consumer<String> log) {
    try (Connection c = withLoadBalance(false).connect(MAINTENANCE_DB)) {
      try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
        ps.setString(1, database);
        try (ResultSet rs = ps.executeQuery()) {
          if (rs.next()) {
            return;
          }
        }
      }
      log.accept("Creating database " + database);
      try (Statement st = c.createStatement()) {
        st.execute("CREATE DATABASE " + quoteIdent(database));
      } catch (SQLException e) {
        // duplicate_database: another run created it between the check and here, which is as good.
        if (!"42P04".equals(e.getSQLState())) {
          throw e;
        }
      }
    } catch (SQLException e) {
      if (SqlErrors.isConnectionLost(e)) {
        throw connectError(e);
      }
      throw new UserError("Cannot create database " + database + ": " + ErrorText.firstLine(e), e);
    }
  }

  /**
   * True when {@code table} exists in the endpoint's database, as an unquoted name resolves on the
   * search path. Fails with SQLSTATE 3D000 when the database itself does not exist.
   */
  public boolean tableExists(String table) throws SQLException {
    try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  private static String quoteIdent(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }


  @Override
  public boolean equals(Object o) {
    return o instanceof YsqlEndpoint e && driver == e.driver && hosts.equals(e.hosts) && database.equals(e.database)
        && user.equals(e.user) && password.equals(e.password) && options.equals(e.options);
  }

  @Override
  public int hashCode() {
    return Objects.hash(driver, hosts, database, user, options);
  }

  /** The URL: never the password. */
  @Override
  public String toString() {
    return url();
  }
}
