package dev.ybbench.ycsb.ycql;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One driver session for all client threads with the same settings, as the driver intends
 * (a session holds its own connection pools and event loops), closed when the last thread lets
 * go. Prepared statements are shared with it.
 */
final class SharedSession {
  private static final Map<String, SharedSession> OPEN = new HashMap<>();

  final CqlSession session;
  private final String key;
  private final Map<String, PreparedStatement> prepared = new ConcurrentHashMap<>();
  private int users;

  private SharedSession(String key, CqlSession session) {
    this.key = key;
    this.session = session;
  }

  static SharedSession acquire(YcqlConfig config) {
    synchronized (OPEN) {
      SharedSession s = OPEN.get(config.sessionKey());
      if (s == null) {
        s = new SharedSession(config.sessionKey(), config.open());
        OPEN.put(s.key, s);
      }
      s.users++;
      return s;
    }
  }

  PreparedStatement prepare(String cql) {
    return prepared.computeIfAbsent(cql, session::prepare);
  }

  void release() {
    synchronized (OPEN) {
      if (--users == 0) {
        OPEN.remove(key);
        // Closing takes a second or two (event loops wind down); nothing waits for it.
        session.closeAsync();
      }
    }
  }
}
