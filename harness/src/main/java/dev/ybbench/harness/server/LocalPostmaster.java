package dev.ybbench.harness.server;

import dev.ybbench.harness.HostList;
import java.net.InetAddress;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The postmaster of a PostgreSQL given by --hosts that runs on this machine (one node on a
 * loopback address, e.g. the server YCSB's core sequence started once for its runs, or one a
 * benchmark script started): the parent of the session's own backend, when /proc shows it. Its
 * CPU is then read as an embedded server's is, so that server CPU per operation stands beside the
 * client's; elsewhere, none.
 */
final class LocalPostmaster {
  private LocalPostmaster() {}

  /**
   * The postmaster's pid, or null where the server is not on this machine or cannot be seen.
   *
   * @param st a statement on a session of the server at {@code hosts}
   */
  static Long of(HostList hosts, Statement st) {
    if (hosts.hosts().size() != 1 || !loopback(hosts.hosts().get(0).host())) {
      return null;
    }
    try (ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
      if (!rs.next()) {
        return null;
      }
      return ProcessHandle.of(rs.getLong(1)).flatMap(ProcessHandle::parent)
          .filter(p -> p.info().command().map(cmd -> cmd.endsWith("postgres") || cmd.endsWith("postmaster"))
              .orElse(false))
          .map(ProcessHandle::pid).orElse(null);
    } catch (SQLException | RuntimeException e) {
      return null; // no server CPU, as for a remote server
    }
  }

  private static boolean loopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
