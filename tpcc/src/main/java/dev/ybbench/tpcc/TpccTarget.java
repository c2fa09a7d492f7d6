package dev.ybbench.tpcc;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.server.ServerView;
import dev.ybbench.harness.ysql.TableClaim;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;

/** What TPC-C runs against: an embedded PostgreSQL, or the YugabyteDB nodes of --hosts / YSQL_NODES. */
final class TpccTarget implements RunLifecycle.Target {
  /** The table a TPC-C run claims for all nine: they are created and dropped together. */
  static final String CLAIMED_TABLE = "warehouse";

  private final TpccDatabase database;
  private final ServerInfo server;
  private final EmbeddedPostgres embedded;
  private final TableClaim claim;
  private final String askedVersion;
  private final Consumer<String> log;
  private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

  private TpccTarget(TpccDatabase database, ServerInfo server, EmbeddedPostgres embedded, TableClaim claim,
      String askedVersion, Consumer<String> log) {
    this.database = database;
    this.server = server;
    this.embedded = embedded;
    this.claim = claim;
    this.askedVersion = askedVersion;
    this.log = log;
  }

  /**
   * Starts or finds the server, asks it what it is, creates the config's database if missing and
   * claims the TPC-C tables against other runs: exclusive when this run drops or creates them,
   * shared otherwise (see {@link TableClaim}).
   *
   * @param endpoint    the config's URL with the user and password to use
   * @param hostSpec    --hosts or YSQL_NODES; null for an embedded server
   * @param connections connections the run will open, for the embedded server's limit
   */
  static TpccTarget open(YsqlEndpoint endpoint, String isolation, String hostSpec, String dbVersion,
      int connections, boolean recreates, Consumer<String> log) {
    EmbeddedPostgres embedded = null;
    TableClaim claim = null;
    try {
      if (hostSpec == null) {
        log.accept("Starting embedded PostgreSQL " + (dbVersion == null ? "(default version)" : dbVersion) + " …");
        embedded = EmbeddedPostgres.start(dbVersion, connections, log);
        log.accept("Embedded PostgreSQL " + embedded.version() + " on " + embedded.hostPort());
        endpoint = endpoint.withHosts(HostList.parse(embedded.hostPort(), 5432)).withUser(EmbeddedPostgres.SUPERUSER);
      } else {
        endpoint = endpoint.withHosts(HostList.parse(hostSpec, YsqlEndpoint.YSQL_PORT));
      }
      ServerInfo server = endpoint.detect();
      log.accept("Server: " + server.fullVersion());
      if (!server.isYugabyte()) {
        endpoint = endpoint.withLoadBalance(false);
      }
      endpoint.createDatabaseIfMissing(log);
      claim = TableClaim.take(endpoint, CLAIMED_TABLE, recreates ? TableClaim.Mode.EXCLUSIVE : TableClaim.Mode.SHARED,
          log);
      String asked = embedded == null ? null
          : (dbVersion == null ? "default" : dbVersion) + " (" + embedded.version() + ")";
      return new TpccTarget(new TpccDatabase(endpoint, isolation), server, embedded, claim, asked, log);
    } catch (SQLException e) {
      close(claim, embedded, log);
      throw endpoint.connectError(e);
    } catch (RuntimeException e) {
      close(claim, embedded, log);
      throw e;
    }
  }

  /** After creating the tables, let other clients of the same database use them. */
  void shareTables() throws SQLException {
    claim.downgrade();
  }

  @Override
  public ServerView serverView(List<Integer> metricsPorts) {
    return ServerView.forYsql(server, database.endpoint(), embedded == null ? null : embedded.pid(), metricsPorts,
        log);
  }

  TpccDatabase database() {
    return database;
  }

  @Override
  public ServerInfo server() {
    return server;
  }

  @Override
  public String hosts() {
    return database.endpoint().hosts().toString();
  }

  @Override
  public String embeddedVersion() {
    return askedVersion;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      close(claim, embedded, log);
    }
  }

  private static void close(TableClaim claim, EmbeddedPostgres pg, Consumer<String> log) {
    if (claim != null) {
      claim.close();
    }
    if (pg != null) {
      log.accept("Stopping embedded PostgreSQL " + pg.version());
      pg.close();
    }
  }
}
