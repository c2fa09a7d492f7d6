package dev.ybbench.ycsb.ycql;

import dev.ybbench.harness.ErrorText;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.run.RunFailure;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** Before a run: what the CQL server is, and the keyspace and table the benchmark uses. */
public final class YcqlSetup {
  /** How long a schema change may take to answer (see {@link #ddl}). */
  static final Duration DDL_TIMEOUT = Duration.ofSeconds(60);

  /**
   * YugabyteDB's YCQL answers Cassandra's {@code release_version} with a fixed compatibility
   * version ("3.9-SNAPSHOT") and has no CQL view of its own release; it is told apart by its
   * {@code system.partitions} table, which Cassandra does not have.
   */
  static final String YUGABYTE_COMPAT_VERSION = "3.9-SNAPSHOT";

  private YcqlSetup() {}

  /**
   * Connects (a clear error if that fails) and asks the server what it is. A connection that
   * every node closed as it opened (a busy node's native transport can) is tried twice more, a
   * second apart; a refused one, or one refused over TLS or its credentials, is not.
   */
  public static ServerInfo detect(YcqlConfig config) {
    for (int attempt = 1; ; attempt++) {
      try {
        return ask(config);
      } catch (UserError e) {
        if (attempt == 3 || !(e.getCause() instanceof AllNodesFailedException all) || !closedAsItOpened(all)) {
          throw e;
        }
      }
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UserError("interrupted while connecting to YCQL at " + config.hosts());
      }
    }
  }

  /** Whether every node's every error is its channel closed under the driver, and nothing else. */
  static boolean closedAsItOpened(AllNodesFailedException e) {
    List<Throwable> errors = e.getAllErrors().values().stream().flatMap(List::stream).toList();
    return !errors.isEmpty() && errors.stream().allMatch(error -> {
      for (Throwable t = error; t != null; t = t.getCause()) {
        if (t instanceof java.nio.channels.ClosedChannelException) {
          return true;
        }
      }
      return false;
    });
  }

  private static ServerInfo ask(YcqlConfig config) {
    try (CqlSession s = config.withPartitionMetadata(false).open()) {
      Row local = s.execute("SELECT release_version FROM system.local").one();
      String release = local == null ? "unknown" : local.getString("release_version");
      boolean yugabyte;
      try {
        s.execute("SELECT keyspace_name FROM system.partitions LIMIT 1");
        yugabyte = true;
      } catch (RuntimeException e) {
        yugabyte = false;
      }
      return yugabyte
          ? new ServerInfo(ServerInfo.YUGABYTEDB, "ycql-" + release, "YugabyteDB YCQL (release_version " + release + ")")
          : new ServerInfo(ServerInfo.CASSANDRA, release, "Apache Cassandra " + release);
    } catch (RuntimeException e) {
      throw connectError(config, e);
    }
  }

  private static UserError connectError(YcqlConfig config, RuntimeException e) {
    if (e instanceof AllNodesFailedException all) {
      // The driver's own message lists every node's stack of causes; one line is enough here.
      Optional<Throwable> tls = all.getAllErrors().values().stream().flatMap(List::stream)
          .map(YcqlSetup::tlsCause).flatMap(Optional::stream).findFirst();
      if (tls.isPresent()) {
        return new UserError("Cannot connect to YCQL at " + config.hosts() + " over TLS: "
            + ErrorText.firstLine(tls.get()) + "; check -p ycql.truststore (the cluster's CA certificate)");
      }
      return new UserError("Cannot connect to YCQL at " + config.hosts()
          + ": no node answered; check --hosts (or YCQL_NODES) and that the server is up"
          + (config.tls() || !config.trustStore().isEmpty() ? ""
              : " (a cluster that takes only TLS needs -p ycql.truststore=ca.crt)"), all);
    }
    return new UserError("YCQL at " + config.hosts() + " refused the connection: " + ErrorText.firstLine(e)
        + "; check --user, --password");
  }

  /** The TLS failure behind a node's error: its certificate not trusted, or the handshake refused. */
  private static Optional<Throwable> tlsCause(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof javax.net.ssl.SSLException) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /**
   * For a run that does not load: checks, in the driver's schema metadata, that the keyspace and
   * the table exist. Drops nothing; a missing one is a {@link RunFailure}.
   */
  static CqlTableClaim useExistingSchema(YcqlConfig config) {
    String table = config.table().table();
    CqlSession s = config.withPartitionMetadata(false).open();
    try {
      Optional<KeyspaceMetadata> keyspace = s.getMetadata().getKeyspace(CqlIdentifier.fromCql(config.keyspace()));
      if (keyspace.isEmpty()) {
        throw new RunFailure("keyspace " + config.keyspace() + " does not exist on " + config.hosts()
            + "; load it first (--phase load or both)");
      }
      if (keyspace.get().getTable(CqlIdentifier.fromCql(table)).isEmpty()) {
        throw new RunFailure("table " + table + " does not exist in keyspace " + config.keyspace() + " on "
            + config.hosts() + "; load it first (--phase load or both)");
      }
      return CqlTableClaim.take(s, config.keyspace(), table, false);
    } catch (RunFailure | UserError e) {
      s.close();
      throw e;
    } catch (RuntimeException e) {
      s.close();
      throw connectError(config, e);
    }
  }

  /** Which fleet each table was created for (CQL tables have no comment YCQL keeps). */
  static final String FLEETS = "ybbench_fleets";

  /**
   * Whether the table is there for the other clients of a fleet: it exists and, with a {@code
   * fleet} id, was created for that fleet. Never fails: a missing keyspace is a table not ready.
   */
  static boolean schemaReady(YcqlConfig config, String fleet) {
    try (CqlSession s = config.withPartitionMetadata(false).open()) {
      Optional<KeyspaceMetadata> keyspace = s.getMetadata().getKeyspace(CqlIdentifier.fromCql(config.keyspace()));
      if (keyspace.isEmpty() || keyspace.get().getTable(CqlIdentifier.fromCql(config.table().table())).isEmpty()) {
        return false;
      }
      if (fleet == null) {
        return true;
      }
      if (keyspace.get().getTable(CqlIdentifier.fromCql(FLEETS)).isEmpty()) {
        return false;
      }
      Row mark = s.execute(SimpleStatement.newInstance("SELECT fleet FROM " + config.keyspace() + "." + FLEETS
          + " WHERE tbl = ?", config.table().table())).one();
      return mark != null && fleet.equals(mark.getString("fleet"));
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * A schema change, with a minute to answer rather than an operation's request timeout: the
   * coordinator replies once the change is applied and flushed, which a busy node (a test
   * machine's, a cluster's under load) takes well over 10 s to do.
   */
  static SimpleStatement ddl(String cql) {
    return SimpleStatement.newInstance(cql).setTimeout(DDL_TIMEOUT);
  }

  /**
   * Creates the keyspace if missing, then the table afresh (an existing one is dropped) unless
   * another run uses it; the returned claim holds the table until it is closed. {@code onStop} is
   * handed what ends it: the session closed under the waiting statement.
   */
  static CqlTableClaim createSchema(YcqlConfig config, String fleet, Consumer<String> log,
      Consumer<Runnable> onStop) {
    CqlSession s = config.withPartitionMetadata(false).open();
    onStop.accept(s::forceCloseAsync);
    try {
      log.accept("Schema: " + config.schema().createKeyspace());
      s.execute(ddl(config.schema().createKeyspace()));
      CqlTableClaim claim = CqlTableClaim.take(s, config.keyspace(), config.table().table(), true);
      s.execute(ddl(config.schema().dropTable()));
      String ddl = config.schema().createTable();
      log.accept("Schema: " + ddl);
      s.execute(ddl(ddl));
      if (!s.checkSchemaAgreement()) {
        log.accept("warning: the nodes do not agree on the schema yet; the first operations may fail");
      }
      if (fleet != null) {
        s.execute(ddl("CREATE TABLE IF NOT EXISTS " + config.keyspace() + "." + FLEETS
            + " (tbl text PRIMARY KEY, fleet text)"));
        s.execute(SimpleStatement.newInstance("INSERT INTO " + config.keyspace() + "." + FLEETS
            + " (tbl, fleet) VALUES (?, ?)", config.table().table(), fleet));
      }
      return claim;
    } catch (UserError e) {
      s.close();
      throw e;
    } catch (RuntimeException e) {
      s.close();
      throw new UserError("Cannot create " + config.keyspace() + "." + config.table().table() + ": " + ErrorText.firstLine(e));
    }
  }

}
