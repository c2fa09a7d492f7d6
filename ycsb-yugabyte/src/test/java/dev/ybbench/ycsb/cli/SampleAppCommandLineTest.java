package dev.ybbench.ycsb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The published sample-app command lines in ybbench's words, exactly, with the apps' defaults
 * written out; and the options ybbench cannot honour refused by name.
 */
class SampleAppCommandLineTest {
  private static final UUID NEW = UUID.fromString("11111111-2222-3333-4444-555555555555");

  private static String ours(String line) {
    return String.join(" ", SampleAppCommandLine.translate(line.split(" "), () -> NEW).args());
  }

  private static String refusal(String line) {
    return assertThrows(UserError.class, () -> SampleAppCommandLine.translate(line.split(" "), () -> NEW))
        .getMessage();
  }

  @Test
  void onlyACommandWithWorkloadIsTheSampleApps() {
    assertTrue(SampleAppCommandLine.applies(new String[] {"--workload", "SqlInserts"}));
    assertFalse(SampleAppCommandLine.applies(new String[] {"workloada", "--threads", "4"}));
  }

  /** The 100-node YSQL write, as the post gives it: 2,000,000 writes (the app's default) over 5 billion keys. */
  @Test
  void sqlInsertsWrite() {
    assertEquals("SqlInserts --hosts $YSQL_NODES --phase run --records 0 --read-threads 0 --write-threads 400 "
        + "--writes 2000000 --duration 0 --database postgres --create-table if-missing --user postgres --driver "
        + "yugabyte -p app.key_prefix=00000000-0000-0000-0000-000000000001 -p app.unique_keys=5000000000",
        ours("--workload SqlInserts --nodes $YSQL_NODES --num_unique_keys 5000000000 --num_threads_write 400 "
            + "--num_threads_read 0 --uuid 00000000-0000-0000-0000-000000000001"));
  }

  /** Then the reads, of the keys below --max_written_key written under the same uuid; no writers. */
  @Test
  void sqlInsertsReadOnly() {
    assertEquals("SqlInserts --hosts $YSQL_NODES --phase run --records 500000001 --read-threads 400 "
        + "--write-threads 0 --reads 50000000000 --duration 0 --database postgres --create-table if-missing --user "
        + "postgres --driver yugabyte -p app.key_prefix=00000000-0000-0000-0000-000000000001 "
        + "-p app.unique_keys=2000000",
        ours("--workload SqlInserts --nodes $YSQL_NODES --max_written_key 500000000 --num_writes 0 "
            + "--num_reads 50000000000 --num_threads_write 0 --num_threads_read 400 --read_only "
            + "--uuid 00000000-0000-0000-0000-000000000001"));
  }

  /** The large data set's load: 30 billion keys of 256-byte values, 256 writers and one reader at once. */
  @Test
  void cassandraKeyValueLargeData() {
    assertEquals("CassandraKeyValue --hosts $YCQL_ADDRS --phase run --records 0 --read-threads 1 --write-threads "
        + "256 --reads 1500000 --writes 30000000000 --duration 0 --database ybdemo_keyspace --create-table "
        + "if-missing -p app.key_prefix=key -p app.unique_keys=30000000000 -p app.value_size=256 "
        + "-p ycql.connections_per_node=4",
        ours("--workload CassandraKeyValue --nouuid --nodes $YCQL_ADDRS --value_size 256 --num_unique_keys "
            + "30000000000 --num_writes 30000000000 --num_threads_write 256 --num_threads_read 1"));
  }

