package dev.ybbench.harness.sql;

import java.sql.SQLException;
import java.sql.Statement;

/** What Ctrl-C does to a phase that waits on the server through one JDBC statement. */
public final class Cancel {
  private Cancel() {}

  /**
   * The running statement cancelled on the server (dropping the connection alone leaves a
   * statement that waits on a lock to run when it gets it, and a long query to run on), then the
   * connection dropped, so that the phase's thread returns at once.
   */
  public static Runnable of(Statement st) {
    return () -> {
      try {
        st.cancel();
      } catch (SQLException ignored) {
        // nothing running, or closed
      }
      try {
        st.getConnection().abort(Runnable::run);
      } catch (SQLException ignored) {
        // already closed
      }
    };
  }
}
