package dev.ybbench.ycsb.cli;

import dev.ybbench.harness.benchmark.FleetOptions;
import dev.ybbench.harness.benchmark.MergeOptions;
import dev.ybbench.harness.benchmark.ServerOptions;
import dev.ybbench.harness.cli.CountConverter;
import dev.ybbench.harness.run.RunOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * run_ycsb.sh's flags as typed, and only read once parsed. A flag left out is null here; {@link
 * SettingSources} settles it into {@link YcsbSettings} from the workload files and {@code -p}
 * (YCSB's own properties, yugabyte/YCSB's binding properties) or the default: one precedence for
 * every setting.
 */
public final class YcsbOptions {
  @Parameters(index = "0", arity = "0..1", paramLabel = "WORKLOAD",
      description = "a file in workloads/ (workloada … workloadf, workloade-hashrange, and the published "
          + "experiments: sqlinserts, sqlinserts-read, cassandra-kv-read, cassandra-kv-write, largedata-load, "
          + "largedata-read-uniform, largedata-read-subset) or a path to any YCSB workload file; or core: YCSB's core "
          + "sequence, a, b, c, f and d over one load and e over its own, each a run of its own, then one table")
  public String workload;

  @Option(names = "-P", paramLabel = "FILE",
      description = "a YCSB workload or properties file, as YCSB's own -P takes it: several are read in order, a "
          + "later one's values replacing an earlier one's (after WORKLOAD when both are given)")
  public List<Path> files = new ArrayList<>();

  @Option(names = "--api", paramLabel = "API",
      description = "ysql (JDBC; embedded PostgreSQL) or ycql (CQL; embedded Cassandra) "
          + "(default: the workload file's ybbench.api, else what the binding properties name, else ysql)")
  public String api;

  @Mixin
  public ServerOptions server = new ServerOptions();

  @Option(names = "--nodes", paramLabel = "N", defaultValue = "1",
      description = "YCQL's embedded Cassandra: nodes in the cluster, on 127.0.0.1 … 127.0.0.N (default: ${DEFAULT-VALUE})")
  public int nodes;

  @Option(names = "--rf", paramLabel = "N",
      description = "YCQL: the keyspace's replication factor (default: the embedded node count, at most 3; else 1)")
  public Integer rf;

  @Option(names = "--consistency", paramLabel = "CL",
      description = "YCQL: consistency level of every request, e.g. ONE, QUORUM, ALL (default: QUORUM; ONE for "
          + "yugabyte/YCSB's cassandra.* properties, as its binding)")
  public String consistency;

  @Option(names = "--threads", paramLabel = "N",
      description = "client threads, one connection each (YCSB threadcount; default: 8)")
  public Integer threads;

  @Option(names = "--jobs", paramLabel = "N",
      description = "run the client threads as virtual threads over N OS threads, as pgbench's -j runs its clients "
          + "(Java 21 or later; for many more threads than cores; default: one OS thread per client thread)")
  public Integer jobs;

  @Option(names = "--records", paramLabel = "N", converter = CountConverter.class,
      description = "records to load (YCSB recordcount)")
  public Long records;

  @Option(names = "--operations", paramLabel = "N", converter = CountConverter.class,
      description = "operations in the run phase (YCSB operationcount)")
  public Long operations;

  @Option(names = "--read-threads", paramLabel = "N",
      description = "run phase: a pool of N reader threads doing the workload's reads and scans, apart from the "
          + "writers, both in one measured window (with --write-threads; replaces --threads there)")
  public Integer readThreads;

  @Option(names = "--write-threads", paramLabel = "N",
      description = "run phase: a pool of N writer threads doing the workload's inserts and updates, apart from the "
          + "readers")
  public Integer writeThreads;

  @Option(names = "--reads", paramLabel = "N", converter = CountConverter.class,
      description = "with pools: the readers' operations (default: until --duration)")
  public Long reads;

  @Option(names = "--writes", paramLabel = "N", converter = CountConverter.class,
      description = "with pools: the writers' operations (default: until --duration)")
  public Long writes;

