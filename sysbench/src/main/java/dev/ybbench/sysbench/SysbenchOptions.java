package dev.ybbench.sysbench;

import dev.ybbench.harness.benchmark.FleetOptions;
import dev.ybbench.harness.benchmark.MergeOptions;
import dev.ybbench.harness.benchmark.ServerOptions;
import dev.ybbench.harness.cli.CountConverter;
import dev.ybbench.harness.run.RunOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * run_sysbench.sh's flags, as given, with the groups every benchmark shares: read by {@link
 * SysbenchPlan}, never changed after parsing.
 */
final class SysbenchOptions {
  @Parameters(index = "0", arity = "0..1", paramLabel = "TEST", description = "oltp_read_only, oltp_read_write, "
      + "oltp_write_only, oltp_point_select, oltp_insert, oltp_update_index, oltp_update_non_index, oltp_delete, "
      + "select_random_points or select_random_ranges")
  String test;

  @Parameters(index = "1", arity = "0..1", paramLabel = "COMMAND", description = "prepare (create and load the "
      + "tables), run, or cleanup (drop them); without: prepare what is missing, then run")
  String command;

  @Option(names = "--tables", paramLabel = "N", defaultValue = "1", description = "tables sbtest1 … sbtestN "
      + "(default: ${DEFAULT-VALUE}, as sysbench)")
  int tables;

  @Option(names = "--table-size", paramLabel = "N", defaultValue = "10000", converter = CountConverter.class,
      description = "rows per table, e.g. 100000 or 100k (default: ${DEFAULT-VALUE}, as sysbench)")
  long tableSize;

  @Option(names = "--threads", paramLabel = "N", defaultValue = "1", description = "sysbench's threads, one "
      + "connection each; also the tables loaded at once (default: ${DEFAULT-VALUE}, as sysbench)")
  int threads;

  @Option(names = "--duration", paramLabel = "S", defaultValue = "10", description = "seconds to run, sysbench's "
      + "--time (default: ${DEFAULT-VALUE}, as sysbench; 0 = until --events)")
  int duration;

  @Option(names = "--events", paramLabel = "N", defaultValue = "0", converter = CountConverter.class,
      description = "events (transactions) to run, 0 = no limit (default: ${DEFAULT-VALUE})")
  long events;

  @Option(names = "--warmup", paramLabel = "S", defaultValue = "0", description = "a run of S seconds first, kept "
      + "as phase warmup and not measured (yugabyte/sysbench's --warmup-time) (default: ${DEFAULT-VALUE})")
  int warmup;

  @Option(names = "--layout", paramLabel = "L", defaultValue = "hash", description = "the id key: hash (YSQL's "
      + "default) or range (yugabyte/sysbench's --range_key_partitioning); PostgreSQL's key is plain either way")
  String layout;

  @Option(names = "--tablets", paramLabel = "N", defaultValue = "0", description = "YugabyteDB: pre-split each "
      + "table into N tablets, a range key at ids table_size × i / N (yugabyte/sysbench's --num_table_splits)")
  int tablets;

  @Option(names = "--serial-cache", paramLabel = "N", defaultValue = "0", description = "the id sequence's CACHE "
      + "(yugabyte/sysbench's --serial_cache_size; default: the server's)")
  int serialCache;

  @Option(names = "--option", paramLabel = "NAME=VALUE", description = "an option of the test's script "
      + "(oltp_common.lua's --point_selects=5, …) or a general sysbench option (--rand-type=uniform, …), passed "
      + "on; sysbench's --NAME=VALUE is taken as this")
  List<String> options = new ArrayList<>();

  @Option(names = "--percentile", paramLabel = "P", defaultValue = "95", description = "the percentile sysbench "
      + "reports each interval and at the end (default: ${DEFAULT-VALUE})")
  int percentile;

  @Option(names = "--histogram", description = "print sysbench's latency histogram (it is recorded either way)")
  boolean histogram;

  @Option(names = "--report-interval", paramLabel = "S", defaultValue = "10", description = "print sysbench's "
      + "interval line every S seconds (it reports every second to ybbench) (default: ${DEFAULT-VALUE})")
  int reportInterval;

  @Option(names = "--sysbench", paramLabel = "PATH", description = "the sysbench to run (default: sysbench on the "
      + "PATH, Debian's package; a yugabyte/sysbench build takes several --hosts)")
  Path sysbench;

  @Mixin
  ServerOptions server = new ServerOptions();

  @Mixin
  FleetOptions fleet = new FleetOptions();

  @Mixin
  MergeOptions merging = new MergeOptions();

  @Mixin
  RunOptions run = new RunOptions();
}
