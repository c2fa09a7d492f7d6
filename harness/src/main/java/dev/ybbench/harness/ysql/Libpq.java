package dev.ybbench.harness.ysql;

import dev.ybbench.harness.UserError;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a tool that connects through libpq (sysbench's pgsql driver, pgbench) is given of an
 * endpoint besides its command line: the password and the TLS settings of --url-options, in its
 * environment (PGPASSWORD, PGSSLMODE, …), so that no password is ever on a command line; and the
 * URL options it can take, refused by name where only ybbench's own connections would get them.
 */
public final class Libpq {
  private Libpq() {}

  /** The URL options libpq takes from the environment instead, by its variable. */
  private static final Map<String, String> TLS = Map.of("sslmode", "PGSSLMODE", "sslrootcert", "PGSSLROOTCERT",
      "sslcert", "PGSSLCERT", "sslkey", "PGSSLKEY");

  /** Sets {@code env} (a process's environment) for {@code endpoint}: password, connect timeout, TLS. */
  public static void environment(YsqlEndpoint endpoint, Map<String, String> env) {
    env.put("PGPASSWORD", endpoint.password() == null ? "" : endpoint.password());
    env.put("PGCONNECT_TIMEOUT", "10");
    endpoint.options().forEach((name, value) -> {
      String var = TLS.get(name.toLowerCase(Locale.ROOT));
      if (var != null) {
        env.put(var, value);
      }
    });
  }

  /**
   * --url-options as {@code tool} can take them too: libpq's TLS settings (and a password); any
   * other is refused by name, null when none are given.
   */
  public static String urlOptions(String given, String tool) {
    if (given == null || given.isBlank()) {
      return null;
    }
    Set<String> taken = TLS.keySet();
    for (String name : YsqlEndpoint.parseQuery(given).keySet()) {
      if (!taken.contains(name.toLowerCase(Locale.ROOT)) && !name.equalsIgnoreCase("password")) {
        throw new UserError("--url-options " + name + ": " + tool + " connects through libpq and takes "
            + String.join(", ", taken.stream().sorted().toList()) + " only");
      }
    }
    return given;
  }
}
