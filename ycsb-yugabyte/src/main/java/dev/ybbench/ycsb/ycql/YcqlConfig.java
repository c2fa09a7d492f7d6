package dev.ybbench.ycsb.ycql;

import static dev.ybbench.ycsb.client.BindingProperties.intProp;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.MavenCoordinates;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.DriverOption;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import com.datastax.oss.driver.api.core.session.Session;
import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.ycsb.schema.CqlDialect;
import dev.ybbench.ycsb.schema.CqlSchema;
import dev.ybbench.ycsb.schema.KeyLayout;
import dev.ybbench.ycsb.schema.TableSpec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The YCQL binding's settings, read from YCSB properties (so {@code -p name=value} sets any of
 * them), and how to open a driver session with them.
 */
public record YcqlConfig(
    HostList hosts,
    String keyspace,
    String user,
    String password,
    ConsistencyLevel readConsistency,
    ConsistencyLevel writeConsistency,
    int replicationFactor,
    String localDatacenter,
    boolean partitionMetadata,
    boolean tls,
    String trustStore,
    String trustStorePassword,
    CqlDialect dialect,
    boolean transactions,
    TableSpec table,
    long split,
    int inFlight,
    int maxRetries,
    int connectionsPerNode,
    Duration requestTimeout,
    Duration connectTimeout) {

  public static final int DEFAULT_PORT = 9042;

  public static final String HOSTS = "ycql.hosts";
  public static final String KEYSPACE = "ycql.keyspace";
  public static final String USER = "ycql.user";
  public static final String PASSWORD = "ycql.password";
  /** Every request's consistency level, unless {@value #READ_CONSISTENCY} or {@value #WRITE_CONSISTENCY} says otherwise. */
  public static final String CONSISTENCY = "ycql.consistency";
  /** Reads' and scans' consistency level (yugabyte/YCSB's cassandra.readconsistencylevel). */
  public static final String READ_CONSISTENCY = "ycql.read_consistency";
  /** Inserts', updates' and deletes' consistency level (yugabyte/YCSB's cassandra.writeconsistencylevel). */
  public static final String WRITE_CONSISTENCY = "ycql.write_consistency";
  public static final String RF = "ycql.rf";
  public static final String LOCAL_DC = "ycql.local_dc";
  public static final String PARTITION_METADATA = "ycql.partition_metadata";
  public static final String TLS = "ycql.tls";
  /**
   * The certificates to trust for TLS (turning it on): a PEM file of CA certificates (a
   * YugabyteDB cluster's ca.crt) or a key store (PKCS12 or JKS, with {@value #TRUSTSTORE_PASSWORD}).
   * Without it, TLS trusts the JVM's default certificates.
   */
  public static final String TRUSTSTORE = "ycql.truststore";
  public static final String TRUSTSTORE_PASSWORD = "ycql.truststore_password";
  /** Recorded, not read: which CQL driver the run used. */
  public static final String DRIVER = "ycql.driver";
  public static final String DIALECT = "ycql.dialect";
  public static final String TRANSACTIONS = "ycql.transactions";
  public static final String MAX_RETRIES = "ycql.max_retries";
  public static final String CONNECTIONS = "ycql.connections_per_node";
  public static final String TIMEOUT_MS = "ycql.request_timeout_ms";
  /** How long opening a connection may take (default: the driver's, 5 s). */
  public static final String CONNECT_TIMEOUT_MS = "ycql.connect_timeout_ms";
  /** Writes one thread keeps in flight during a load (--batch-size; the runner sets it). */
  public static final String IN_FLIGHT = "ycql.in_flight";

  /**
   * YugabyteDB's driver option {@code advanced.metadata.partition-metadata.enabled}, named by its
   * path rather than its enum constant so that the binding also runs on Apache's driver (which
   * ignores it), as the driver comparison in run-scripts/bench/ does.
   */
  private static final DriverOption PARTITION_METADATA_OPTION = () -> "advanced.metadata.partition-metadata.enabled";

  private static final List<String> CONSISTENCY_NAMES = Arrays.stream(DefaultConsistencyLevel.values())
      .map(Enum::name).toList();

  /** The settings of a binding used without the runner: its nodes are {@value #HOSTS}, else YCQL_NODES or YCQL_ADDRS, else 127.0.0.1. */
  public static YcqlConfig from(Properties p) {
    String hostSpec = p.getProperty(HOSTS, Objects.requireNonNullElse(ServerTarget.environmentHosts(ServerTarget.Api.YCQL), "127.0.0.1"));
    return from(p, HostList.parse(hostSpec, DEFAULT_PORT));
  }

  /** The settings with the nodes the runner's server target parsed once, for every binding thread. */
  public static YcqlConfig from(Properties p, HostList hosts) {
    String cl = p.getProperty(CONSISTENCY, "QUORUM");
    TableSpec table = TableSpec.from(p, intProp(p, "fieldcount", 10),
        KeyLayout.fromFlag(p.getProperty("yb.layout", "hash")));
    String trustStore = p.getProperty(TRUSTSTORE, "").strip();
    String trustStorePassword = p.getProperty(TRUSTSTORE_PASSWORD, "");
    if (!trustStore.isEmpty()) {
      sslContext(trustStore, trustStorePassword); // a file that cannot be read is refused before anything starts
    }
    int rf = intProp(p, RF, 1);
    if (rf < 1) {
      throw new UserError("The replication factor must be at least 1, was " + rf);
    }
    return new YcqlConfig(
        hosts,
        p.getProperty(KEYSPACE, "ycsb"),
        p.getProperty(USER, ""),
        p.getProperty(PASSWORD, System.getenv().getOrDefault("YCQL_PASSWORD", "")),
        consistency(p, READ_CONSISTENCY, cl),
        consistency(p, WRITE_CONSISTENCY, cl),
        rf,
        p.getProperty(LOCAL_DC, "datacenter1"),
        Boolean.parseBoolean(p.getProperty(PARTITION_METADATA, "true")),
        Boolean.parseBoolean(p.getProperty(TLS, "false")) || !trustStore.isEmpty(),
        trustStore,
        trustStorePassword,
        CqlDialect.valueOf(p.getProperty(DIALECT, "YUGABYTEDB").toUpperCase()),
        Boolean.parseBoolean(p.getProperty(TRANSACTIONS, "false")),
        table,
        intProp(p, "yb.split", 100),
        Math.max(1, intProp(p, IN_FLIGHT, 1)),
        intProp(p, MAX_RETRIES, 10),
        Math.max(1, intProp(p, CONNECTIONS, 1)),
        Duration.ofMillis(intProp(p, TIMEOUT_MS, 10_000)),
        Duration.ofMillis(intProp(p, CONNECT_TIMEOUT_MS, 5_000)));
  }

  private static ConsistencyLevel consistency(Properties p, String name, String dflt) {
    String cl = p.getProperty(name, dflt).strip().toUpperCase();
    if (!CONSISTENCY_NAMES.contains(cl)) {
      throw new UserError("Unknown consistency level '" + cl + "'; use one of " + String.join(", ", CONSISTENCY_NAMES));
    }
    return DefaultConsistencyLevel.valueOf(cl);
  }

  public CqlSchema schema() {
    return new CqlSchema(table, dialect, keyspace, replicationFactor, transactions);
  }

  /** The same settings with partition-aware metadata on or off. */
  public YcqlConfig withPartitionMetadata(boolean on) {
    return new YcqlConfig(hosts, keyspace, user, password, readConsistency, writeConsistency, replicationFactor,
        localDatacenter, on, tls, trustStore, trustStorePassword, dialect, transactions, table, split, inFlight,
        maxRetries, connectionsPerNode, requestTimeout, connectTimeout);
  }

  /** A key that is equal for configurations that can share one driver session. */
  String sessionKey() {
    return hosts + "|" + user + "|" + localDatacenter + "|" + partitionMetadata + "|" + tls + "|" + trustStore + "|"
        + connectionsPerNode + "|" + requestTimeout + "|" + connectTimeout;
  }

  /** The CQL driver on the classpath, e.g. "com.yugabyte:java-driver-core:4.15.0-yb-2". */
  public static String driverCoordinates() {
    MavenCoordinates c = Session.OSS_DRIVER_COORDINATES;
    return c.getGroupId() + ":" + c.getArtifactId() + ":" + c.getVersion();
  }

  /** Opens a session (not bound to the keyspace, which may not exist yet). */
  public CqlSession open() {
    ProgrammaticDriverConfigLoaderBuilder config = DriverConfigLoader.programmaticBuilder()
        .withString(DefaultDriverOption.REQUEST_CONSISTENCY, writeConsistency.name()) // reads set theirs
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, requestTimeout)
        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
        .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, connectTimeout)
        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
        .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, connectionsPerNode)
        .withClass(DefaultDriverOption.RETRY_POLICY_CLASS, NoDriverRetries.class)
        // YugabyteDB's driver reads system.partitions to route each key to its tablet leader;
        // other servers have no such table, and the driver would warn on every refresh.
        .withBoolean(PARTITION_METADATA_OPTION, partitionMetadata)
        // A node that is down is retried in the background; keep that quiet and quick.
        .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(500))
        .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(5))
        // Closing waited out Netty's 2 s quiet period after the session's last request.
        .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
        .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0);
    if (tls && trustStore.isEmpty()) {
      config = config.withString(DefaultDriverOption.SSL_ENGINE_FACTORY_CLASS, "DefaultSslEngineFactory")
          .withBoolean(DefaultDriverOption.SSL_HOSTNAME_VALIDATION, false);
    }
    CqlSessionBuilder b = CqlSession.builder()
        .withConfigLoader(config.build())
        .withLocalDatacenter(localDatacenter)
        .addContactPoints(hosts.hosts().stream()
            .map(h -> InetSocketAddress.createUnresolved(h.host(), h.port()))
            .collect(Collectors.toList()));
    if (!trustStore.isEmpty()) {
      // The host name is not checked, as with ycql.tls: a cluster's node certificates name its
      // nodes as the cluster knows them, which need not be the addresses given here.
      b = b.withSslContext(sslContext(trustStore, trustStorePassword));
    }
    if (!user.isEmpty()) {
      b = b.withAuthCredentials(user, password);
    }
    return b.build();
  }

  /**
   * A TLS context trusting the certificates of {@code file}: PEM certificates (as YugabyteDB's
   * ca.crt, which ycqlsh takes as SSL_CERTFILE), else a key store of any type the JDK reads.
   */
  static SSLContext sslContext(String file, String password) {
    try {
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trusted(file, password));
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new UserError("TLS with " + TRUSTSTORE + "=" + file + ": " + dev.ybbench.harness.ErrorText.firstLine(e));
    }
  }

  /** The certificates {@link #sslContext} trusts, as a key store. */
  static KeyStore trusted(String file, String password) {
    Path path = Path.of(file);
    try {
      byte[] bytes = Files.readAllBytes(path);
      KeyStore trusted;
      if (new String(bytes, 0, Math.min(bytes.length, 4096), StandardCharsets.US_ASCII).contains("-----BEGIN ")) {
        if (!password.isEmpty()) {
          throw new UserError(TRUSTSTORE_PASSWORD + " opens a key store; " + file + " holds PEM certificates, which "
              + "need none: leave it out");
        }
        trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        int i = 0;
        for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(
            new ByteArrayInputStream(bytes))) {
          trusted.setCertificateEntry("ca-" + i++, c);
        }
        if (i == 0) {
          throw new GeneralSecurityException("no certificate in it");
        }
      } else {
        trusted = KeyStore.getInstance(path.toFile(), password.toCharArray());
      }
      return trusted;
    } catch (IOException | GeneralSecurityException e) {
      throw new UserError(TRUSTSTORE + "=" + file + " cannot be read as PEM certificates or a key store ("
          + dev.ybbench.harness.ErrorText.firstLine(e) + "); give the cluster's CA certificate (ca.crt), or a "
          + "PKCS12/JKS trust store with " + TRUSTSTORE_PASSWORD);
    }
  }
}
