package dev.ybbench.ycsb.cli;

import static dev.ybbench.ycsb.cli.YcsbSettings.CREATE_TABLE;
import static dev.ybbench.ycsb.cli.YcsbSettings.FILE_BATCH_SIZE;
import static dev.ybbench.ycsb.cli.YcsbSettings.FILE_PHASE;
import static dev.ybbench.ycsb.cli.YcsbSettings.JOBS;
import static dev.ybbench.ycsb.cli.YcsbSettings.STATUS_INTERVAL;
import static dev.ybbench.ycsb.cli.YcsbSettings.WARMUP;

import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.ServerTarget.Api;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.harness.run.ClientThreads;
import dev.ybbench.ycsb.schema.CqlSchema;
import dev.ybbench.ycsb.schema.KeyLayout;
import dev.ybbench.ycsb.schema.LoadMethod;
import dev.ybbench.ycsb.schema.SqlSchema;
import dev.ybbench.ycsb.schema.TableSpec;
import dev.ybbench.ycsb.workload.CoreWorkload64;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Refuses settled settings that mean nothing, before anything starts: one line each, naming the
 * setting as the user gave it (its flag, or where its property came from). {@link #check} needs
 * the settings alone; the runner then chooses the server, and {@link #checkOn} refuses what that
 * server cannot do.
 */
public final class SettingsCheck {
  private SettingsCheck() {}

  /** What the settings and the flags that are not settings ({@code o}: --nodes, --clients, --resume, …) refuse alone. */
  public static void check(YcsbSettings s, YcsbOptions o) {
    if (s.api() == Api.YSQL && (s.rf() != null || s.consistency() != null)) {
      throw new UserError("--rf and --consistency apply to --api ycql");
    }
    if (o.nodes < 1) {
      throw new UserError("--nodes must be at least 1, was " + o.nodes);
    }
    if (s.rf() != null && s.rf() < 1) {
      throw new UserError("--rf must be at least 1, was " + s.rf());
    }
    if (s.threads() < 1) {
      throw new UserError(s.said("--threads", "threadcount") + " must be at least 1, was " + s.threads());
    }
    // CoreWorkload takes 0 records for "no limit", and would load without end; a sample app's 0 is "none written yet".
    long leastRecords = CoreWorkload64.isCore(s.property("workload")) ? 1 : 0;
    if (s.records() < leastRecords) {
      throw new UserError(s.said("--records", "recordcount") + " must be at least " + leastRecords + ", was "
          + s.records());
    }
    if (s.createTable() != null && !List.of("always", "if-missing", "never").contains(s.createTable())) {
      throw new UserError(s.said("--create-table", CREATE_TABLE) + ": give always, if-missing or never, not '"
          + s.createTable() + "'");
    }
    if (s.operations() != null && s.operations() < 0) {
      throw new UserError(s.said("--operations", "operationcount") + " cannot be negative; 0 means until --duration "
          + "ends the run");
    }
    if (s.duration() < 0) {
      throw new UserError(s.said("--duration", "maxexecutiontime") + " cannot be negative; 0 means no time limit");
    }
    if (s.warmup() < 0) {
      throw new UserError(s.said("--warmup", WARMUP) + " cannot be negative, was " + s.warmup());
    }
    if (s.target() < 0) {
      throw new UserError(s.said("--target", "target") + " cannot be negative; 0 means no cap");
    }
    if (s.jobs() != null) {
      ClientThreads.virtual(s.jobs(), s.said("--jobs", JOBS)); // refused here on an older JVM, before anything starts
    }
    if (s.api() == Api.YSQL && s.driver() != null && s.driver().strip().equalsIgnoreCase("vertx")) {
      ClientThreads.checkScheduledBy(s.said("--driver", "ysql.driver") + " vertx");
    }
    pools(s);
    if (s.batchSize() < 1) {
      throw new UserError(s.said("--batch-size", FILE_BATCH_SIZE) + " must be at least 1, was " + s.batchSize());
    }
    if (s.driver() != null && s.ycql()) {
      throw new UserError("--driver chooses YSQL's client (yugabyte, pgjdbc or vertx); YCQL has one, YugabyteDB's CQL "
          + "driver: leave --driver out");
    }
    if (s.loadMethod() != null && s.ycql()) {
      throw new UserError("--load-method is for YSQL loads; YCQL's load keeps --batch-size writes in flight");
    }
    if (s.tablets() != null && s.tablets() < 1) {
      throw new UserError("--tablets must be at least 1, was " + s.tablets());
    }
    o.fleet.check();
    splitAt(s);
    if (s.layout() != null && KeyLayout.fromFlag(s.layout()) == KeyLayout.RANGE && s.ycql()) {
      throw new UserError(CqlSchema.RANGE_NEEDS_YSQL);
    }
    if (s.loadMethod() != null) {
      LoadMethod.named(s.loadMethod());
    }
    if (o.resume != null && !s.phase().loads()) {
      throw new UserError("--resume continues a load; --phase " + s.phase() + " has none");
    }
    if (o.resume != null && !Files.isDirectory(o.resume)) {
      throw new UserError("--resume " + o.resume + " is not a directory; give the run directory of the load");
    }
  }

  /** A pre-split at key values: YSQL's, for a range key, not beside a count, its keys in order. */
  private static void splitAt(YcsbSettings s) {
    if (s.splitAt() == null) {
      return;
    }
    String given = s.said("--split-at", TableSpec.SPLIT_AT);
    if (s.ycql()) {
      throw new UserError(CqlSchema.SPLIT_AT_NEEDS_YSQL);
    }
    if (s.tablets() != null) {
      throw new UserError(given + " and " + s.said("--tablets", TableSpec.TABLETS) + " both pre-split the table: give "
          + "one (--split-at for a range key, --tablets for a hashed one)");
    }
    if (s.layout() == null || KeyLayout.fromFlag(s.layout()) != KeyLayout.RANGE) {
      throw new UserError(SqlSchema.SPLIT_AT_NEEDS_RANGE);
    }
    if (s.splitAt().isBlank()) {
      throw new UserError(given + " names no keys; give them comma-separated, e.g. user10,user14,user18");
    }
    TableSpec.splitAt(s.splitAt(), given); // keys out of order are refused by name before anything starts
  }

  /** The run phase's reader and writer pools, or their limits given without them. */
  private static void pools(YcsbSettings s) {
    if (s.pools()) {
      if (s.readers() < 0 || s.writers() < 0 || s.readers() + s.writers() == 0) {
        throw new UserError("--read-threads and --write-threads are thread counts, at least one of them above 0; were "
            + s.readThreads() + " and " + s.writeThreads());
      }
      if (s.reads() < 0 || s.writes() < 0 || s.readTarget() < 0 || s.writeTarget() < 0) {
        throw new UserError("--reads, --writes, --read-target and --write-target cannot be negative; 0 means no limit");
      }
      if (s.operations() != null && s.provenance().flagged().contains("operationcount")) {
        throw new UserError("--operations limits one pool of threads; with separate readers and writers give --reads "
            + "and --writes");
      }
    } else if (s.reads() > 0 || s.writes() > 0 || s.readTarget() > 0 || s.writeTarget() > 0) {
      throw new UserError("--reads, --writes, --read-target and --write-target are the pools' (--read-threads, "
          + "--write-threads); without pools use --operations and --target");
    }
  }

  /**
   * What the chosen server cannot do (an embedded one starts empty, is this client's own, has
   * --nodes nodes), then what is left: the status interval, the results directory, the run's limits.
   */
  public static void checkOn(ServerTarget server, YcsbSettings s, YcsbOptions o, Path home) {
    boolean creates = s.createTable() != null && !s.createTable().equals("never");
    if (server.embedded() && s.phase() == Phase.RUN && !creates) {
      String phaseFrom = s.provenance().flagged().contains(FILE_PHASE) ? "--phase run" : s.originOf(FILE_PHASE);
      throw new UserError(phaseFrom + " needs --hosts of a server loaded earlier: an embedded server starts "
          + "empty (to load and run one workload after another on one server: run-scripts/fleet.sh --clients 1 "
          + "LOAD_WORKLOAD RUN_WORKLOAD)");
    }
    if (server.embedded() && o.fleet.clientIndex > 0) {
      throw new UserError("--client-index " + o.fleet.clientIndex + " needs --hosts: an embedded server would be this "
          + "client's own, with no client 0 to create its table");
    }
    if (server.embedded() && s.ycql() && s.rf() != null && s.rf() > o.nodes) {
      throw new UserError("--rf " + s.rf() + " needs at least " + s.rf() + " nodes; the embedded cluster has " + o.nodes
          + " (--nodes)");
    }
    String status = s.property(STATUS_INTERVAL);
    if (status != null && !status.strip().matches("[1-9][0-9]{0,5}")) {
      throw new UserError(s.originOf(STATUS_INTERVAL) + ": the status interval is a whole number of seconds from 1");
    }
    RunDirectory.checkWritable(o.run.resultsRoot(home), !o.run.dryRun);
    o.run.limits();
  }
}
