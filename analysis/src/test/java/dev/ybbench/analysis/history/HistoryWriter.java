package dev.ybbench.analysis.history;

import java.time.Instant;
import java.util.List;

/**
 * A process that records runs into a history, one transaction each, and prints each run's id once
 * it is committed: two of them write at once, and one is killed halfway (HistoryStoreIT).
 */
public final class HistoryWriter {
  private HistoryWriter() {}

  /** args: history, run id prefix, number of runs, operations per run. */
  public static void main(String[] args) {
    int runs = Integer.parseInt(args[2]);
    int ops = Integer.parseInt(args[3]);
    try (HistoryStore store = HistoryStore.open(args[0])) {
      for (int i = 0; i < runs; i++) {
        String id = args[1] + "-" + i;
        store.record(List.of(HistoryStoreIT.entry(id, "ycsb/workloadc@writers", 1000 + i,
            Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i), ops)));
        System.out.println(id);
        System.out.flush();
      }
    }
  }
}
