package dev.ybbench.harness.ysql;

import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.server.ServerView;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * What a benchmark whose tables are created and dropped together runs against over YSQL (TPC-C's
 * nine, sysbench's sbtest1 … N): an embedded PostgreSQL, or the nodes of --hosts / YSQL_NODES;
 * what the server is; the database, created when missing; and the run's {@link TableClaim} on
 * the tables against other runs, through one table that stands for them all.
 */
public final class SqlTarget implements RunLifecycle.Target {
  private final YsqlEndpoint endpoint;
  private final ServerInfo server;
  private final ServerTarget target;
  private final TableClaim claim;
  private final Consumer<String> log;
  private final AtomicBoolean closed = new AtomicBoolean();

  private SqlTarget(YsqlEndpoint endpoint, ServerInfo server, ServerTarget target, TableClaim claim,
      Consumer<String> log) {
    this.endpoint = endpoint;
    this.server = server;
    this.target = target;
    this.claim = claim;
    this.log = log;
  }

  /**
   * Starts or finds the server, asks it what it is, creates the database if missing and claims
   * the tables: exclusive when this run may drop or create them, shared otherwise. A PostgreSQL
   * given with --hosts is connected to without the smart driver's load balancing, which it lacks.
   *
   * @param endpoint    the database, user and options to connect with (the hosts are the target's)
   * @param connections connections the run will open, for the embedded server's limit
   * @param claimed     the table that stands for all of the run's
   */
  public static SqlTarget open(YsqlEndpoint endpoint, ServerTarget target, int connections, String claimed,
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
      claim = TableClaim.take(endpoint, claimed, recreates ? TableClaim.Mode.EXCLUSIVE : TableClaim.Mode.SHARED, log);
      return new SqlTarget(endpoint, server, target, claim, log);
    } catch (SQLException e) {
      close(claim, target);
      throw endpoint.connectError(e);
    } catch (RuntimeException e) {
      close(claim, target);
      throw e;
    }
  }

  /** Once the tables are there, other runs may use them too. */
  public void shareTables() throws SQLException {
    claim.downgrade();
  }

  /** The endpoint as connected: the server's hosts and user. */
  public YsqlEndpoint endpoint() {
    return endpoint;
  }

  @Override
  public ServerView serverView(List<Integer> metricsPorts) {
    return ServerView.forYsql(server, endpoint, target.serverPid(), metricsPorts, log);
  }

  @Override
  public ServerInfo server() {
    return server;
  }

  @Override
  public String hosts() {
    return endpoint.hosts().toString();
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
