package dev.ybbench.pgbench;

import dev.ybbench.harness.benchmark.FleetOptions;
import dev.ybbench.harness.benchmark.MergeOptions;
import dev.ybbench.harness.benchmark.ServerOptions;
import dev.ybbench.harness.run.RunOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * run_pgbench.sh's flags: pgbench's own, by its names, then the groups every benchmark shares.
 * Read by {@link PgbenchPlan}, never changed after parsing. pgbench's options that cannot be
 * honoured are declared too, so that each is refused by name ({@link PgbenchPlan#REFUSED}).
 */
final class PgbenchOptions {
  @Parameters(index = "0", arity = "0..1", paramLabel = "DBNAME", description = "the database, as pgbench takes it "
      + "(or --database)")
  String dbname;

  // Initialization.
  @Option(names = {"-i", "--initialize"}, description = "initialize the tables (pgbench -i), and run nothing")
  boolean initialize;

  @Option(names = {"-I", "--init-steps"}, paramLabel = "[dtgGvpf]+", description = "pgbench's initialization steps "
      + "(default: pgbench's, dtgvp)")
  String initSteps;

  @Option(names = {"-s", "--scale"}, paramLabel = "N", description = "scale factor: 100,000 accounts a unit "
      + "(default: 1); on a run, the scale the tables must have: initialized first when missing or of another")
  Integer scale;

  @Option(names = {"-F", "--fillfactor"}, paramLabel = "N", description = "the tables' fill factor, 10 … 100")
  Integer fillfactor;

  @Option(names = "--foreign-keys", description = "with -i: foreign keys between the tables")
  boolean foreignKeys;

  @Option(names = "--partitions", paramLabel = "N", description = "with -i: pgbench_accounts in N partitions "
      + "(PostgreSQL 13's pgbench and later)")
  Integer partitions;

  @Option(names = "--partition-method", paramLabel = "range|hash", description = "with --partitions")
  String partitionMethod;

  @Option(names = "--unlogged-tables", description = "with -i: unlogged tables")
  boolean unloggedTables;

  @Option(names = {"-q", "--quiet"}, description = "with -i: progress every 5 s rather than every 100,000 rows")
  boolean quiet;

  @Option(names = "--tablespace", paramLabel = "TS", description = "with -i: the tables' tablespace")
  String tablespace;

  @Option(names = "--index-tablespace", paramLabel = "TS", description = "with -i: the indexes' tablespace")
  String indexTablespace;

  @Option(names = "--layout", paramLabel = "hash|range", description = "with -i on YugabyteDB: the tables' keys "
      + "hashed (YSQL's default) or ranged, in the tables ybbench creates there (not with ysql_bench, which creates "
      + "its own)")
  String layout;

  @Option(names = "--tablets", paramLabel = "N", description = "with -i on YugabyteDB: pre-split each table into N "
      + "tablets (a range key at values spaced evenly over its rows)")
  Integer tablets;

  // The run.
  @Option(names = {"-b", "--builtin"}, paramLabel = "NAME[@W]", description = "a built-in script: tpcb-like "
      + "(the default), simple-update or select-only, with a weight (repeatable)")
  List<String> builtins = new ArrayList<>();

  @Option(names = {"-f", "--file"}, paramLabel = "FILE[@W]", description = "a script of your own, with a weight "
      + "(repeatable)")
  List<String> files = new ArrayList<>();

  @Option(names = {"-N", "--skip-some-updates"}, description = "-b simple-update")
  boolean simpleUpdate;

  @Option(names = {"-S", "--select-only"}, description = "-b select-only")
  boolean selectOnly;

  @Option(names = {"-c", "--client"}, paramLabel = "N", description = "sessions at once (default: 1)")
  Integer sessions;

  @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "pgbench's threads (default: 1)")
  Integer jobs;

  @Option(names = {"-T", "--time"}, paramLabel = "S", description = "seconds to run")
  Integer time;

  @Option(names = {"-t", "--transactions"}, paramLabel = "N", description = "transactions per session (pgbench's "
      + "default, 10, when neither -T nor -t is given)")
  Integer transactions;

  @Option(names = {"-M", "--protocol"}, paramLabel = "simple|extended|prepared", description = "how statements "
      + "are sent (default: simple)")
  String protocol;

  @Option(names = {"-R", "--rate"}, paramLabel = "TPS", description = "a target rate: latency is then measured "
      + "from each transaction's scheduled start")
  Double rate;

  @Option(names = {"-L", "--latency-limit"}, paramLabel = "MS", description = "count transactions over MS ms as "
      + "late (and under -R, skip those already late)")
  Double latencyLimit;

  @Option(names = "--max-tries", paramLabel = "N", description = "tries of a transaction that fails on a "
      + "serialization failure or deadlock (PostgreSQL 15's pgbench, ysql_bench; 0: until -L or -T)")
  Integer maxTries;

  @Option(names = "--failures-detailed", description = "failures split into serialization and deadlock")
  boolean failuresDetailed;

  @Option(names = "--verbose-errors", description = "pgbench prints every failed try")
  boolean verboseErrors;

  @Option(names = {"-D", "--define"}, paramLabel = "VAR=VALUE", description = "a variable for the scripts "
      + "(repeatable)")
  List<String> defines = new ArrayList<>();

  @Option(names = {"-P", "--progress"}, paramLabel = "S", description = "show pgbench's progress line every S "
      + "seconds (it reports every second to ybbench either way)")
  Integer progress;

  @Option(names = {"-n", "--no-vacuum"}, description = "no vacuum (and, when running, no truncate of "
      + "pgbench_history) first")
  boolean noVacuum;

  @Option(names = {"-v", "--vacuum-all"}, description = "vacuum all four tables before running")
  boolean vacuumAll;

  @Option(names = {"-r", "--report-per-command"}, description = "show pgbench's latency (and failures) per "
      + "statement (it reports them to ybbench either way)")
  boolean reportPerCommand;

  @Option(names = {"-C", "--connect"}, description = "a new connection for each transaction")
  boolean connect;

  @Option(names = "--random-seed", paramLabel = "SEED", description = "time, rand or a number")
  String randomSeed;

  @Option(names = "--exit-on-abort", description = "end the run when a session aborts (PostgreSQL 17's pgbench)")
  boolean exitOnAbort;

  // pgbench's connection flags, taken as ybbench's --hosts and --user.
  @Option(names = {"-h", "--host"}, paramLabel = "HOST", description = "the server's host (or --hosts)")
  String host;

  @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "its port (default: 5432; ysql_bench's "
      + "5433)")
  Integer port;

  @Option(names = {"-U", "--username"}, paramLabel = "USER", description = "the user (or --user)")
  String username;

  // pgbench's options ybbench cannot honour: each refused by name.
  @Option(names = {"-l", "--log"}, hidden = true)
  boolean log;

  @Option(names = "--log-prefix", hidden = true)
  String logPrefix;

  @Option(names = "--sampling-rate", hidden = true)
  String samplingRate;

  @Option(names = "--aggregate-interval", hidden = true)
  String aggregateInterval;

  @Option(names = "--progress-timestamp", hidden = true)
  boolean progressTimestamp;

  @Option(names = {"-d", "--debug", "--dbname"}, hidden = true, arity = "0..1", fallbackValue = "")
  String debug;

  @Option(names = "--show-script", hidden = true)
  String showScript;

  // ybbench's.
  @Option(names = "--pgbench-binary", paramLabel = "PATH", description = "the pgbench to run: YugabyteDB's "
      + "ysql_bench, or a pgbench of another version (default: pgbench on the PATH, Debian's)")
  Path binary;

  @Mixin
  ServerOptions server = new ServerOptions();

  @Mixin
  FleetOptions fleet = new FleetOptions();

  @Mixin
  MergeOptions merging = new MergeOptions();

  @Mixin
  RunOptions run = new RunOptions();
}
