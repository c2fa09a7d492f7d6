package dev.ybbench.tpcc;

import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.server.ServerView;
import dev.ybbench.harness.ysql.TableClaim;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import dev.ybbench.tpcc.core.TpccDatabase;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Consumer;

/** What TPC-C runs against: an embedded PostgreSQL, or the YugabyteDB nodes of --hosts / YSQL_NODES. */
final class TpccTarget implements RunLifecycle.Target {
  /** The table a TPC-C run claims for all nine: they are created and dropped together. */
  static final String CLAIMED_TABLE = "warehouse";

  private final TpccDatabase database;
  private final ServerInfo server;
  private final ServerTarget target;
  private final TableClaim claim;
  private final Consumer<String> log;
  private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

  private TpccTarget(TpccDatabase database, ServerInfo server, ServerTarget target, TableClaim claim,
      Consumer<String> log) {
    this.database = database;
    this.server = server;
    this.target = target;
    this.claim = claim;
    this.log = log;
  }

  /**
   * Starts or finds the server, asks it what it is, creates the config's database if missing and
   * claims the TPC-C tables against other runs: exclusive when this run drops or creates them,
   * shared otherwise (see {@link TableClaim}).
   *
   * @param endpoint    the config's URL with the user and password to use
   * @param target      the server chosen (given hosts or an embedded one)
   * @param connections connections the run will open, for the embedded server's limit
   */
  static TpccTarget open(YsqlEndpoint endpoint, String isolation, ServerTarget target, int connections,
      boolean recreates, Consumer<String> log) {
    TableClaim claim = null;
    try {
      endpoint = endpoint.withHosts(target.start(connections, log));
      if (target.embeddedUser() != null) {
        endpoint = endpoint.withUser(target.embeddedUser());
      }
      ServerInfo server = endpoint.detect();
      log.accept("Server: " + server.fullVersion());
      if (!server.isYugabyte()) {
        endpoint = endpoint.withLoadBalance(false);
      }
      endpoint.createDatabaseIfMissing(log);
      claim = TableClaim.take(endpoint, CLAIMED_TABLE, recreates ? TableClaim.Mode.EXCLUSIVE : TableClaim.Mode.SHARED,
          log);
      return new TpccTarget(new TpccDatabase(endpoint, isolation), server, target, claim, log);
    } catch (SQLException e) {
      close(claim, target);
      throw endpoint.connectError(e);
    } catch (RuntimeException e) {
      close(claim, target);
      throw e;
    }
  }

  /** After creating the tables, let other clients of the same database use them. */
  void shareTables() throws SQLException {
    claim.downgrade();
  }

  @Override
  public ServerView serverView(List<Integer> metricsPorts) {
    return ServerView.forYsql(server, database.endpoint(), target.serverPid(), metricsPorts,
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
    return target.embeddedVersion();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      close(claim, target);
    }
  }

  private static void close(TableClaim claim, ServerTarget target) {
    if (claim != null) {
      claim.close();
    }
    target.close();
  }
}
