package dev.ybbench.harness.server;

import java.util.Map;

/**
 * The server's own view of a run: counters read from the server before and after each phase, so
 * every run can audit its client-side counts against what the server says it executed.
 */
public interface ServerView {
  /** A server whose counters the harness cannot read (yet): nothing is recorded. */
  ServerView NONE = new ServerView() {
    @Override
    public Snapshot snapshot(boolean phaseEnded) {
      return null;
    }

    @Override
    public String source() {
      return "not available";
    }
  };

  /**
   * The server's cumulative counters at one moment.
   *
   * @param counters   named counters (e.g. pg_stat_database's xact_commit, tup_inserted)
   * @param statements per statement text: calls and rows, when the server tracks statements
   * @param cpuNanos   the server processes' CPU time, when the server runs on this machine; else null
   */
  record Snapshot(Map<String, Long> counters, Map<String, StatementCount> statements, Long cpuNanos) {}

  /** One statement's cumulative calls and rows (pg_stat_statements). */
  record StatementCount(long calls, long rows) {}

  /**
   * Reads the counters now; null when unavailable.
   *
   * @param phaseEnded the phase's sessions are closing: wait (briefly) until they have, so that
   *                   the counters they report at their end are in
   */
  Snapshot snapshot(boolean phaseEnded);

  /** Where the counters come from, e.g. "pg_stat_database + pg_stat_statements". */
  String source();
}