  @Option(names = "--read-target", paramLabel = "OPS", description = "with pools: the readers' rate over all of "
      + "them, as a schedule (default: none)")
  public Double readTarget;

  @Option(names = "--write-target", paramLabel = "OPS", description = "with pools: the writers' rate over all of "
      + "them, as a schedule (default: none)")
  public Double writeTarget;

  @Option(names = "--duration", paramLabel = "SECONDS",
      description = "longest run phase; it ends at --operations or here, whichever comes first "
          + "(YCSB maxexecutiontime; default: 60; 0 = no limit)")
  public Long duration;

  @Option(names = "--warmup", paramLabel = "SECONDS",
      description = "run the workload this long before measuring; recorded apart as the phase \"warmup\" "
          + "(default: the workload's warmuptime, else 0)")
  public Long warmup;

  @Option(names = "--target", paramLabel = "OPS",
      description = "cap throughput at this many ops/s over all threads, load and run alike "
          + "(YCSB target; default: the workload file's ybbench.target_ops, else no cap)")
  public Double target;

  @Option(names = "--layout", paramLabel = "L",
      description = "primary key: hash, range or hash-range (default: the workload file's yb.layout, else hash)")
  public String layout;

  @Option(names = "--tablets", paramLabel = "N", description = "YugabyteDB: pre-split the table into N tablets")
  public Integer tablets;

  @Option(names = "--split-at", paramLabel = "K1,K2,…",
      description = "YugabyteDB YSQL, --layout range: pre-split the table at these keys (SPLIT AT VALUES)")
  public String splitAt;

  @Option(names = "--batch-size", paramLabel = "N",
      description = "load: YSQL rows per insert batch; YCQL writes in flight per thread; 1 = one at a time "
          + "(default: the workload file's ybbench.batch_size, else 512 for YSQL, 128 for YCQL)")
  public Integer batchSize;

  @Option(names = "--load-method", paramLabel = "M",
      description = "load, YSQL: copy (each batch one COPY FROM STDIN) or insert (each batch one multi-row INSERT) "
          + "(default: copy)")
  public String loadMethod;

  @Option(names = "--phase", paramLabel = "P",
      description = "load, run, both, or create (the table alone, for clients that then load it) "
          + "(default: the workload file's ybbench.phase, else both; YCSB's load / run / -load / -t)")
  public String phase;

  @Option(names = "--create-table", paramLabel = "WHEN",
      description = "always (drop and create it), if-missing (create it unless it is there, as the sample apps' "
          + "CREATE TABLE IF NOT EXISTS) or never (it must be there) (default: the workload file's "
          + "ybbench.create_table, else always for a load, never for a run alone)")
  public String createTable;

  @Mixin
  public FleetOptions fleet = new FleetOptions();

  @Mixin
  public MergeOptions merging = new MergeOptions();

  @Option(names = "--resume", paramLabel = "RUN_DIR",
      description = "continue the load of RUN_DIR, which crashed or was stopped, with the same flags: the keys it "
          + "may or may not have written are looked up in the table, the missing ones inserted, and the load goes on "
          + "where it stopped")
  public Path resume;

  @Option(names = "--driver", paramLabel = "D",
      description = "yugabyte (smart driver, com.yugabyte:jdbc-yugabytedb), pgjdbc, or vertx: the run phase through "
          + "Vert.x's PostgreSQL client, its threads virtual threads on an event loop per core or per --jobs (Java 21 "
          + "or later; the load stays on pgjdbc) (default: ysql.driver, else the smart driver on YugabyteDB, pgjdbc "
          + "on PostgreSQL)")
  public String driver;

  @Mixin
  public RunOptions run = new RunOptions();

  @Option(names = "-p", paramLabel = "KEY=VALUE",
      description = "a YCSB or binding property (repeatable; a later one replaces an earlier one)")
  public Map<String, String> properties = new LinkedHashMap<>();

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  public boolean help;
}
