package dev.ybbench.ycsb.cli;

import dev.ybbench.harness.UserError;
import dev.ybbench.ycsb.workload.KeyValueApp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * yb-sample-apps' command line ({@code java -jar yb-sample-apps.jar --workload APP …}) in
 * ybbench's words, with the meaning each option has in the sample app (read from
 * yugabyte/yb-sample-apps: {@code CmdLineOpts}, {@code AppBase}, each app, {@code
 * SimpleLoadGenerator}), for the key-value apps {@link KeyValueApp#APPS}. A command line is the
 * sample app's when it has {@code --workload}. The app's defaults are written out in the
 * translation (its readers and writers, reads, writes and keys, CassandraBatchKeyValue's batches of
 * 10 rows; no time limit), so the equivalent command says everything. An option the app has but
 * ybbench cannot honour is refused by name, as is any other app.
 */
public final class SampleAppCommandLine {
  /** The translation, and notes on options whose meaning in the app is to change nothing. */
  public record Translation(List<String> args, List<String> notes) {}

  private SampleAppCommandLine() {}

  /** Whether {@code args} is a sample app's command line. */
  public static boolean applies(String[] args) {
    for (String a : args) {
      if (a.equals("--workload") || a.startsWith("--workload=")) {
        return true;
      }
    }
    return false;
  }

  /** The app's options that take a value (commons-cli's {@code hasArg}) among those ybbench knows. */
  private static final Set<String> VALUED = Set.of("--workload", "--nodes", "--uuid", "--num_unique_keys",
      "--num_writes", "--num_reads", "--num_threads_write", "--num_threads_read", "--num_threads", "--value_size",
      "--max_written_key", "--run_time", "--batch_size", "--username", "--password", "--drop_table_name",
      "--create_table_name", "--default_postgres_database", "--load_balance", "--topology_keys",
      "--concurrent_clients", "--cql_connect_timeout_ms", "--cql_read_timeout_ms", "--with_local_dc",
      "--read_rate", "--write_rate", "--table_ttl_seconds", "--ssl_cert", "--ssl_key", "--yugabyte_password",
      "--debug_driver", "--sleep_time", "--socket_timeout");

  /** The app's options that ybbench cannot give their meaning, and why. */
  private static final Map<String, String> REFUSED = Map.ofEntries(
      Map.entry("--ssl_cert", "ybbench's YCQL TLS uses the JVM's trust store (-p ycql.tls=true), and YSQL's sslmode "
          + "goes in -p ysql.url_options"),
      Map.entry("--ssl_key", "ybbench's YCQL TLS uses the JVM's trust store (-p ycql.tls=true)"),
      Map.entry("--lock_step", "it runs one operation at a time over all threads; ybbench has no such mode"),
      Map.entry("--debug_driver", "ybbench does not log the driver's debug output"),
      Map.entry("--report_read_restarts", "ybbench counts every retry by its error class in summary.json"),
      Map.entry("--skip_workload", "ybbench runs the workload; drop a table with ysqlsh or ycqlsh"),
      Map.entry("--yugabyte_password", "it grants a non-default user rights with the yugabyte user's password; grant "
          + "them before the run"),
      Map.entry("--sleep_time", "it is the Redis apps'"),
      Map.entry("--socket_timeout", "it is the Redis apps'"),
      Map.entry("--use_redis_cluster", "it is the Redis apps'"));

  /**
   * The apps' own defaults (their static blocks, superclass first).
   *
   * @param writes       rows, however many a write holds (the app's --num_writes counts keys written)
   * @param setupThreads the pure-read setup's writers: Main's 100 for SQL, 16 for CQL, 8 for a batch app
   * @param batchSize    rows per write, one batch statement each; 0 for an app that writes one row per statement
   */
  private record Defaults(int readers, int writers, long reads, long writes, long uniqueKeys, int setupThreads,
      String database, String table, int batchSize) {}

  private static final Map<String, Defaults> APPS = Map.of(
      "SqlInserts", new Defaults(2, 2, 1_500_000, 2_000_000, 2_000_000, 100, "postgres", "postgresqlkeyvalue", 0),
      // Both extend AppBase alone: 1 reader, 1 writer, no limits (-1), AppBase's 1,000,000 keys.
      // SqlUpdates updates SqlInserts' table.
      "SqlUpdates", new Defaults(1, 1, -1, -1, 1_000_000, 100, "postgres", "postgresqlkeyvalue", 0),
      "SqlSecondaryIndex", new Defaults(1, 1, -1, -1, 1_000_000, 100, "postgres", "sqlsecondaryindex", 0),
      "CassandraKeyValue", new Defaults(24, 2, 1_500_000, 2_000_000, 2_000_000, 16, "ybdemo_keyspace",
          "cassandrakeyvalue", 0),
      // extends CassandraKeyValue: its table and defaults, and static { appConfig.batchSize = 10; }
      "CassandraBatchKeyValue", new Defaults(24, 2, 1_500_000, 2_000_000, 2_000_000, 8, "ybdemo_keyspace",
          "cassandrakeyvalue", KeyValueApp.DEFAULT_BATCH_SIZE),
      // extends CassandraKeyValueBase, whose static block keeps AppBase's 1,000,000 keys
      "CassandraRangeKeyValue", new Defaults(24, 2, 1_500_000, 2_000_000, 1_000_000, 16, "ybdemo_keyspace",
          "cassandrarangekeyvalue", 0));

  /** Keys the app writes before its readers start when it has no writers and is not --read_only (its pure-read setup). */
  static final long PURE_READ_SETUP_KEYS = 100_000;

  /**
   * The sample app's command line in ybbench's flags; the harness's own flags ({@code
   * --results-dir}, {@code --label}, {@code --api}, …) pass through.
   *
   * @param uuid a new uuid, for a command line with neither --uuid nor --nouuid (the app's keys are then new)
   */
  public static Translation translate(String[] args, Supplier<UUID> uuid) {
    Map<String, String> app = new LinkedHashMap<>();
    List<String> ours = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      String inline = a.contains("=") ? a.substring(a.indexOf('=') + 1) : null;
      if (REFUSED.containsKey(name)) {
        throw new UserError(name + " is the sample app's, but " + REFUSED.get(name) + "; leave it out");
      }
      boolean theirs = VALUED.contains(name) || Set.of("--nouuid", "--read_only", "--skip_ddl", "--keep_table",
          "--truncate", "--output_json_metrics", "--local_reads", "--use_ascii_values", "--sanity_check_at_end",
          "--print_all_exceptions", "--disable_yb_load_balancing_policy").contains(name);
      if (!theirs) {
        ours.add(a); // ybbench's own flag, and its value if it has one, pass through
        continue;
      }
      if (VALUED.contains(name) && inline == null) {
        if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
          throw new UserError("the sample app's " + name + " needs a value" + (name.equals("--nodes")
              ? " (an unset $YSQL_NODES or $YCQL_ADDRS?); leave --nodes out for an embedded server" : ""));
        }
        inline = args[++i];
      }
      if (app.containsKey(name)) {
        throw new UserError("the sample app's " + name + " is given twice");
      }
      app.put(name, inline == null ? "" : inline);
    }
    return new Builder(app, ours, uuid).build();
  }

  /** Turns the app's options into ybbench's flags, one idea per method. */
  private static final class Builder {
    private final Map<String, String> app;
    private final List<String> passed;
    private final Supplier<UUID> uuid;
    private final List<String> out = new ArrayList<>();
    /** The -p properties, after the flags. */
    private final List<String> properties = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final String name;
    private final Defaults d;
    private final boolean sql;
    /** SqlUpdates: it updates the keys a SqlInserts run wrote, and creates nothing. */
    private final boolean updates;
    /** Rows one write of the app holds: a batch app's batch size, else 1 ({@link #batch}). */
    private long rowsPerWrite = 1;

    Builder(Map<String, String> app, List<String> passed, Supplier<UUID> uuid) {
      this.app = app;
      this.passed = passed;
      this.uuid = uuid;
      this.name = app.get("--workload");
      this.d = APPS.get(name);
      if (d == null) {
        List<String> apps = KeyValueApp.APPS;
        throw new UserError("--workload " + name + " is not a sample app ybbench runs; it runs "
            + String.join(", ", apps.subList(0, apps.size() - 1)) + " and " + apps.get(apps.size() - 1)
            + " (or give a YCSB workload)");
      }
      this.sql = name.startsWith("Sql");
      this.updates = name.equals("SqlUpdates");
    }

    private long number(String option, long dflt) {
      String v = app.get(option);
      if (v == null) {
        return dflt;
      }
      try {
        return Long.parseLong(v.strip());
      } catch (NumberFormatException e) {
        throw new UserError("the sample app's " + option + " " + v + " is not a whole number");
      }
    }

    private void flag(String flag, Object value) {
      out.add(flag);
      out.add(String.valueOf(value));
    }

    private void property(String name, Object value) {
      properties.add("-p");
      properties.add(name + "=" + value);
    }

    Translation build() {
      out.add(name); // workloads/<the app>
      if (app.containsKey("--nodes")) {
        flag("--hosts", app.get("--nodes"));
      }
      keys();
      batch();
      threads();
      table();
      connection();
      noEffect();
      out.addAll(properties);
      out.addAll(passed);
      return new Translation(List.copyOf(out), List.copyOf(notes));
    }

    /** --uuid / --nouuid, --num_unique_keys, --max_written_key, --value_size. */
    private void keys() {
      boolean readOnly = app.containsKey("--read_only");
      if (app.containsKey("--uuid") && app.containsKey("--nouuid")) {
        throw new UserError("the sample app's --uuid and --nouuid are each other's opposite; give one");
      }
      String prefix;
      if (app.containsKey("--uuid")) {
        try {
          prefix = UUID.fromString(app.get("--uuid").strip()).toString();
        } catch (IllegalArgumentException e) {
          throw new UserError("the sample app's --uuid " + app.get("--uuid") + " is not a UUID");
        }
      } else if (updates) {
        throw new UserError("SqlUpdates requires option --uuid to be set (as the sample app says): the uuid SqlInserts "
            + "wrote its keys under");
      } else if (app.containsKey("--nouuid")) {
        prefix = "key";
      } else if (readOnly) {
        throw new UserError("uuid (or nouuid) needs to be provided when using --read_only (as the sample app says): "
            + "the reads are of the keys an earlier run with that --uuid wrote");
      } else {
        prefix = uuid.get().toString(); // the app's: a new uuid, so these keys are new
      }
      property("app.key_prefix", prefix);
      property("app.unique_keys", number("--num_unique_keys", d.uniqueKeys()));
      long maxWritten = number("--max_written_key", -1);
      if (maxWritten < -1) {
        throw new UserError("the sample app's --max_written_key " + maxWritten + " is below -1");
      }
      if (updates && maxWritten <= 0) {
        throw new UserError("SqlUpdates requires option --max_written_key to be set (as the sample app says): the "
            + "highest key SqlInserts wrote, above 0");
      }
      if (readOnly && maxWritten < 0) {
        throw new UserError("--read_only reads keys below --max_written_key, and none is given: the sample app's "
            + "readers would wait forever; give --max_written_key");
      }
      // Keys 0 … max_written_key are in; the writers go on after them, the readers read below the highest.
      long written = maxWritten + 1;
      boolean setup = number("--num_threads_write", d.writers()) == 0 && !readOnly;
      if (setup && updates) {
        // Its pure-read setup would be 100,000 of its own writes: updates of keys that are there already.
        setup = false;
        notes.add("no writer threads: SqlUpdates' setup for its readers would update " + PURE_READ_SETUP_KEYS
            + " existing keys; the readers read the keys SqlInserts wrote without it");
      }
      if (setup) {
        // With no writers the app first writes 100,000 keys of its own (setupForPureReads), then reads.
        flag("--phase", "both");
        property("insertstart", written);
        flag("--records", written + PURE_READ_SETUP_KEYS);
        flag("--threads", d.setupThreads());
        if (d.batchSize() == 0) {
          flag("--batch-size", 1); // one write at a time; a batch app's setup writes its own batches
        }
        notes.add("no writer threads and no --read_only: as the sample app, " + PURE_READ_SETUP_KEYS
            + " keys are written first (the load phase), then read");
      } else {
        flag("--phase", "run");
        flag("--records", written);
      }
      if (app.containsKey("--value_size")) {
        long size = number("--value_size", 0);
        if (sql) {
          notes.add("--value_size " + size + ": " + name + " writes v = 'val:N' whatever its size, as the sample app "
              + "does; it changes nothing");
        } else {
          if (size < 0) {
            throw new UserError("the sample app's --value_size " + size + " cannot be negative");
          }
          property("app.value_size", size);
        }
      }
      if (app.containsKey("--use_ascii_values")) {
        if (sql) {
          notes.add("--use_ascii_values: " + name + "'s values are text already; it changes nothing");
        } else {
          property("app.ascii_values", true);
        }
      }
    }

    /** --batch_size: a batch app's rows per write; the app's check against the unique keys for every app. */
    private void batch() {
      if (!app.containsKey("--batch_size")) {
        if (d.batchSize() > 0) {
          rowsPerWrite = d.batchSize();
          property("app.batch_size", rowsPerWrite);
        }
        return;
      }
      long size = number("--batch_size", d.batchSize());
      long unique = number("--num_unique_keys", d.uniqueKeys());
      if (size > unique) { // CmdLineOpts: every app but SqlDataLoad exits on it
        throw new UserError("the sample app's --batch_size " + size + " is more than its " + unique + " unique keys: "
            + "the batch size cannot be more than the number of unique keys (as the sample app says)");
      }
      if (d.batchSize() == 0) {
        notes.add("--batch_size " + size + ": " + name + " writes one row per statement, as the sample app does "
            + "whatever --batch_size says");
        return;
      }
      if (size < 1 || size > Integer.MAX_VALUE) {
        throw new UserError("the sample app's --batch_size " + size + ": " + name + "'s batches hold 1 to "
            + Integer.MAX_VALUE + " rows");
      }
      rowsPerWrite = size;
      property("app.batch_size", size);
    }

    /** Readers and writers, their limits, rates and the time limit. */
    private void threads() {
      boolean readOnly = app.containsKey("--read_only");
      long readers = number("--num_threads_read", d.readers());
      long writers = number("--num_threads_write", d.writers());
      if (readOnly && writers > 0 && app.containsKey("--num_threads_write")) {
        notes.add("--read_only: the " + writers + " writer threads of --num_threads_write are left out, as the sample "
            + "app leaves them");
      }
      if (readOnly) {
        writers = 0;
      }
      long reads = number("--num_reads", d.reads());
      long writes = number("--num_writes", d.writes());
      // The app stops a pool at its count (-1: never); a count of 0 leaves the pool with nothing to do.
      if (reads == 0) {
        readers = 0;
      }
      if (writes == 0) {
        writers = 0;
      }
      if (readers < 0 || writers < 0 || readers + writers == 0) {
        throw new UserError("the sample app's command has no reader and no writer threads with anything to do "
            + "(--num_threads_read " + readers + ", --num_threads_write " + writers + ")");
      }
      flag("--read-threads", readers);
      flag("--write-threads", writers);
      if (readers > 0 && reads > 0) {
        flag("--reads", reads);
      }
      if (writers > 0 && writes > 0) {
        flag("--writes", writes);
      }
      // --read_rate / --write_rate are each thread's rate in the app; a pool's here is over all its threads.
      // The app paces each call, and a batch app's write is a batch: its rows are the batch's times as many.
      if (app.containsKey("--read_rate") && readers > 0) {
        flag("--read-target", rate("--read_rate") * readers);
      }
      if (app.containsKey("--write_rate") && writers > 0) {
        flag("--write-target", rate("--write_rate") * writers * rowsPerWrite);
      }
      long runTime = number("--run_time", -1);
      flag("--duration", runTime > 0 ? runTime : 0);
      if (app.containsKey("--num_threads")) {
        notes.add("--num_threads " + app.get("--num_threads") + ": " + name + " ignores it, as the sample app does; "
            + "--num_threads_read and --num_threads_write set its threads");
      }
    }

    private double rate(String option) {
      try {
        double r = Double.parseDouble(app.get(option).strip());
        if (!(r > 0)) {
          throw new NumberFormatException();
        }
        return r;
      } catch (NumberFormatException e) {
        throw new UserError("the sample app's " + option + " " + app.get(option) + " is not a rate above 0");
      }
    }

    /** Table, database or keyspace, and what to do with an existing table. */
    private void table() {
      flag("--database", app.getOrDefault("--default_postgres_database", d.database()));
      if (!sql && app.containsKey("--default_postgres_database")) {
        throw new UserError("--default_postgres_database is the SQL apps'; " + name + "'s keyspace is "
            + "ybdemo_keyspace");
      }
      if (updates) {
        for (String ddl : List.of("--drop_table_name", "--truncate", "--skip_ddl")) {
          if (app.containsKey(ddl)) {
            throw new UserError(ddl + ": SqlUpdates runs no DDL, it updates the table SqlInserts wrote (as the sample "
                + "app does); leave it out");
          }
        }
        String table = app.get("--create_table_name");
        if (table != null) {
          property("table", table.strip().toLowerCase(Locale.ROOT));
        }
        flag("--create-table", "never"); // a missing table fails the run before it starts
        return;
      }
      if (app.containsKey("--drop_table_name") && app.containsKey("--create_table_name")) {
        throw new UserError("the sample app's --drop_table_name and --create_table_name cannot be used together");
      }
      String table = app.getOrDefault("--drop_table_name", app.get("--create_table_name"));
      if (table != null) {
        property("table", table.strip().toLowerCase(Locale.ROOT)); // the app lower-cases table names
      }
      long ttl = number("--table_ttl_seconds", -1);
      if (ttl > 0) {
        throw new UserError("--table_ttl_seconds: ybbench's tables keep their rows; leave it out");
      }
      // The app's CREATE TABLE IF NOT EXISTS keeps what is there; --drop_table_name drops it first.
      if (app.containsKey("--skip_ddl")) {
        flag("--create-table", "never");
      } else if (app.containsKey("--drop_table_name") || app.containsKey("--truncate")) {
        flag("--create-table", "always");
      } else {
        flag("--create-table", "if-missing");
      }
    }

    /** Credentials, the driver and its balancing, timeouts. */
    private void connection() {
      if (app.containsKey("--password") && !app.containsKey("--username")) {
        throw new UserError("the sample app's --password needs --username");
      }
      if (sql || app.containsKey("--username")) {
        flag("--user", app.getOrDefault("--username", "postgres")); // the SQL apps connect as postgres unless told
      }
      if (app.containsKey("--password")) {
        flag("--password", app.get("--password"));
      }
      boolean balance = !"false".equalsIgnoreCase(app.getOrDefault("--load_balance", "true").strip());
      if (sql) {
        // The app connects through the smart driver, balancing, unless --load_balance false (then pgjdbc).
        flag("--driver", balance ? "yugabyte" : "pgjdbc");
        if (app.containsKey("--topology_keys")) {
          property("ysql.url_options", "topology-keys=" + app.get("--topology_keys").strip());
        }
        if (app.containsKey("--local_reads")) {
          throw new UserError("--local_reads sets yb_read_from_followers for " + name + "; ybbench does not: give "
              + "-p ysql.url_options=options=-c%20yb_read_from_followers%3Dtrue on YugabyteDB instead");
        }
        for (String cql : List.of("--concurrent_clients", "--cql_connect_timeout_ms", "--cql_read_timeout_ms",
            "--with_local_dc", "--disable_yb_load_balancing_policy")) {
          if (app.containsKey(cql)) {
            throw new UserError(cql + " is the sample app's CQL option; " + name + " is YSQL");
          }
        }
        return;
      }
      if (app.containsKey("--topology_keys")) {
        throw new UserError("--topology_keys is the sample app's YSQL option; " + name + " is YCQL");
      }
      property("ycql.connections_per_node", number("--concurrent_clients", 4));
      if (number("--cql_connect_timeout_ms", 0) > 0) {
        property("ycql.connect_timeout_ms", number("--cql_connect_timeout_ms", 0));
      }
      if (number("--cql_read_timeout_ms", 0) > 0) {
        property("ycql.request_timeout_ms", number("--cql_read_timeout_ms", 0));
      }
      if (app.containsKey("--with_local_dc")) {
        if (app.containsKey("--disable_yb_load_balancing_policy")) {
          throw new UserError("the sample app's --with_local_dc and --disable_yb_load_balancing_policy cannot be "
              + "used together");
        }
        property("ycql.local_dc", app.get("--with_local_dc").strip());
      }
      if (app.containsKey("--disable_yb_load_balancing_policy")) {
        property("ycql.partition_metadata", false); // no routing of each key to its tablet's leader
      }
      if (app.containsKey("--local_reads")) {
        property("ycql.read_consistency", "ONE"); // the app's SELECT at ONE, its writes at QUORUM
      }
      if (!balance) {
        throw new UserError("--load_balance false is the sample app's YSQL option; " + name + " balances by "
            + "partition (--disable_yb_load_balancing_policy turns that off)");
      }
    }

    /** Options whose meaning in the app is to change nothing here: each named in a note. */
    private void noEffect() {
      if (app.containsKey("--output_json_metrics")) {
        notes.add("--output_json_metrics: the results are JSON already (summary.json, timeseries.csv)");
      }
      if (app.containsKey("--keep_table")) {
        notes.add("--keep_table: the table is kept, as by default");
      }
      if (app.containsKey("--sanity_check_at_end")) {
        notes.add("--sanity_check_at_end: a run with no successful operation, or more errors than --max-error-pct, "
            + "ends failed anyway");
      }
      if (app.containsKey("--print_all_exceptions")) {
        notes.add("--print_all_exceptions: each error class's first message is printed, and every error counted in "
            + "summary.json");
      }
      if (app.containsKey("--truncate") && !app.containsKey("--drop_table_name")) {
        notes.add("--truncate: the table is created afresh, empty, as after the app's TRUNCATE");
      }
    }
  }
}