  /** With no writers and no --read_only the app writes 100,000 keys of its own first, with 16 threads over CQL. */
  @Test
  void readersAloneReadKeysTheAppWritesFirst() {
    SampleAppCommandLine.Translation t = SampleAppCommandLine.translate(("--workload CassandraKeyValue --nodes "
        + "$ENDPOINTS --nouuid --value_size 256 --num_threads_read 256 --num_threads_write 0 --num_unique_keys "
        + "1000000 --label kv --results-dir r").split(" "), () -> NEW);
    assertEquals("CassandraKeyValue --hosts $ENDPOINTS --phase both --records 100000 --threads 16 --batch-size 1 "
        + "--read-threads 256 --write-threads 0 --reads 1500000 --duration 0 --database ybdemo_keyspace "
        + "--create-table if-missing -p app.key_prefix=key -p app.unique_keys=1000000 -p insertstart=0 "
        + "-p app.value_size=256 -p ycql.connections_per_node=4 --label kv --results-dir r",
        String.join(" ", t.args()), "ybbench's own flags pass through");
    assertEquals(List.of("no writer threads and no --read_only: as the sample app, 100000 keys are written first (the "
        + "load phase), then read"), t.notes());
  }

  /**
   * The YCQL key-value page's batch run: 64 writers, each write one LOGGED batch of 25 rows, no
   * readers, 2,000,000 rows (the app's default --num_writes, which counts rows) over 1 billion keys.
   */
  @Test
  void cassandraBatchKeyValuePublishedBatchRun() {
    SampleAppCommandLine.Translation t = SampleAppCommandLine.translate(("--workload CassandraBatchKeyValue --nodes "
        + "$ENDPOINTS --nouuid --batch_size 25 --value_size 256 --num_threads_read 0 --num_threads_write 64 "
        + "--num_unique_keys 1000000000").split(" "), () -> NEW);
    assertEquals("CassandraBatchKeyValue --hosts $ENDPOINTS --phase run --records 0 --read-threads 0 --write-threads "
        + "64 --writes 2000000 --duration 0 --database ybdemo_keyspace --create-table if-missing -p app.key_prefix=key "
        + "-p app.unique_keys=1000000000 -p app.value_size=256 -p app.batch_size=25 -p ycql.connections_per_node=4",
        String.join(" ", t.args()));
    assertEquals(List.of(), t.notes(), "--batch_size is honoured, not noted");
  }

  /** The app's usage line: its static blocks' defaults written out, batches of 10 among them. */
  @Test
  void cassandraBatchKeyValueDefaults() {
    assertEquals("CassandraBatchKeyValue --hosts 127.0.0.1:9042 --phase run --records 0 --read-threads 24 "
        + "--write-threads 2 --reads 1500000 --writes 2000000 --duration 0 --database ybdemo_keyspace --create-table "
        + "if-missing -p app.key_prefix=11111111-2222-3333-4444-555555555555 -p app.unique_keys=2000000 "
        + "-p app.batch_size=10 -p ycql.connections_per_node=4",
        ours("--workload CassandraBatchKeyValue --nodes 127.0.0.1:9042"));
  }

  /**
   * Readers alone: the app's pure-read setup writes 100,000 keys with 8 threads in its own batches
   * (no --batch-size of ybbench's); a write rate paces each writer's batches, so the pool's rate in
   * rows is the rate × the writers × the batch size.
   */
  @Test
  void cassandraBatchKeyValueSetupAndRates() {
    assertEquals("CassandraBatchKeyValue --hosts h:9042 --phase both --records 100000 --threads 8 --read-threads 24 "
        + "--write-threads 0 --reads 1500000 --duration 0 --database ybdemo_keyspace --create-table if-missing "
        + "-p app.key_prefix=key -p app.unique_keys=2000000 -p insertstart=0 -p app.batch_size=4 "
        + "-p ycql.connections_per_node=4",
        ours("--workload CassandraBatchKeyValue --nodes h:9042 --nouuid --num_threads_write 0 --batch_size 4"));
    assertEquals("CassandraBatchKeyValue --hosts h:9042 --phase run --records 0 --read-threads 0 --write-threads 4 "
        + "--writes 1000 --write-target 5000.0 --duration 60 --database ybdemo_keyspace --create-table if-missing "
        + "-p app.key_prefix=key -p app.unique_keys=2000000 -p app.batch_size=25 -p ycql.connections_per_node=4",
        ours("--workload CassandraBatchKeyValue --nodes h:9042 --nouuid --num_threads_read 0 --num_threads_write 4 "
            + "--write_rate 50 --batch_size 25 --num_writes 1000 --run_time 60"));
  }

