package dev.ybbench.harness;

import dev.ybbench.harness.embedded.CassandraVersions;
import dev.ybbench.harness.embedded.EmbeddedCassandra;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.embedded.PostgresVersions;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Which server a run talks to, and the one place that decides it: the nodes of --hosts, else of
 * the API's environment variable, else an embedded server of the harness's own (PostgreSQL for
 * YSQL, a Cassandra cluster of --nodes for YCQL) at --db-version. {@link #choose} applies every
 * rule before anything starts; {@link #start} brings an embedded server up and {@link #close}
 * stops it. What the server then turns out to be is the API's to ask (it needs the API's driver).
 */
public final class ServerTarget implements AutoCloseable {
  /** The two APIs, with their default port and the environment variables that name their nodes. */
  public enum Api {
    YSQL(5433), YCQL(9042);

    public final int defaultPort;

    Api(int defaultPort) {
      this.defaultPort = defaultPort;
    }

    /** "ycql" → YCQL, anything else → YSQL (the runner has validated the name). */
    public static Api named(String api) {
      return "ycql".equals(api) ? YCQL : YSQL;
    }

    /** As --api and run.json spell it: "ysql", "ycql". */
    public String flag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Api api;
  private final String hostSpec;
  /** {@link #hostSpec} parsed, once; null for an embedded server. */
  private final HostList hosts;
  private final String askedVersion;
  private final String version;
  private final int nodes;
  /** Where the nodes were named: the flag ("--hosts", pgbench's "-h") or the environment variable. */
  private String hostsSource = "--hosts";
  private volatile EmbeddedPostgres postgres;
  private volatile EmbeddedCassandra cassandra;
  private volatile Consumer<String> log = line -> { };

  private ServerTarget(Api api, String hostSpec, HostList hosts, String askedVersion, String version, int nodes) {
    this.api = api;
    this.hostSpec = hostSpec;
    this.hosts = hosts;
    this.askedVersion = askedVersion;
    this.version = version;
    this.nodes = nodes;
  }

  /**
   * Decides the server from the flags and the environment, refusing what cannot apply.
   *
   * @param hostsFlag --hosts, or null when not given
   * @param dbVersion --db-version, or null
   * @param nodes     --nodes (YCQL's embedded cluster size; 1 when not given)
   */
  public static ServerTarget choose(Api api, String hostsFlag, String dbVersion, int nodes) {
    return choose(api, hostsFlag, dbVersion, nodes, System.getenv());
  }

  /** As {@link #choose(Api, String, String, int)}, the nodes given by a flag of another name (pgbench's -h). */
  public static ServerTarget choose(Api api, String hostsFlag, String flagName, String dbVersion, int nodes) {
    ServerTarget t = choose(api, hostsFlag, dbVersion, nodes, System.getenv());
    if (hostsFlag != null) {
      t.hostsSource = flagName;
    }
    return t;
  }

  static ServerTarget choose(Api api, String hostsFlag, String dbVersion, int nodes, Map<String, String> env) {
    if (hostsFlag != null && hostsFlag.isBlank()) {
      throw new UserError("--hosts is empty (an unset variable?); give host[:port],… or leave it out for an "
          + "embedded server");
    }
    if (api == Api.YSQL && nodes != 1) {
      throw new UserError("--nodes applies to YCQL's embedded Cassandra; the embedded PostgreSQL is one server");
    }
    String hosts = hostsFlag != null ? hostsFlag : environmentHosts(api, env);
    if (hosts != null && hosts.isBlank()) {
      hosts = null; // an empty variable is an unset one
    }
    if (hosts != null) {
      String source = hostsFlag != null ? "--hosts" : api == Api.YSQL ? "YSQL_NODES"
          : env.get("YCQL_NODES") != null ? "YCQL_NODES" : "YCQL_ADDRS";
      if (dbVersion != null) {
        throw new UserError("--db-version picks the embedded server's version; it cannot apply with " + source);
      }
      if (nodes != 1) {
        throw new UserError("--nodes sizes the embedded Cassandra; it cannot apply with " + source);
      }
      // Parsed here and only here: a bad port fails before anything starts.
      ServerTarget t = new ServerTarget(api, hosts, HostList.parse(hosts, api.defaultPort), null, null, nodes);
      t.hostsSource = source;
      return t;
    }
    if (api == Api.YCQL) {
      EmbeddedCassandra.checkNodes(nodes);
    }
    String resolved = api == Api.YCQL ? CassandraVersions.resolve(dbVersion) : PostgresVersions.resolve(dbVersion);
    return new ServerTarget(api, null, null, dbVersion, resolved, nodes);
  }

  /**
   * The nodes the environment names for an API, or null: YSQL_NODES for YSQL; YCQL_NODES for
   * YCQL, else YCQL_ADDRS (the name YugabyteDB's large-dataset benchmark page uses). The
   * bindings' default host when used without the runner.
   */
  public static String environmentHosts(Api api) {
    return environmentHosts(api, System.getenv());
  }

  static String environmentHosts(Api api, Map<String, String> env) {
    return api == Api.YCQL ? env.getOrDefault("YCQL_NODES", env.get("YCQL_ADDRS")) : env.get("YSQL_NODES");
  }

  /**
   * The embedded PostgreSQL's own settings (--db-setting NAME=VALUE …), added to its postgresql.conf:
   * part of the server under test, like its version. Refused for given hosts (their settings are
   * their own) and for the embedded Cassandra.
   */
  public ServerTarget withSettings(Map<String, String> given) {
    if (!given.isEmpty()) {
      if (!embedded()) {
        throw new UserError("--db-setting configures the embedded PostgreSQL; a server given by --hosts keeps its "
            + "own settings");
      }
      if (api == Api.YCQL) {
        throw new UserError("--db-setting configures the embedded PostgreSQL; it cannot apply to the embedded "
            + "Cassandra");
      }
      given.keySet().forEach(EmbeddedPostgres::checkSetting);
    }
    settings = Map.copyOf(given);
    return this;
  }

  /**
   * Refuses, by its name, a connection option the user gave (TLS, URL options) where the server is
   * the embedded one: it serves no TLS and its connection is the harness's own, so the option would
   * otherwise be dropped without a word. Null or blank: nothing given.
   */
  public ServerTarget refusing(String named, String value) {
    if (embedded() && value != null && !value.isBlank()) {
      throw new UserError(named + " is for a server given by --hosts (or " + (api == Api.YCQL ? "YCQL_NODES"
          : "YSQL_NODES") + "): the embedded " + (api == Api.YCQL ? "Cassandra" : "PostgreSQL") + " serves no TLS "
          + "and ybbench makes its connection; give --hosts, or leave " + named + " out");
    }
    return this;
  }

  /** Where the nodes were named, for a refusal that names what the user gave: "--hosts", "YSQL_NODES" … */
  public String hostsSource() {
    return hostsSource;
  }

  /** The settings given to the embedded server (empty for none). */
  public Map<String, String> settings() {
    return settings;
  }

  private Map<String, String> settings = Map.of();

  public Api api() {
    return api;
  }

  /** True when the harness starts the server itself. */
  public boolean embedded() {
    return hostSpec == null;
  }

  /** The nodes given, by --hosts or the environment, as given; null for an embedded server. */
  public String hostSpec() {
    return hostSpec;
  }

  /** The nodes given, by --hosts or the environment, parsed; null for an embedded server. */
  public HostList hosts() {
    return hosts;
  }

  /** The embedded cluster's size (1 for PostgreSQL and for given hosts). */
  public int nodes() {
    return nodes;
  }

  /** For the plan: "10.0.0.1,10.0.0.2 (given)", "embedded PostgreSQL 17.7.0", "embedded Cassandra 5.0.9 × 3". */
  public String describe() {
    if (!embedded()) {
      return hostSpec + " (given)";
    }
    return "embedded " + (api == Api.YCQL ? "Cassandra " + version + " × " + nodes : "PostgreSQL " + version)
        + (settings.isEmpty() ? "" : " with " + new java.util.TreeMap<>(settings));
  }

  /**
   * Starts the embedded server (a no-op for given hosts) and returns the nodes to connect to.
   *
   * @param connections connections the run will open, for the embedded PostgreSQL's limit
   */
  public HostList start(int connections, Consumer<String> log) {
    if (!embedded()) {
      return hosts;
    }
    this.log = log;
    if (api == Api.YCQL) {
      log.accept("Starting embedded Cassandra " + (askedVersion == null ? "(default version)" : askedVersion)
          + " with " + nodes + (nodes == 1 ? " node" : " nodes") + " …");
      cassandra = EmbeddedCassandra.start(askedVersion, nodes, log);
      return HostList.parse(cassandra.hostList(), api.defaultPort);
    }
    log.accept("Starting embedded PostgreSQL " + (askedVersion == null ? "(default version)" : askedVersion) + " …");
    postgres = EmbeddedPostgres.start(askedVersion, connections, settings, log);
    log.accept("Embedded PostgreSQL " + postgres.version() + " on " + postgres.hostPort()
        + (postgres.serverUser().equals(System.getProperty("user.name")) ? ""
            : " (running as user " + postgres.serverUser() + ")"));
    return HostList.parse(postgres.hostPort(), 5432);
  }

  /** The user an embedded server was created with (PostgreSQL's superuser), else null. */
  public String embeddedUser() {
    return postgres == null ? null : EmbeddedPostgres.SUPERUSER;
  }

  /** For run.json: the version asked and the one started, e.g. "16 (16.11.0)"; null for given hosts. */
  public String embeddedVersion() {
    String started = postgres != null ? postgres.version() : cassandra != null ? cassandra.version() : null;
    return started == null ? null : (askedVersion == null ? "default" : askedVersion) + " (" + started + ")";
  }

  /** The embedded PostgreSQL's postmaster pid (its CPU is the server's), else null. */
  public Long serverPid() {
    return postgres == null ? null : postgres.pid();
  }

  /** The embedded Cassandra cluster, for tests that stop a node in the middle of a run; else null. */
  public EmbeddedCassandra cassandra() {
    return cassandra;
  }

  /** Stops an embedded server, saying so; safe to call twice and from Ctrl-C's thread. */
  @Override
  public synchronized void close() {
    EmbeddedPostgres pg = postgres;
    EmbeddedCassandra c = cassandra;
    postgres = null;
    cassandra = null;
    if (pg != null) {
      log.accept("Stopping embedded PostgreSQL " + pg.version());
      pg.close();
    }
    if (c != null) {
      log.accept("Stopping embedded Cassandra " + c.version());
      c.close();
    }
  }
}
