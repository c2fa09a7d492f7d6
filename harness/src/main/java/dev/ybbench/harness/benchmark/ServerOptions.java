package dev.ybbench.harness.benchmark;

import dev.ybbench.harness.UserError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The server and how to connect to it, as every benchmark takes them (a picocli mixin): a flag
 * left out is null, and the benchmark settles it (its own default, its config's, the environment).
 * Each benchmark's usage says its defaults through its resource bundle (the option's key).
 */
public final class ServerOptions {
  @Option(names = "--hosts", paramLabel = "H[:P],…", descriptionKey = "hosts", description = "YugabyteDB nodes "
      + "(default port 5433; or env YSQL_NODES; none given: an embedded server)")
  public String hosts;

  @Option(names = "--db-version", paramLabel = "V", descriptionKey = "db-version",
      description = "embedded PostgreSQL version, 11-18 or an exact release (default: 17)")
  public String dbVersion;

  @Option(names = "--db-setting", paramLabel = "NAME=VALUE", descriptionKey = "db-setting",
      description = "embedded PostgreSQL: a setting added to its postgresql.conf, e.g. enable_indexscan=off "
          + "(repeatable): part of the server under test like --db-version, kept in run.json as db_settings, not "
          + "among the parameters a comparison matches")
  public List<String> dbSettings = new ArrayList<>();

  @Option(names = "--database", paramLabel = "DB", descriptionKey = "database",
      description = "the database, created when missing")
  public String database;

  @Option(names = "--user", paramLabel = "USER", descriptionKey = "user", description = "the user (default: "
      + "yugabyte; postgres on the embedded server)")
  public String user;

  @Option(names = "--password", paramLabel = "PW", descriptionKey = "password", description = "(default: env "
      + "YSQL_PASSWORD; never written to results)")
  public String password;

  @Option(names = "--url-options", paramLabel = "OPTS", descriptionKey = "url-options", description = "connection "
      + "options, e.g. 'sslmode=verify-full&sslrootcert=/path/ca.crt' for TLS; only with --hosts: the embedded server "
      + "has no TLS")
  public String urlOptions;

  /** --db-setting as a map, in the order given (the last of a name wins). */
  public Map<String, String> dbSettings() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String s : dbSettings) {
      int eq = s.indexOf('=');
      if (eq <= 0) {
        throw new UserError("--db-setting takes NAME=VALUE (e.g. enable_indexscan=off), not '" + s + "'");
      }
      m.put(s.substring(0, eq).strip(), s.substring(eq + 1).strip());
    }
    return m;
  }

  /** --password, else env YSQL_PASSWORD, else {@code otherwise}. */
  public String password(String otherwise) {
    return password != null ? password : System.getenv().getOrDefault("YSQL_PASSWORD", otherwise);
  }
}
