package dev.ybbench.ycsb.ycql;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.embedded.EmbeddedCassandra;
import dev.ybbench.harness.server.ServerView;
import dev.ybbench.harness.server.YugabyteView;
import dev.ybbench.ycsb.ApiTarget;
import dev.ybbench.ycsb.schema.CqlDialect;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import site.ycsb.DB;

/** YCQL for the runner: an embedded Cassandra cluster, or the YugabyteDB nodes given by --hosts / YCQL_NODES. */
public final class YcqlTarget implements ApiTarget {
  private final ServerInfo server;
  private final YcqlConfig config;
  private final ServerTarget target;
  private final Consumer<String> log;
  private CqlTableClaim claim;
  private CassandraView view;

  private YcqlTarget(ServerInfo server, YcqlConfig config, ServerTarget target, Consumer<String> log) {
    this.server = server;
    this.config = config;
    this.target = target;
    this.log = log;
  }

  /**
   * Starts or finds the server, asks it what it is, and settles the binding's properties in
   * {@code props} (hosts, dialect, partition metadata, replication factor) to match.
   */
  public static YcqlTarget open(ServerTarget target, Properties props, Consumer<String> log) {
    YcqlConfig.from(props).schema(); // a bad consistency level or layout fails here, before a server starts
    HostList hosts = target.start(0, log);
    props.setProperty(YcqlConfig.HOSTS, hosts.toString()); // for run.json; the bindings take the list itself
    if (target.embedded()) {
      // Replicate to every node unless told otherwise (at most 3, the usual production factor).
      props.putIfAbsent(YcqlConfig.RF, Integer.toString(Math.min(3, target.nodes())));
    }
    try {
      ServerInfo server = YcqlSetup.detect(YcqlConfig.from(props, hosts));
      log.accept("Server: " + server.fullVersion());
      props.setProperty(YcqlConfig.DIALECT, (server.isYugabyte() ? CqlDialect.YUGABYTEDB : CqlDialect.CASSANDRA).name());
      props.setProperty(YcqlConfig.PARTITION_METADATA, Boolean.toString(server.isYugabyte()));
      props.setProperty(YcqlConfig.DRIVER, YcqlConfig.driverCoordinates());
      YcqlConfig config = YcqlConfig.from(props, hosts);
      if (!server.isYugabyte() && (config.table().tablets() > 0 || config.transactions())) {
        log.accept("note: --tablets and ycql.transactions apply to YugabyteDB only; Cassandra ignores them");
      }
      config.schema(); // refuses a layout CQL cannot express, before anything is created
      return new YcqlTarget(server, config, target, log);
    } catch (RuntimeException e) {
      target.close();
      throw e;
    }
  }

  /** The embedded cluster, for tests that stop a node in the middle of a run; null with --hosts. */
  public EmbeddedCassandra embedded() {
    return target.cassandra();
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
    return target.embeddedVersion();
  }

  @Override
  public void createSchema(String fleet, Consumer<String> schemaLog, Consumer<Runnable> onStop) {
    hold(null);
    hold(YcqlSetup.createSchema(config, fleet, schemaLog, onStop));
  }

  @Override
  public boolean schemaReady(String fleet) {
    return YcqlSetup.schemaReady(config, fleet);
  }

  /** Checks the keyspace and table, and marks the table as used by this run (see {@link CqlTableClaim}). */
  @Override
  public void useExistingSchema(Consumer<String> schemaLog) {
    hold(null);
    hold(YcqlSetup.useExistingSchema(config));
  }

  /** Lets go of the claim held, if any, and keeps {@code next}. */
  private synchronized void hold(CqlTableClaim next) {
    if (claim != null) {
      claim.close();
    }
    claim = next;
  }

  @Override
  public DB newBinding() {
    return new YcqlDB(config.hosts());
  }

  /**
   * YugabyteDB's nodes through their metrics endpoints (9000 and YCQL's 12000 unless told
   * otherwise); Cassandra's through its virtual tables, with the embedded nodes' CPU.
   */
  @Override
  public synchronized ServerView serverView(List<Integer> metricsPorts) {
    if (server.isYugabyte()) {
      return YugabyteView.of(config.hosts(), metricsPorts, List.of(YugabyteView.TSERVER_PORT, YugabyteView.YCQL_PORT),
          log);
    }
    Map<String, Long> pids = new HashMap<>();
    EmbeddedCassandra embedded = target.cassandra();
    for (int i = 1; embedded != null && i <= embedded.nodes(); i++) {
      pids.put(EmbeddedCassandra.address(i), embedded.pid(i));
    }
    view = new CassandraView(config, pids, log);
    return view;
  }

  @Override
  public void close() {
    synchronized (this) {
      if (view != null) {
        view.close();
      }
    }
    hold(null);
    target.close();
  }
}
