package dev.ybbench.ycsb.ysql;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.ycsb.ApiTarget;
import dev.ybbench.harness.ysql.SqlDialect;
import java.util.Properties;
import java.util.function.Consumer;
import site.ycsb.DB;

/** YSQL for the runner: an embedded PostgreSQL, or the YugabyteDB nodes given by --hosts / YSQL_NODES. */
public final class YsqlTarget implements ApiTarget {
  private final ServerInfo server;
  private final YsqlConfig config;
  private final EmbeddedPostgres embedded;
  private final String askedVersion;
  private final Consumer<String> log;

  private YsqlTarget(ServerInfo server, YsqlConfig config, EmbeddedPostgres embedded, String askedVersion,
      Consumer<String> log) {
    this.server = server;
    this.config = config;
    this.embedded = embedded;
    this.askedVersion = askedVersion;
    this.log = log;
  }

  /**
   * Starts or finds the server, asks it what it is, and settles the binding's properties in
   * {@code props} (hosts, user, dialect, load balancing) to match.
   */
  public static YsqlTarget open(Options o, Properties props, Consumer<String> log) {
    if (o.nodes() != 1) {
      throw new UserError("--nodes applies to YCQL's embedded Cassandra; the embedded PostgreSQL is one server");
    }
    String hostSpec = o.hosts() != null ? o.hosts() : System.getenv("YSQL_NODES");
    EmbeddedPostgres embedded = null;
    if (hostSpec == null || hostSpec.isBlank()) {
      if (!o.loads()) {
        throw new UserError("--phase run needs --hosts: an embedded server starts empty, so load it in the same run");
      }
      log.accept("Starting embedded PostgreSQL " + (o.dbVersion() == null ? "(default version)" : o.dbVersion())
          + " …");
      embedded = EmbeddedPostgres.start(o.dbVersion(), o.threads() + 20, log);
      log.accept("Embedded PostgreSQL " + embedded.version() + " on " + embedded.hostPort()
          + (embedded.serverUser().equals(System.getProperty("user.name")) ? ""
              : " (running as user " + embedded.serverUser() + ")"));
      props.setProperty(YsqlConfig.HOSTS, embedded.hostPort());
      props.putIfAbsent(YsqlConfig.USER, EmbeddedPostgres.SUPERUSER);
    } else {
      if (o.dbVersion() != null) {
        throw new UserError("--db-version picks the embedded server's version; it cannot apply with --hosts");
      }
      props.setProperty(YsqlConfig.HOSTS, HostList.parse(hostSpec, YsqlConfig.DEFAULT_PORT).toString());
    }
    try {
      YsqlConfig probe = YsqlConfig.from(props);
      ServerInfo server = YsqlSetup.detect(probe.withLoadBalance(false));
      log.accept("Server: " + server.fullVersion());
      props.setProperty(YsqlConfig.DIALECT,
          (server.isYugabyte() ? SqlDialect.YUGABYTEDB : SqlDialect.POSTGRESQL).name());
      if (!server.isYugabyte() && probe.driver() == YsqlConfig.Driver.YUGABYTE && probe.loadBalance()) {
        log.accept("note: " + server.product()
            + " is not YugabyteDB, so the smart driver connects without load balancing");
        props.setProperty(YsqlConfig.LOAD_BALANCE, "false");
      }
      if (!server.isYugabyte() && probe.table().tablets() > 0) {
        log.accept("note: --tablets applies to YugabyteDB only; " + server.product() + " ignores it");
      }
      YsqlConfig config = YsqlConfig.from(props);
      config.schema(); // refuses a layout the dialect cannot express, before anything is created
      String asked = embedded == null ? null
          : (o.dbVersion() == null ? "default" : o.dbVersion()) + " (" + embedded.version() + ")";
      return new YsqlTarget(server, config, embedded, asked, log);
    } catch (RuntimeException e) {
      if (embedded != null) {
        embedded.close();
      }
      throw e;
    }
  }

  @Override
  public ServerInfo server() {
    return server;
  }

  @Override
  public String hosts() {
    return config.hosts().toString();
  }

  @Override
  public String embeddedVersion() {
    return askedVersion;
  }

  @Override
  public void createSchema(Consumer<String> schemaLog) {
    YsqlSetup.createSchema(config, schemaLog);
  }

  @Override
  public DB newBinding() {
    return new YsqlDB();
  }

  @Override
  public void close() {
    if (embedded != null) {
      log.accept("Stopping embedded PostgreSQL " + embedded.version());
      embedded.close();
    }
  }
}