  @Test
  void theAppsDefaultsAndOptionsThatChangeNothing() {
    SampleAppCommandLine.Translation t = SampleAppCommandLine.translate(("--workload SqlInserts --nodes h:5433 "
        + "--value_size 64 --batch_size 10 --num_threads 8 --output_json_metrics --run_time 30 --username u "
        + "--password secret --load_balance false --drop_table_name MyTable").split(" "), () -> NEW);
    assertEquals("SqlInserts --hosts h:5433 --phase run --records 0 --read-threads 2 --write-threads 2 --reads "
        + "1500000 --writes 2000000 --duration 30 --database postgres --create-table always --user u --password "
        + "secret --driver pgjdbc -p app.key_prefix=11111111-2222-3333-4444-555555555555 -p app.unique_keys=2000000 "
        + "-p table=mytable", String.join(" ", t.args()), "a new uuid, as the app's, so these keys are new");
    assertEquals(4, t.notes().size(), t.notes().toString());
    assertTrue(t.notes().get(0).startsWith("--value_size 64: SqlInserts writes v = 'val:N' whatever its size"));
  }

  /**
   * SqlUpdates as its help gives it: after SqlInserts under a uuid, updates of the keys below
   * --max_written_key, 1 reader and 1 writer with no limit, on SqlInserts' table, which it never
   * creates.
   */
  @Test
  void sqlUpdatesAfterSqlInserts() {
    assertEquals("SqlUpdates --hosts 127.0.0.1:5433 --phase run --records 100001 --read-threads 1 --write-threads 1 "
        + "--duration 0 --database postgres --create-table never --user postgres --driver yugabyte "
        + "-p app.key_prefix=ffffffff-ffff-ffff-ffff-ffffffffffff -p app.unique_keys=1000000",
        ours("--workload SqlUpdates --nodes 127.0.0.1:5433 --uuid ffffffff-ffff-ffff-ffff-ffffffffffff "
            + "--max_written_key 100000"));
    SampleAppCommandLine.Translation readers = SampleAppCommandLine.translate(("--workload SqlUpdates --uuid "
        + "ffffffff-ffff-ffff-ffff-ffffffffffff --max_written_key 10 --num_threads_write 0 --num_threads_read 4")
        .split(" "), () -> NEW);
    assertEquals("SqlUpdates --phase run --records 11 --read-threads 4 --write-threads 0 --duration 0 --database "
        + "postgres --create-table never --user postgres --driver yugabyte -p app.key_prefix="
        + "ffffffff-ffff-ffff-ffff-ffffffffffff -p app.unique_keys=1000000", String.join(" ", readers.args()),
        "no setup writes: the keys are SqlInserts'");
    assertEquals(List.of("no writer threads: SqlUpdates' setup for its readers would update 100000 existing keys; "
        + "the readers read the keys SqlInserts wrote without it"), readers.notes());
    assertEquals("SqlUpdates requires option --uuid to be set (as the sample app says): the uuid SqlInserts wrote its "
        + "keys under", refusal("--workload SqlUpdates --max_written_key 10 --nouuid"));
    assertEquals("SqlUpdates requires option --max_written_key to be set (as the sample app says): the highest key "
        + "SqlInserts wrote, above 0", refusal("--workload SqlUpdates --uuid ffffffff-ffff-ffff-ffff-ffffffffffff"));
    assertEquals("--drop_table_name: SqlUpdates runs no DDL, it updates the table SqlInserts wrote (as the sample app "
        + "does); leave it out", refusal("--workload SqlUpdates --uuid ffffffff-ffff-ffff-ffff-ffffffffffff "
        + "--max_written_key 10 --drop_table_name t"));
  }

