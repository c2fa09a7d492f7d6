package dev.ybbench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ybbench.harness.results.OperationResult;
import dev.ybbench.harness.results.PhaseResult;
import dev.ybbench.tpcc.config.TpccConfig;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-second table behind the TPC-C charts, from interval logs written as a run writes them. */
class TpccChartsTest {
  @TempDir
  Path latency;

  private static final long START = 1_700_000_000_000L;

  /** One log of 1 s intervals, holding {@code counts[i]} values of {@code micros} each. */
  private void log(String file, long micros, int... counts) throws Exception {
    try (PrintStream out = new PrintStream(Files.newOutputStream(latency.resolve(file)), true, "UTF-8")) {
      HistogramLogWriter w = new HistogramLogWriter(out);
      w.outputLogFormatVersion();
      w.outputStartTime(START);
      w.setBaseTime(START);
      w.outputLegend();
      for (int i = 0; i < counts.length; i++) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(micros, Math.max(counts[i], 0));
        h.setStartTimeStamp(START + 1000L * i);
        h.setEndTimeStamp(START + 1000L * (i + 1));
        w.outputIntervalHistogram(h);
      }
    }
  }

  @Test
  void eachSecondHasTpmCAndEachTypesRateAndP90() throws Exception {
    log("execute-NewOrder.hlog", 2_000, 10, 20);  // below 2,048 µs HdrHistogram is exact
    log("execute-NewOrderRollback.hlog", 9_000, 1, 0);
    log("execute-Payment.hlog", 1_500, 5, 0);
    log("execute-2-NewOrder.hlog", 1_000, 99, 99); // another work's: not this phase's
    TpccCharts.PerSecond p = TpccCharts.perSecond(latency, "execute");
    assertEquals(List.of("NewOrder", "Payment"), p.types());
    assertEquals("""
        elapsed_s,tpmC,NewOrder_per_s,NewOrder_p90_ms,Payment_per_s,Payment_p90_ms
        1,660.000,10.000,2.000,5.000,1.500
        2,1200.000,20.000,2.000,0.000,
        """, p.csv());
  }

  @Test
  void theWorksBarsNameTheMixAndEachTypeAlone() {
    Map<String, PhaseResult> phases = new LinkedHashMap<>();
    phases.put("execute", PhaseResult.ofOperations(Map.of("NewOrder", new OperationResult(100, 0, Map.of(), 0, 10,
        null)), 10, List.of()));
    phases.put("execute-2", PhaseResult.ofOperations(Map.of("Payment", new OperationResult(300, 0, Map.of(), 0, 30,
        null)), 10, List.of()));
    List<TpccConfig.Work> works = List.of(new TpccConfig.Work(10, 0, null, List.of(45, 43, 4, 4, 4)),
        new TpccConfig.Work(10, 0, null, List.of(0, 100, 0, 0, 0)));
    assertEquals("work,transactions_per_s\nOverall (mix 45/43/4/4/4),10.0\nPayment alone,30.0\n",
        TpccCharts.worksCsv(phases, works));
  }
}
