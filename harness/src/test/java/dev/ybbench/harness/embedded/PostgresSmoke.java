package dev.ybbench.harness.embedded;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Starts an embedded PostgreSQL from a binaries jar, asks its version, stops it, and prints
 * "ok uid=<uid of the harness> version=<server version>". Run in a child JVM by
 * {@link EmbeddedPostgresUsersIT} as another operating-system user.
 */
public final class PostgresSmoke {
  public static void main(String[] args) throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.start(Path.of(args[0]), args[1], 20, System.out::println);
        Connection c = DriverManager.getConnection("jdbc:postgresql://" + pg.hostPort() + "/postgres", pg.user(), "");
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT version()")) {
      rs.next();
      System.out.println("ok uid=" + ServerUser.currentUid() + " version=" + rs.getString(1));
    }
  }
}
