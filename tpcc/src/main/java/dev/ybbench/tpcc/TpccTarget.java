package dev.ybbench.tpcc;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.run.RunLifecycle;
import java.util.function.Consumer;

/** What TPC-C runs against: an embedded PostgreSQL, or the YugabyteDB nodes of --hosts / YSQL_NODES. */
final class TpccTarget implements RunLifecycle.Target {
  private final TpccDatabase database;
  private final ServerInfo server;
  private final EmbeddedPostgres embedded;
  private final String askedVersion;
  private final String hosts;
  private final Consumer<String> log;
  private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

  private TpccTarget(TpccDatabase database, ServerInfo server, EmbeddedPostgres embedded, String askedVersion,
      String hosts, Consumer<String> log) {
    this.database = database;
    this.server = server;
    this.embedded = embedded;
    this.askedVersion = askedVersion;
    this.hosts = hosts;
    this.log = log;
  }

  /**
   * Starts or finds the server, asks it what it is and creates the config's database if missing.
   *
   * @param hostSpec   --hosts or YSQL_NODES; null or blank for an embedded server
   * @param connections connections the run will open, for the embedded server's limit
   */
  static TpccTarget open(JdbcUrl url, String user, String password, String isolation, String hostSpec,
      String dbVersion, int connections, Consumer<String> log) {
    EmbeddedPostgres embedded = null;
    try {
      if (hostSpec == null) {
        log.accept("Starting embedded PostgreSQL " + (dbVersion == null ? "(default version)" : dbVersion) + " …");
        embedded = EmbeddedPostgres.start(dbVersion, connections, log);
        log.accept("Embedded PostgreSQL " + embedded.version() + " on " + embedded.hostPort());
        url = url.withHosts(embedded.hostPort());
        if (url.isYugabyteDriver()) {
          url = url.withParameter("load-balance", "false");
        }
        user = EmbeddedPostgres.SUPERUSER;
      } else {
        url = url.withHosts(HostList.parse(hostSpec, 5433).toString());
      }
      TpccDatabase db = new TpccDatabase(url, user, password, isolation);
      ServerInfo server = db.detect();
      log.accept("Server: " + server.fullVersion());
      db.createDatabaseIfMissing(log);
      String asked = embedded == null ? null
          : (dbVersion == null ? "default" : dbVersion) + " (" + embedded.version() + ")";
      return new TpccTarget(db, server, embedded, asked, url.hosts(), log);
    } catch (java.sql.SQLException e) {
      close(embedded, log);
      throw new UserError("Cannot create the database: " + e.getMessage().split("\n")[0]);
    } catch (RuntimeException e) {
      close(embedded, log);
      throw e;
    }
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
    return hosts;
  }

  @Override
  public String embeddedVersion() {
    return askedVersion;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      close(embedded, log);
    }
  }

  private static void close(EmbeddedPostgres pg, Consumer<String> log) {
    if (pg != null) {
      log.accept("Stopping embedded PostgreSQL " + pg.version());
      pg.close();
    }
  }
}
