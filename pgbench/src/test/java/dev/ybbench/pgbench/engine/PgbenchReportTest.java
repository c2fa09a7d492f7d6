package dev.ybbench.pgbench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** pgbench 15's report and progress lines, as it printed them in real runs (src/test/resources/pgbench). */
class PgbenchReportTest {
  static PgbenchReport read(String sample) throws IOException {
    PgbenchReport r = new PgbenchReport();
    try (InputStream in = PgbenchReportTest.class.getResourceAsStream("/pgbench/" + sample)) {
      new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().forEach(r::accept);
    }
    return r;
  }

  @Test
  void aPlainRunsReport() throws IOException {
    PgbenchReport r = read("pgbench-15-tpcb-like.txt");
    assertEquals(new PgbenchReport.Totals(4973, 0, -1, -1, -1, -1, -1, -1, 995.924380, 1.983), r.totals());
    assertEquals(2, r.progress().size());
    assertEquals(new PgbenchReport.Progress(4.0, 1037.2, 1.908, 0, 0, 0), r.progress().get(1));
    assertEquals(false, r.aborted());
  }

  @Test
  void failuresRetriesAndSkippedTransactions() throws IOException {
    // -c 4 -j 2 -T 3 -P 1 -R 300 -L 5 --max-tries=3 --failures-detailed -r, sessions at repeatable read.
    PgbenchReport r = read("pgbench-15-failures.txt");
    assertEquals(new PgbenchReport.Totals(642, 234, 234, 0, 259, 291, 31, 190, 215.144425, 4.030), r.totals());
    assertEquals(new PgbenchReport.Progress(3.0, 201.0, 4.501, 93, 11, 84), r.progress().get(2));
  }

  @Test
  void aRunEndedBeforeItsReportHasNone() {
    PgbenchReport r = new PgbenchReport();
    r.accept("pgbench (15.18 (Debian 15.18-0+deb12u1), server 17.11)");
    r.accept("progress: 1.0 s, 743.8 tps, lat 2.657 ms stddev 3.075, 0 failed");
    assertNull(r.totals());
    assertEquals(1, r.progress().size());
  }
}
