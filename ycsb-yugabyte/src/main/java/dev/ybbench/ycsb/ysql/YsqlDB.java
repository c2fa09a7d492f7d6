package dev.ybbench.ycsb.ysql;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.metrics.OperationEvents;
import dev.ybbench.harness.retry.RetryPolicy;
import dev.ybbench.harness.sql.SqlErrors;
import dev.ybbench.harness.ysql.CopyRows;
import dev.ybbench.ycsb.BindingProperties;
import dev.ybbench.ycsb.schema.HashRangeKey;
import dev.ybbench.ycsb.schema.KeyLayout;
import dev.ybbench.ycsb.schema.SqlSchema;
import dev.ybbench.ycsb.schema.StatementCache;
import dev.ybbench.ycsb.schema.TableSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * YCSB binding for YSQL (YugabyteDB's PostgreSQL-compatible API) and PostgreSQL, over JDBC.
 * One instance per YCSB thread, each with its own connection and prepared statements.
 *
 * <p>Retryable errors (see {@link SqlErrors}) are retried by the {@link RetryPolicy} up to
 * {@code ysql.max_retries} times; each retry is reported to {@link OperationEvents} and never
 * counted as throughput. A lost or refused connection is not retried within the operation (a
 * transaction's fate is unknown); it is opened again on the next one, after the policy's pause.
 * With {@code ysql.batch_rows} above 1 (a load's --batch-size), inserts are queued and written as
 * one transaction per batch: one COPY FROM STDIN, or with {@code ysql.load_method=insert} a JDBC
 * batch the driver rewrites into multi-row INSERTs; the last partial batch is written in
 * {@link #cleanup()}.
 */
public class YsqlDB extends DB implements OperationEvents.Source {
  private OperationEvents events = OperationEvents.NONE;
  private YsqlConfig config;
  private SqlSchema schema;
  private Connection connection;
  private final Map<String, PreparedStatement> statements = new HashMap<>();
  /** SQL text per operation and field set, built once: a read should not build a string. */
  private StatementCache sqlText;
  /** Per SELECT, its result's column names, null for key columns ({@link #readRow}). */
  private final Map<String, String[]> fieldColumns = new HashMap<>();
  /** Whether reads hand their values to the workload ({@link BindingProperties#valuesRead}). */
  private boolean valuesRead;
  /** The batch's rows for a multi-row INSERT; a COPY's are encoded into {@link #copyRows} as they come. */
  private final List<Object[]> pendingInserts = new ArrayList<>();
  /** The keys of the batch's rows, in order, whichever way they are written. */
  private final List<String> pendingKeys = new ArrayList<>();
  /** When the workload handed over each pending row (System.nanoTime), for its latency once written. */
  private long[] handedOver = new long[0];
  private RetryPolicy<SQLException> retry;
  /** The COPY load's rows, built in one buffer reused batch after batch. */
  private final CopyRows copyRows = new CopyRows();
  private String copySql;

  /** Where retries and lost batched rows are reported; the harness sets it before {@link #init()}. */
  @Override
  public void setEvents(OperationEvents events) {
    this.events = events;
  }

  @Override
  public void init() throws DBException {
    config = YsqlConfig.from(getProperties());
    schema = config.schema();
    copySql = schema.copy();
    sqlText = new StatementCache(schema);
    valuesRead = BindingProperties.valuesRead(getProperties());
    retry = RetryPolicy.of(SQLException.class, SqlErrors::classify, config.maxRetries(), () -> events);
    try {
      connection = config.connect();
    } catch (SQLException e) {
      throw new DBException("cannot connect to " + config.url(config.database()) + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    try {
      if (!pendingKeys.isEmpty()) {
        int n = pendingKeys.size();
        try {
          flushInserts();
        } catch (SQLException e) {
          events.lost("INSERT", SqlErrors.errorClass(e), n);
          dropPending(n);
        }
      }
    } finally {
      closeConnection();
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    String sql = sqlText.read(fields);
    return call("READ", () -> {
      PreparedStatement ps = prepare(sql);
      bindKey(ps, 1, key);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Status.NOT_FOUND;
        }
        if (result != null && valuesRead) {
          readRow(sql, rs, result);
        }
        return Status.OK;
      }
    });
  }

  @Override
  public Status scan(String table, String startKey, int count, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    String sql = sqlText.scan(fields);
    return call("SCAN", () -> {
      PreparedStatement ps = prepare(sql);
      int i = bindKey(ps, 1, startKey);
      ps.setInt(i, count);
      if (config.fetchSize() > 0) {
        ps.setFetchSize(config.fetchSize()); // as yugabyte/YCSB's binding: pgjdbc uses it outside autocommit only
      }
      if (result != null) {
        result.clear();
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) { // every row fetched, whether or not its values are read
          if (result != null && valuesRead) {
            HashMap<String, ByteIterator> row = new HashMap<>();
            readRow(sql, rs, row);
            result.add(row);
          }
        }
      }
      return Status.OK;
    });
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    if (values.size() == 1) {
      // YCSB's default (writeallfields=false): one field, found by its name without sorting anything.
      Map.Entry<String, ByteIterator> only = values.entrySet().iterator().next();
      String sql = sqlText.update(only.getKey());
      String value = only.getValue().toString();
      return call("UPDATE", () -> {
        PreparedStatement ps = prepare(sql);
        ps.setString(1, value);
        bindKey(ps, 2, key);
        return ps.executeUpdate() == 1 ? Status.OK : Status.NOT_FOUND;
      });
    }
    Map<String, String> sorted = new TreeMap<>();
    values.forEach((k, v) -> sorted.put(k, v.toString()));
    String sql = sqlText.update(sorted.keySet());
    return call("UPDATE", () -> {
      PreparedStatement ps = prepare(sql);
      int i = 1;
      for (String v : sorted.values()) {
        ps.setString(i++, v);
      }
      bindKey(ps, i, key);
      return ps.executeUpdate() == 1 ? Status.OK : Status.NOT_FOUND;
    });
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    if (config.batchSize() > 1) {
      if (handedOver.length < config.batchSize()) {
        handedOver = new long[config.batchSize()];
      }
      handedOver[pendingKeys.size()] = System.nanoTime();
      if (config.loadMethod() == YsqlConfig.LoadMethod.COPY) {
        copyRow(key, values); // straight into the COPY's buffer: no row of Strings in between
      } else {
        pendingInserts.add(insertRow(key, values));
      }
      pendingKeys.add(key);
      if (pendingKeys.size() < config.batchSize()) {
        return Status.BATCHED_OK;
      }
      int n = pendingKeys.size();
      try {
        flushInserts();
        return Status.BATCHED_OK; // this row too was counted as written, with its batch
      } catch (SQLException e) {
        // This call reports its own row as failed; the others were taken on as batched.
        events.lost("INSERT", SqlErrors.errorClass(e), n - 1);
        dropPending(n - 1);
        return errorStatus(e);
      }
    }
    Object[] row = insertRow(key, values);
    return call("INSERT", () -> {
      PreparedStatement ps = prepare(schema.insert());
      bindRow(ps, row);
      ps.executeUpdate();
      return Status.OK;
    });
  }

  @Override
  public Status delete(String table, String key) {
    return call("DELETE", () -> {
      PreparedStatement ps = prepare(schema.delete());
      bindKey(ps, 1, key);
      return ps.executeUpdate() == 1 ? Status.OK : Status.NOT_FOUND;
    });
  }

  /**
   * Writes the queued rows as one transaction, retried as a whole: one COPY, or one multi-row
   * INSERT ({@link YsqlConfig.LoadMethod}). The statement's latency is the batch's; each row's is
   * from when the workload handed it over to the batch's commit.
   */
  private void flushInserts() throws SQLException {
    long start = System.nanoTime();
    if (config.loadMethod() == YsqlConfig.LoadMethod.COPY) {
      retry.call("INSERT", () -> attempt(() -> {
        copyRows.send(connection, copySql); // the whole buffer again on a retry
        return Status.OK;
      }));
    } else {
      insertPending();
    }
    long end = System.nanoTime();
    events.batch("INSERT", (end - start) / 1000);
    for (int i = 0; i < pendingKeys.size(); i++) {
      events.written("INSERT", (end - handedOver[i]) / 1000);
      events.settled(pendingKeys.get(i), true);
    }
    clearPending();
  }

  private void clearPending() {
    pendingInserts.clear();
    pendingKeys.clear();
    copyRows.clear();
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
      copyRows.value(key);
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

  /** The queued rows as one JDBC batch in one transaction, which the driver sends as multi-row INSERTs. */
  private void insertPending() throws SQLException {
    retry.call("INSERT", () -> attempt(() -> {
      PreparedStatement ps = prepare(schema.insert());
      connection.setAutoCommit(false);
      try {
        for (Object[] row : pendingInserts) {
          bindRow(ps, row);
          ps.addBatch();
        }
        ps.executeBatch();
        connection.commit();
      } catch (SQLException e) {
        ps.clearBatch();
        rollbackQuietly();
        throw e;
      } finally {
        if (connection != null && !connection.isClosed()) {
          connection.setAutoCommit(true);
        }
      }
      return Status.OK;
    }));
  }

  /** Forgets the queued rows after a failed batch: the first {@code lost} of them are settled as lost. */
  private void dropPending(int lost) {
    for (int i = 0; i < lost; i++) {
      events.settled(pendingKeys.get(i), false);
    }
    clearPending();
  }

  private Status call(String op, RetryPolicy.Attempt<Status, SQLException> body) {
    try {
      return retry.call(op, () -> attempt(body));
    } catch (SQLException e) {
      return errorStatus(e);
    }
  }

  /** One attempt on this thread's connection, opened again if an earlier attempt lost it. */
  private Status attempt(RetryPolicy.Attempt<Status, SQLException> body) throws SQLException {
    try {
      if (connection == null) {
        connection = config.connect();
      }
      return body.run();
    } catch (SQLException e) {
      if (SqlErrors.isConnectionLost(e)) {
        closeConnection();
      }
      throw e;
    }
  }

  private static Status errorStatus(SQLException e) {
    String msg = ErrorText.firstLine(e);
    return new Status(SqlErrors.errorClass(e), msg);
  }

  private PreparedStatement prepare(String sql) throws SQLException {
    PreparedStatement ps = statements.get(sql);
    if (ps == null) {
      ps = connection.prepareStatement(sql);
      statements.put(sql, ps);
    }
    return ps;
  }

  /** Binds the key column(s) from parameter {@code index}; returns the next free index. */
  private int bindKey(PreparedStatement ps, int index, String key) throws SQLException {
    if (config.table().layout() == KeyLayout.HASH_RANGE) {
      HashRangeKey k = HashRangeKey.of(key, config.split());
      ps.setLong(index, k.key1());
      ps.setLong(index + 1, k.key2());
      return index + 2;
    }
    ps.setString(index, key);
    return index + 1;
  }

  /** Key column values then every field in field order, as {@link SqlSchema#insert()} lists them. */
  private Object[] insertRow(String key, Map<String, ByteIterator> values) {
    TableSpec t = config.table();
    List<Object> row = new ArrayList<>();
    if (t.layout() == KeyLayout.HASH_RANGE) {
      HashRangeKey k = HashRangeKey.of(key, config.split());
      row.add(k.key1());
      row.add(k.key2());
    } else {
      row.add(key);
    }
    for (String f : t.fields()) {
      ByteIterator v = values.get(f);
      row.add(v == null ? null : v.toString());
    }
    return row.toArray();
  }

  private static void bindRow(PreparedStatement ps, Object[] row) throws SQLException {
    for (int i = 0; i < row.length; i++) {
      ps.setObject(i + 1, row[i]);
    }
  }

  /**
   * The row's fields into {@code into}, as YCSB's workload expects them (it verifies them under
   * {@code dataintegrity}); the key columns are left out. Column names are read from the result's
   * metadata once per statement: the metadata is an object per result, its names decoded per call.
   */
  private void readRow(String sql, ResultSet rs, Map<String, ByteIterator> into) throws SQLException {
    String[] names = fieldColumns.get(sql);
    if (names == null) {
      ResultSetMetaData md = rs.getMetaData();
      names = new String[md.getColumnCount()];
      for (int c = 1; c <= names.length; c++) {
        String name = md.getColumnName(c);
        names[c - 1] = config.table().isKey(name) ? null : name;
      }
      fieldColumns.put(sql, names);
    }
    for (int c = 0; c < names.length; c++) {
      if (names[c] != null) {
        String v = rs.getString(c + 1);
        into.put(names[c], new StringByteIterator(v == null ? "" : v));
      }
    }
  }

  private void rollbackQuietly() {
    try {
      if (connection != null && !connection.isClosed()) {
        connection.rollback();
      }
    } catch (SQLException ignored) {
      // the connection is being dropped anyway
    }
  }

  private void closeConnection() {
    statements.clear();
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // closing a broken connection
      }
      connection = null;
    }
  }
}