  /**
   * The xCluster pages' load: SqlSecondaryIndex with its defaults, 1 reader and 1 writer with no
   * limit over 1,000,000 keys.
   */
  @Test
  void sqlSecondaryIndexDefaults() {
    assertEquals("SqlSecondaryIndex --hosts 127.0.0.1:5433 --phase run --records 0 --read-threads 1 --write-threads 1 "
        + "--duration 0 --database postgres --create-table if-missing --user postgres --driver yugabyte "
        + "-p app.key_prefix=11111111-2222-3333-4444-555555555555 -p app.unique_keys=1000000",
        ours("--workload SqlSecondaryIndex --nodes 127.0.0.1:5433"));
  }

  /** CassandraRangeKeyValue with its help's options: 24 readers, 2 writers, 2,000,000 writes over 1,000,000 keys. */
  @Test
  void cassandraRangeKeyValueDefaults() {
    assertEquals("CassandraRangeKeyValue --hosts 127.0.0.1:9042 --phase run --records 0 --read-threads 24 "
        + "--write-threads 2 --reads 1500000 --writes 2000000 --duration 0 --database ybdemo_keyspace --create-table "
        + "if-missing -p app.key_prefix=key -p app.unique_keys=1000000 -p app.value_size=64 "
        + "-p ycql.connections_per_node=4",
        ours("--workload CassandraRangeKeyValue --nodes 127.0.0.1:9042 --nouuid --value_size 64"));
  }

  @Test
  void whatTheAppDoesNotMeanOrYbbenchCannotDoIsRefused() {
    assertEquals("--workload SqlSnapshotTxns is not a sample app ybbench runs; it runs SqlInserts, SqlUpdates, "
        + "SqlSecondaryIndex, CassandraKeyValue, CassandraBatchKeyValue and CassandraRangeKeyValue (or give a YCSB "
        + "workload)", refusal("--workload SqlSnapshotTxns --nodes h:5433"));
    assertEquals("the sample app's --batch_size 11 is more than its 10 unique keys: the batch size cannot be more "
        + "than the number of unique keys (as the sample app says)",
        refusal("--workload CassandraBatchKeyValue --batch_size 11 --num_unique_keys 10"));
    assertEquals("the sample app's --batch_size 3000000 is more than its 2000000 unique keys: the batch size cannot be "
        + "more than the number of unique keys (as the sample app says)",
        refusal("--workload SqlInserts --batch_size 3000000"), "the app checks it for every app but SqlDataLoad");
    assertEquals("the sample app's --batch_size 0: CassandraBatchKeyValue's batches hold 1 to 2147483647 rows",
        refusal("--workload CassandraBatchKeyValue --batch_size 0"));
    assertEquals("--topology_keys is the sample app's YSQL option; CassandraBatchKeyValue is YCQL",
        refusal("--workload CassandraBatchKeyValue --topology_keys a.b.c"));
    assertEquals("uuid (or nouuid) needs to be provided when using --read_only (as the sample app says): the reads "
        + "are of the keys an earlier run with that --uuid wrote", refusal("--workload SqlInserts --read_only"));
    assertEquals("--read_only reads keys below --max_written_key, and none is given: the sample app's readers would "
        + "wait forever; give --max_written_key", refusal("--workload SqlInserts --read_only --nouuid"));
    assertEquals("--lock_step is the sample app's, but it runs one operation at a time over all threads; ybbench has "
        + "no such mode; leave it out", refusal("--workload SqlInserts --lock_step"));
    assertEquals("the sample app's --password needs --username", refusal("--workload SqlInserts --password x"));
    assertEquals("--concurrent_clients is the sample app's CQL option; SqlInserts is YSQL",
        refusal("--workload SqlInserts --concurrent_clients 8"));
    assertEquals("the sample app's --num_unique_keys many is not a whole number",
        refusal("--workload SqlInserts --num_unique_keys many"));
  }
}
