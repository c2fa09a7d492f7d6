package dev.ybbench.tpcc;

import dev.ybbench.harness.benchmark.FleetOptions;
import dev.ybbench.harness.benchmark.MergeOptions;
import dev.ybbench.harness.benchmark.ServerOptions;
import dev.ybbench.harness.run.RunOptions;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * run_tpcc.sh's flags, as given, with the groups every benchmark shares: read by {@link TpccPlan}
 * (the run) and {@link TpccCommand} (the engine, --import), never changed after parsing.
 */
final class TpccOptions {
  @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "a BenchBase-format TPC-C config (default: "
      + "tpcc/config/tiny.xml, or with --warehouses the 100-warehouse config for the target)")
  Path configFile;

  @Option(names = "--warehouses", paramLabel = "N", description = "warehouses (the config's scalefactor)")
  Integer warehouses;

  @Option(names = "--terminals", paramLabel = "N", description = "terminals (default: the config's)")
  Integer terminals;

  @Option(names = "--duration", paramLabel = "SECONDS", description = "measurement time of each work (default: the "
      + "config's <time>)")
  Integer duration;

  @Option(names = "--each-type", description = "run the config's first work (the mix), then each transaction type "
      + "alone, one work each with the first's time, warm-up and rate, in place of the config's other works: the "
      + "YugabyteDB 2.1 post's table")
  boolean eachType;

  @Option(names = "--mix-only", description = "run the config's first work only")
  boolean mixOnly;

  @Option(names = "--spec", description = "the TPC-C specification's run: 10 terminals per warehouse, keying and "
      + "think times (the config's, or the spec's where it has none), Deliveries queued and run deferred "
      + "(clause 2.7.2), terminals sharing a pool of connections; with --warehouses and no --config, the "
      + "*_100w_spec.xml config for the target")
  boolean spec;

  @Option(names = "--connections", paramLabel = "N", description = "database connections the terminals share, one "
      + "worker thread each (default: one per terminal; with keying and think times, one per 4 warehouses, at "
      + "least 2)")
  Integer connections;

  @Option(names = "--warmup", paramLabel = "SECONDS", description = "warm-up before measuring (default: the config's)")
  Integer warmup;

  @Mixin
  ServerOptions server = new ServerOptions();

  @Option(names = "--create", description = "drop and create the tables")
  boolean create;

  @Option(names = "--load", description = "load the warehouses")
  boolean load;

  @Option(names = "--execute", description = "run the terminals")
  boolean execute;

  @Option(names = "--check", description = "check the consistency conditions of clause 3.3.2")
  boolean check;

  @Option(names = "--clear", description = "drop the tables")
  boolean clear;

  @Option(names = "--loader-threads", paramLabel = "N", description = "parallel loaders, one warehouse each at a "
      + "time (default: the config's loaderThreads, else 2)")
  Integer loaderThreads;

  @Option(names = "--resume", paramLabel = "RUN_DIR", description = "with --load: finish the load of RUN_DIR, "
      + "which was killed or stopped: the warehouses it loaded whole are kept, the rows of the others deleted and "
      + "those loaded again (the same warehouse flags as that run)")
  Path resume;

  @Option(names = "--start-warehouse", paramLabel = "N", defaultValue = "1",
      description = "first warehouse this client loads and drives (default: ${DEFAULT-VALUE})")
  int startWarehouse;

  @Option(names = "--total-warehouses", paramLabel = "N", description = "warehouses in the whole database when "
      + "several clients split it (default: start + warehouses - 1)")
  Integer totalWarehouses;

  @Option(names = "--tablets", paramLabel = "N", defaultValue = "0",
      description = "YugabyteDB: pre-split each table into N tablets")
  int tablets;

  @Option(names = "--foreign-keys", description = "add the spec's foreign keys after loading")
  boolean foreignKeys;

  // 20, measured: at 10 warehouses and 64 terminals the mix gave up 0.3-0.5 % of its
  // transactions after 10 retries and none after 20 (docs/performance.md).
  @Option(names = "--max-retries", paramLabel = "N", defaultValue = "20",
      description = "retries of a conflicting transaction before it counts as aborted (default: ${DEFAULT-VALUE})")
  int maxRetries;

  @Option(names = "--engine", paramLabel = "ENGINE", defaultValue = "ybbench", description = "what runs the "
      + "phases: ybbench (default) or benchbase, the user's BenchBase build (--benchbase), against the same target, "
      + "its results recorded as ours")
  String engine;

  @Option(names = "--benchbase", paramLabel = "DIR", description = "a BenchBase build (the unpacked "
      + "benchbase-postgres.tgz, holding benchbase.jar) for --engine benchbase (default: env BENCHBASE_HOME)")
  Path benchbaseDir;

  @Option(names = "--import", paramLabel = "DIR", description = "turn a BenchBase TPC-C results directory (-d DIR) "
      + "into a run directory here, so compare.sh sets it beside ours; with --config, named after that config")
  Path importDir;

  @Mixin
  FleetOptions fleet = new FleetOptions();

  @Mixin
  MergeOptions merging = new MergeOptions();

  @Mixin
  RunOptions run = new RunOptions();
}
