package dev.ybbench.pgbench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Lines of pgbench 15's per-transaction log, as it wrote them in real runs. */
class PgbenchLogTest {
  @Test
  void eachTransactionInTheSecondItCompletedIn() {
    PgbenchLog log = new PgbenchLog(1);
    long origin = 1795955042_000L;
    for (String line : new String[] {"0 99 5941 0 1795955042 642338", "0 223 1271 0 1795955043 25491",
        "0 487 4023 0 1795955044 119176", "1 313 872 0 1795955043 427232", "1 332 4445 0 1795955043 512603",
        "1 518 3179 0 1795955044 215808"}) {
      log.line(line, false, origin);
    }
    PgbenchLog.Script s = log.scripts().get(0);
    assertEquals(6, s.successes);
    assertEquals(1, s.intended.get(0L).getTotalCount());
    assertEquals(3, s.intended.get(1L).getTotalCount());
    assertEquals(2, s.intended.get(2L).getTotalCount());
    assertEquals(872, s.intended.get(1L).getMinValue());
    assertEquals(0, s.actual.size(), "no rate, no second latency");
    assertEquals(1795955044_215L, log.lastMillis());
  }

  @Test
  void underARateFailedSkippedAndRetried() {
    // -R 300 -L 5 --max-tries=3 --failures-detailed: the lag, then the retries, after the six fields.
    PgbenchLog log = new PgbenchLog(1);
    long origin = 1795954847_000L;
    log.line("0 1 16004 0 1795954847 560784 4370 0", true, origin);
    log.line("1 1 serialization 0 1795954847 561035 0 0", true, origin);
    log.line("0 6 skipped 0 1795954847 614599 0 0", true, origin);
    log.line("2 4 3210 0 1795954848 104211 212 2", true, origin);
    log.line("3 9 41", true, origin); // cut short when pgbench was ended
    PgbenchLog.Script s = log.scripts().get(0);
    assertEquals(2, s.successes);
    assertEquals(16004, s.intended.get(0L).getMaxValue(), 16004 / 1000);
    assertEquals(11634, s.actual.get(0L).getMaxValue(), 11634 / 1000);
    assertEquals(Map.of("serialization", 1L), s.failures);
    assertEquals(1, s.skipped);
    assertEquals(2, s.retries);
    assertEquals(1, s.retried);
    assertEquals(1, log.cut());
  }
}
