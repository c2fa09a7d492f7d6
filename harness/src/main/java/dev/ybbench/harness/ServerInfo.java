package dev.ybbench.harness;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the server says it is, recorded with every result: the product, its release, and the
 * full string it answered with.
 *
 * @param product     "YugabyteDB", "PostgreSQL" or "Cassandra"
 * @param version     the product's own release ("2.20.1.0-b0" for YugabyteDB, "17.11" for PostgreSQL)
 * @param fullVersion the server's answer, verbatim
 */
public record ServerInfo(String product, String version, String fullVersion) {
  public static final String YUGABYTEDB = "YugabyteDB";
  public static final String POSTGRESQL = "PostgreSQL";
  public static final String CASSANDRA = "Cassandra";

  // YSQL answers "PostgreSQL 11.2-YB-2.20.1.0-b0 on x86_64-pc-linux-gnu, compiled by ..."
  private static final Pattern YSQL = Pattern.compile("^PostgreSQL (\\S+?)-YB-(\\S+?)(?:\\s|,|$)");
  private static final Pattern POSTGRES = Pattern.compile("^PostgreSQL (\\S+?)(?:\\s|,|$)");

  public boolean isYugabyte() {
    return YUGABYTEDB.equals(product);
  }

  /** Parses the answer of {@code SELECT version()}. */
  public static ServerInfo fromSqlVersion(String versionString) {
    String v = versionString == null ? "" : versionString.strip();
    Matcher yb = YSQL.matcher(v);
    if (yb.find()) {
      return new ServerInfo(YUGABYTEDB, yb.group(2), v);
    }
    Matcher pg = POSTGRES.matcher(v);
    if (pg.find()) {
      return new ServerInfo(POSTGRESQL, pg.group(1), v);
    }
    return new ServerInfo("unknown", v.isEmpty() ? "unknown" : v.split("\\s+")[0], v);
  }

  /** Asks a YSQL or PostgreSQL server what it is. */
  public static ServerInfo detect(Connection connection) throws SQLException {
    try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT version()")) {
      rs.next();
      return fromSqlVersion(rs.getString(1));
    }
  }

  /** "PostgreSQL-17.11", the form used in result directory names. */
  public String slug() {
    return (product + "-" + version).replaceAll("[^A-Za-z0-9._-]", "_");
  }
}
