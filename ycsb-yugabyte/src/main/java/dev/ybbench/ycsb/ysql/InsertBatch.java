package dev.ybbench.ycsb.ysql;

import dev.ybbench.harness.metrics.OperationEvents;
import dev.ybbench.harness.retry.RetryPolicy;
import dev.ybbench.harness.ysql.CopyRows;
import dev.ybbench.harness.ysql.Session;
import dev.ybbench.ycsb.schema.HashRangeKey;
import dev.ybbench.ycsb.schema.KeyLayout;
import dev.ybbench.ycsb.schema.LoadMethod;
import dev.ybbench.ycsb.schema.SqlSchema;
import dev.ybbench.ycsb.schema.TableSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * A load's inserts queued and written as one transaction per batch ({@code ysql.batch_rows} rows):
 * one COPY FROM STDIN, or with {@code ysql.load_method=insert} a JDBC batch the driver rewrites into
 * multi-row INSERTs. A batch is retried as a whole; each row's latency runs from when the workload
 * handed it over to the batch's commit, and each key is settled (written or lost) for the load's
 * checkpoint.
 */
final class InsertBatch {
  /** Prepares (or finds prepared) a statement on the session's connection. */
  interface Prepare {
    PreparedStatement prepare(String sql) throws SQLException;
  }

  private final YsqlConfig config;
  private final Session session;
  private final RetryPolicy<SQLException> retry;
  private final Prepare prepare;
  private final OperationEvents events;
  private final String insertSql;
  private final String copySql;
  /** The batch's rows for a multi-row INSERT; a COPY's are encoded into {@link #copyRows} as they come. */
  private final List<Object[]> pendingInserts = new ArrayList<>();
  /** The keys of the batch's rows, in order, whichever way they are written. */
  private final List<String> pendingKeys = new ArrayList<>();
  /** When the workload handed over each pending row (System.nanoTime), for its latency once written. */
  private final long[] handedOver;
  /** The COPY load's rows, built in one buffer reused batch after batch. */
  private final CopyRows copyRows = new CopyRows();

  InsertBatch(YsqlConfig config, SqlSchema schema, Session session, RetryPolicy<SQLException> retry, Prepare prepare,
      OperationEvents events) {
    this.config = config;
    this.session = session;
    this.retry = retry;
    this.prepare = prepare;
    this.events = events;
    this.insertSql = schema.insert();
    this.copySql = schema.copy();
    this.handedOver = new long[config.batchSize()];
  }

  /** Queues a row; true when the batch is full and due to be written. */
  boolean add(String key, Map<String, ByteIterator> values) {
    handedOver[pendingKeys.size()] = System.nanoTime();
    if (config.loadMethod() == LoadMethod.COPY) {
      copyRow(key, values); // straight into the COPY's buffer: no row of Strings in between
    } else {
      pendingInserts.add(row(config, key, values));
    }
    pendingKeys.add(key);
    return pendingKeys.size() >= config.batchSize();
  }

  int size() {
    return pendingKeys.size();
  }

  /** Writes the queued rows as one transaction, retried as a whole; reports each row and the batch. */
  void flush() throws SQLException {
    long start = System.nanoTime();
    if (config.loadMethod() == LoadMethod.COPY) {
      retry.call("INSERT", () -> session.attempt(() -> {
        copyRows.send(session.current(), copySql); // the whole buffer again on a retry
        return Status.OK;
      }));
    } else {
      retry.call("INSERT", () -> session.attempt(this::insertPending));
    }
    long end = System.nanoTime();
    events.batch("INSERT", (end - start) / 1000);
    for (int i = 0; i < pendingKeys.size(); i++) {
      events.written("INSERT", (end - handedOver[i]) / 1000);
      events.settled(pendingKeys.get(i), true);
    }
    clear();
  }

  /** Forgets the queued rows after a failed batch: the first {@code lost} of them are settled as lost. */
  void drop(int lost) {
    for (int i = 0; i < lost; i++) {
      events.settled(pendingKeys.get(i), false);
    }
    clear();
  }

  private void clear() {
    pendingInserts.clear();
    pendingKeys.clear();
    copyRows.clear();
  }

  /** The queued rows as one JDBC batch in one transaction, which the driver sends as multi-row INSERTs. */
  private Status insertPending() throws SQLException {
    PreparedStatement ps = prepare.prepare(insertSql);
    Connection connection = session.current();
    connection.setAutoCommit(false);
    try {
      for (Object[] row : pendingInserts) {
        bind(ps, row);
        ps.addBatch();
      }
      ps.executeBatch();
      connection.commit();
    } catch (SQLException e) {
      ps.clearBatch();
      session.rollbackQuietly();
      throw e;
    } finally {
      if (!connection.isClosed()) {
        connection.setAutoCommit(true);
      }
    }
    return Status.OK;
  }

  /**
   * One row into the COPY's buffer: the key column(s), then every field in field order as the
   * multi-row INSERT binds them — a field's value as YCSB's {@code ByteIterator.toString()} gives
   * it (a StringByteIterator's own text; any other's bytes read as UTF-8), a missing one NULL.
   */
  private void copyRow(String key, Map<String, ByteIterator> values) {
    TableSpec t = config.table();
    if (t.layout() == KeyLayout.HASH_RANGE) {
      HashRangeKey k = HashRangeKey.of(key, config.split());
      copyRows.value(k.key1()).value(k.key2());
    } else {
      for (int c = 0; c < t.keyCopies(); c++) {
        copyRows.value(key);
      }
    }
    for (String f : t.fields()) {
      ByteIterator v = values.get(f);
      if (v == null) {
        copyRows.value((String) null);
      } else if (v instanceof StringByteIterator) {
        copyRows.value(v.toString());
      } else {
        copyRows.decoded(v.toArray());
      }
    }
    copyRows.endRow();
  }

  /** Key column values then every field in field order, as {@link SqlSchema#insert()} lists them. */
  static Object[] row(YsqlConfig config, String key, Map<String, ByteIterator> values) {
    TableSpec t = config.table();
    List<Object> row = new ArrayList<>();
    if (t.layout() == KeyLayout.HASH_RANGE) {
      HashRangeKey k = HashRangeKey.of(key, config.split());
      row.add(k.key1());
      row.add(k.key2());
    } else {
      for (int c = 0; c < t.keyCopies(); c++) {
        row.add(key);
      }
    }
    for (String f : t.fields()) {
      ByteIterator v = values.get(f);
      row.add(v == null ? null : v.toString());
    }
    return row.toArray();
  }

  static void bind(PreparedStatement ps, Object[] row) throws SQLException {
    for (int i = 0; i < row.length; i++) {
      ps.setObject(i + 1, row[i]);
    }
  }
}
