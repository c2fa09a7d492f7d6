package dev.ybbench.ycsb.ysql;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.run.ClientThreads;
import dev.ybbench.harness.server.ServerView;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.harness.ysql.TableClaim;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import dev.ybbench.ycsb.ApiTarget;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import site.ycsb.DB;

/** YSQL for the runner: an embedded PostgreSQL, or the YugabyteDB nodes given by --hosts / YSQL_NODES. */
public final class YsqlTarget implements ApiTarget {
  private final ServerInfo server;
  private final YsqlConfig config;
  private final ServerTarget target;
  private final Consumer<String> log;
  /** This run's claim on its table, from createSchema or useExistingSchema until close (which Ctrl-C may call). */
  private final AtomicReference<TableClaim> claim = new AtomicReference<>();
  /** With --driver vertx: the run phase's event loops, from {@link #runThreads} until close. */
  private final AtomicReference<VertxClient> vertx = new AtomicReference<>();

  private YsqlTarget(ServerInfo server, YsqlConfig config, ServerTarget target, Consumer<String> log) {
    this.server = server;
    this.config = config;
    this.target = target;
    this.log = log;
  }

  /**
   * Starts or finds the server, asks it what it is, and settles the binding's properties in
   * {@code props} (hosts, user, dialect, load balancing, a password given among the URL
   * options) to match.
   */
  public static YsqlTarget open(ServerTarget target, int threads, Properties props, Consumer<String> log) {
    HostList hosts = target.start(threads + 20, log);
    props.setProperty(YsqlConfig.HOSTS, hosts.toString()); // for run.json; the bindings take the list itself
    if (target.embeddedUser() != null) {
      props.putIfAbsent(YsqlConfig.USER, target.embeddedUser());
    }
    try {
      YsqlConfig probe = YsqlConfig.from(props, hosts);
      movePasswordOutOfUrlOptions(props, probe.endpoint());
      ServerInfo server = probe.endpoint().detect();
      log.accept("Server: " + server.fullVersion());
      props.setProperty(YsqlConfig.DIALECT, SqlDialect.of(server).name());
      // Unless asked for one: the smart driver where its topology awareness has nodes to balance,
      // pgjdbc elsewhere, which reads faster for less client CPU (docs/performance.md).
      props.putIfAbsent(YsqlConfig.DRIVER, server.isYugabyte() ? "yugabyte" : "pgjdbc");
      probe = YsqlConfig.from(props, hosts);
      if (!server.isYugabyte() && probe.endpoint().loadBalance()) {
        log.accept("note: " + server.product()
            + " is not YugabyteDB, so the smart driver connects without load balancing");
        props.setProperty(YsqlConfig.LOAD_BALANCE, "false");
      }
      if (!server.isYugabyte() && !probe.table().split().none()) {
        String split = probe.table().tablets() > 0 ? "--tablets (yb.tablets)" : "--split-at (yb.split_at)";
        log.accept("note: " + split + " applies to YugabyteDB only; " + server.product() + " ignores it");
      }
      YsqlConfig config = YsqlConfig.from(props, hosts);
      config.schema(); // refuses a layout the dialect cannot express, before anything is created
      return new YsqlTarget(server, config, target, log);
    } catch (RuntimeException e) {
      target.close();
      throw e;
    }
  }

  /**
   * run.json records every property by value unless its name says password, so a password given
   * among the URL options moves to {@link YsqlConfig#PASSWORD}; the endpoint took it as the driver
   * would (over the property, decoded).
   */
  private static void movePasswordOutOfUrlOptions(Properties props, YsqlEndpoint endpoint) {
    Map<String, String> options = YsqlEndpoint.parseQuery(props.getProperty(YsqlConfig.URL_OPTIONS));
    if (options.keySet().removeIf(name -> name.equalsIgnoreCase("password"))) {
      props.setProperty(YsqlConfig.URL_OPTIONS, YsqlEndpoint.query(options));
      props.setProperty(YsqlConfig.PASSWORD, endpoint.password());
    }
  }

  @Override
  public ServerInfo server() {
    return server;
  }

  @Override
  public String hosts() {
    return config.endpoint().hosts().toString();
  }

  @Override
  public String embeddedVersion() {
    return target.embeddedVersion();
  }

  /** Drops and creates the table under an exclusive claim, then holds it shared until {@link #close()}. */
  @Override
  public void createSchema(String fleet, Consumer<String> schemaLog, Consumer<Runnable> onStop) {
    hold(null); // a claim this run already holds would conflict with its own exclusive one
    hold(YsqlSetup.createSchema(config, fleet, schemaLog, onStop));
  }

  @Override
  public boolean schemaReady(String fleet) {
    return YsqlSetup.schemaReady(config, fleet);
  }

  @Override
  public void useExistingSchema(Consumer<String> schemaLog) {
    hold(null);
    hold(YsqlSetup.useExistingSchema(config, schemaLog));
  }

  @Override
  public DB newBinding() {
    return new YsqlDB(config.endpoint().hosts());
  }

  /**
   * With --driver vertx: virtual threads on the event-loop client's loops, one loop per OS thread
   * --jobs asks for, else per core.
   */
  @Override
  public ClientThreads runThreads(ClientThreads asked) {
    if (!config.vertx()) {
      return asked;
    }
    int loops = asked.jobs() > 0 ? asked.jobs() : Runtime.getRuntime().availableProcessors();
    VertxClient client = VertxClient.start(loops, config.endpoint());
    replaceVertx(client);
    if (!client.epoll()) {
      log.accept("note: Netty's epoll transport is not available here; the event loops use Java's selector");
    }
    return client.threads();
  }

  @Override
  public DB newRunBinding() {
    VertxClient client = vertx.get();
    return client == null ? newBinding() : new YsqlVertxDB(client, config);
  }

  @Override
  public ServerView serverView(List<Integer> metricsPorts) {
    return ServerView.forYsql(server, config.endpoint(), target.serverPid(), metricsPorts, log);
  }

  @Override
  public void close() {
    hold(null);
    replaceVertx(null);
    target.close();
  }

  private void replaceVertx(VertxClient next) {
    VertxClient previous = vertx.getAndSet(next);
    if (previous != null) {
      previous.close();
    }
  }

  private void hold(TableClaim next) {
    TableClaim previous = claim.getAndSet(next);
    if (previous != null) {
      previous.close();
    }
  }
}
