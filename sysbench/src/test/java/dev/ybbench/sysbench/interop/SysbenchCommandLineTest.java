package dev.ybbench.sysbench.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ybbench.harness.UserError;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** sysbench's and yugabyte/sysbench's command lines, as their docs publish them, in run_sysbench.sh's words. */
class SysbenchCommandLineTest {
  private static final Set<String> OURS = Set.of("--tables", "--table-size", "--threads", "--duration", "--hosts",
      "--layout", "--tablets", "--option", "--histogram", "--user", "--password", "--database", "--warmup",
      "--serial-cache", "--events", "--percentile", "--report-interval");

  private static SysbenchCommandLine.Translation t(String line) {
    return SysbenchCommandLine.translate(line.split(" "), OURS);
  }

  @Test
  void oursStaysAsItIs() {
    SysbenchCommandLine.Translation t = t("oltp_read_only --tables 10 --threads=16 --duration 60");
    assertNull(t.dialect());
    assertEquals(List.of("oltp_read_only", "--tables", "10", "--threads=16", "--duration", "60"), t.args());
  }

  @Test
  void sysbenchsOwnLine() {
    SysbenchCommandLine.Translation t = t("sysbench oltp_read_write --db-driver=pgsql --pgsql-host=10.0.0.1 "
        + "--pgsql-port=5433 --pgsql-user=yugabyte --pgsql-password=secret --pgsql-db=yugabyte --tables=10 "
        + "--table_size=100000 --threads=16 --time=60 --report-interval=1 --histogram=on --point_selects=5 "
        + "--rand-type=uniform run");
    assertEquals("sysbench", t.dialect());
    assertEquals(List.of("oltp_read_write", "--user", "yugabyte", "--password", "secret", "--database", "yugabyte",
        "--tables=10", "--table-size", "100000", "--threads=16", "--duration", "60", "--report-interval=1",
        "--histogram", "--option", "point_selects=5", "--option", "rand-type=uniform", "run", "--hosts",
        "10.0.0.1:5433"), t.args());
  }

  @Test
  void yugabytesPublishedPrepareAndRun() {
    // docs: benchmark/sysbench-ysql, the load and the run, with its hosts.
    SysbenchCommandLine.Translation prepare = t("sysbench oltp_read_only --pgsql-host=10.0.0.1,10.0.0.2,10.0.0.3 "
        + "--tables=20 --table_size=5000000 --range_key_partitioning=false --serial_cache_size=1000 "
        + "--create_secondary=true --pgsql-db=yugabyte --pgsql-user=yugabyte --db-driver=pgsql --pgsql-port=5433 "
        + "prepare");
    assertEquals("yugabyte/sysbench", prepare.dialect());
    assertEquals(List.of("oltp_read_only", "--tables=20", "--table-size", "5000000", "--serial-cache", "1000",
        "--option", "create_secondary=true", "--database", "yugabyte", "--user", "yugabyte", "prepare", "--hosts",
        "10.0.0.1:5433,10.0.0.2:5433,10.0.0.3:5433"), prepare.args());
    SysbenchCommandLine.Translation run = t("sysbench oltp_read_only --pgsql-host=10.0.0.1 --tables=20 "
        + "--table_size=5000000 --range_key_partitioning=false --serial_cache_size=1000 --create_secondary=true "
        + "--pgsql-db=yugabyte --pgsql-user=yugabyte --db-driver=pgsql --pgsql-port=5433 --time=1800 "
        + "--warmup-time=300 --num_rows_in_insert=10 --point_selects=10 --index_updates=10 --non_index_updates=10 "
        + "--range_selects=false --thread-init-timeout=90 --threads=60 run");
    assertEquals(List.of("oltp_read_only", "--tables=20", "--table-size", "5000000", "--serial-cache", "1000",
        "--option", "create_secondary=true", "--database", "yugabyte", "--user", "yugabyte", "--duration", "1800",
        "--warmup", "300", "--option", "point_selects=10", "--option", "index_updates=10", "--option",
        "non_index_updates=10", "--option", "range_selects=false", "--threads=60", "run", "--hosts", "10.0.0.1:5433"),
        run.args());
    assertEquals(2, run.notes().size(), run.notes().toString()); // --num_rows_in_insert, --thread-init-timeout
  }

  @Test
  void rangeKeysSplitAsYugabytesSysbenchDoes() {
    assertEquals(List.of("oltp_point_select", "--layout", "range", "--tablets", "24"),
        t("oltp_point_select --range_key_partitioning=true").args());
    assertEquals(List.of("oltp_point_select", "--tablets", "8", "--layout", "range"),
        t("oltp_point_select --range_key_partitioning=true --num_table_splits=8").args());
    assertEquals(List.of("oltp_point_select", "--layout", "range"),
        t("oltp_point_select --range_key_partitioning=true --manual_range_splitting=false").args());
    SysbenchCommandLine.Translation hashed = t("oltp_point_select --num_table_splits=8");
    assertEquals(List.of("oltp_point_select"), hashed.args());
    assertEquals(1, hashed.notes().size());
  }

  @Test
  void whatCannotBeHonouredIsRefusedByName() {
    assertEquals("--rate sysbench times an event from when a thread takes it, not from when it was due, so under a "
        + "rate its latency hides the queue; run without it, or use run_ycsb.sh's --target",
        assertThrows(UserError.class, () -> t("oltp_read_only --rate=100")).getMessage());
    assertEquals("--db-driver=mysql: ybbench runs sysbench over YSQL, --db-driver=pgsql",
        assertThrows(UserError.class, () -> t("oltp_read_only --db-driver=mysql")).getMessage());
    assertEquals("--mysql-host is MySQL's; ybbench runs sysbench over YSQL (--pgsql-* options)",
        assertThrows(UserError.class, () -> t("oltp_read_only --mysql-host=h")).getMessage());
    assertEquals("--range_key_partitioning=maybe: give on or off",
        assertThrows(UserError.class, () -> t("oltp_read_only --range_key_partitioning=maybe")).getMessage());
  }
}
