package dev.ybbench.tpcc;

import dev.ybbench.harness.UserError;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A BenchBase config's JDBC URL taken apart, so run_tpcc.sh can point it at its embedded server
 * or at --hosts while keeping the config's database and driver options.
 *
 * @param prefix "jdbc:postgresql://" or "jdbc:yugabytedb://"
 * @param hosts  "h1:p1,h2:p2"
 * @param query  everything after '?', or ""
 */
public record JdbcUrl(String prefix, String hosts, String database, String query) {
  private static final Pattern URL = Pattern.compile("^(jdbc:(?:postgresql|yugabytedb)://)([^/]*)/([^?]*)(?:\\?(.*))?$");

  public static JdbcUrl parse(String url) {
    Matcher m = URL.matcher(url == null ? "" : url.strip());
    if (!m.matches() || m.group(3).isEmpty()) {
      throw new UserError("<url> '" + url + "' is not a jdbc:postgresql:// or jdbc:yugabytedb:// URL with a database");
    }
    return new JdbcUrl(m.group(1), m.group(2), m.group(3), m.group(4) == null ? "" : m.group(4));
  }

  public JdbcUrl withHosts(String newHosts) {
    return new JdbcUrl(prefix, newHosts, database, query);
  }

  public JdbcUrl withDatabase(String db) {
    return new JdbcUrl(prefix, hosts, db, query);
  }

  /** Sets (or replaces) one query parameter. */
  public JdbcUrl withParameter(String name, String value) {
    StringBuilder q = new StringBuilder();
    boolean replaced = false;
    for (String part : query.isEmpty() ? new String[0] : query.split("&")) {
      String key = part.contains("=") ? part.substring(0, part.indexOf('=')) : part;
      if (q.length() > 0) {
        q.append('&');
      }
      if (key.equals(name)) {
        q.append(name).append('=').append(value);
        replaced = true;
      } else {
        q.append(part);
      }
    }
    if (!replaced) {
      q.append(q.length() > 0 ? "&" : "").append(name).append('=').append(value);
    }
    return new JdbcUrl(prefix, hosts, database, q.toString());
  }

  public boolean isYugabyteDriver() {
    return prefix.startsWith("jdbc:yugabytedb");
  }

  @Override
  public String toString() {
    return prefix + hosts + "/" + database + (query.isEmpty() ? "" : "?" + query);
  }
}
