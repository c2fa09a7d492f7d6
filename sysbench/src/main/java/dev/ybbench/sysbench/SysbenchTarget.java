package dev.ybbench.sysbench;

import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.run.RunLifecycle;
import dev.ybbench.harness.server.ServerView;
import dev.ybbench.harness.ysql.TableClaim;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/** What sysbench runs against: an embedded PostgreSQL, or the YugabyteDB nodes of --hosts / YSQL_NODES. */
final class SysbenchTarget implements RunLifecycle.Target {
  /** The table a run claims for all of sbtest1 … sbtestN: they are created and dropped together. */
  static final String CLAIMED_TABLE = "sbtest1";

  private final YsqlEndpoint endpoint;
  private final ServerInfo server;
  private final ServerTarget target;
  private final TableClaim claim;
  private final Consumer<String> log;
  private final AtomicBoolean closed = new AtomicBoolean();

  private SysbenchTarget(YsqlEndpoint endpoint, ServerInfo server, ServerTarget target, TableClaim claim,
      Consumer<String> log) {
    this.endpoint = endpoint;
    this.server = server;
    this.target = target;
    this.claim = claim;
    this.log = log;
  }

  /**
   * Starts or finds the server, asks it what it is, creates the database if missing and claims
   * the tables against other runs: exclusive when this run may drop or create them, shared
   * otherwise ({@link TableClaim}).
   */
  static SysbenchTarget open(YsqlEndpoint endpoint, ServerTarget target, int connections, boolean recreates,
      Consumer<String> log) {
    TableClaim claim = null;
    try {
      endpoint = endpoint.withHosts(target.start(connections, log));
      if (target.embeddedUser() != null) {
        endpoint = endpoint.withUser(target.embeddedUser());
      }
      ServerInfo server = endpoint.detect();
      log.accept("Server: " + server.fullVersion());
      endpoint.createDatabaseIfMissing(log);
      claim = TableClaim.take(endpoint, CLAIMED_TABLE, recreates ? TableClaim.Mode.EXCLUSIVE : TableClaim.Mode.SHARED,
          log);
      return new SysbenchTarget(endpoint, server, target, claim, log);
    } catch (SQLException e) {
      close(claim, target);
      throw endpoint.connectError(e);
    } catch (RuntimeException e) {
      close(claim, target);
      throw e;
    }
  }

  /** Once the tables are there, other runs may use them too. */
  void shareTables() throws SQLException {
    claim.downgrade();
  }

  YsqlEndpoint endpoint() {
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
