package dev.ybbench.ycsb.ysql;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.HostList;
import dev.ybbench.harness.metrics.OperationEvents;
import dev.ybbench.harness.retry.RetryPolicy;
import dev.ybbench.harness.server.BoundStatements;
import dev.ybbench.harness.sql.SqlErrors;
import dev.ybbench.harness.ysql.Session;
import dev.ybbench.ycsb.client.BindingProperties;
import dev.ybbench.ycsb.schema.HashRangeKey;
import dev.ybbench.ycsb.schema.KeyLayout;
import dev.ybbench.ycsb.schema.SqlSchema;
import dev.ybbench.ycsb.schema.StatementCache;
import dev.ybbench.ycsb.workload.IndexRead;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
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
 * transaction's fate is unknown); the {@link Session} opens it again on the next one, after the
 * policy's pause. With {@code ysql.batch_rows} above 1 (a load's --batch-size), inserts are queued
 * in an {@link InsertBatch}; the last partial batch is written in {@link #cleanup()}.
 */
public class YsqlDB extends DB implements OperationEvents.Source, IndexRead {
  /** The nodes the runner gave, or null: then {@link YsqlConfig#HOSTS} or the environment, as YCSB's own client runs it. */
  private final HostList hosts;
  private OperationEvents events = OperationEvents.NONE;
  private YsqlConfig config;
  private SqlSchema schema;
  /** This thread's connection, opened again on the next attempt after one lost it. */
  private Session session;
  private final Map<String, PreparedStatement> statements = new HashMap<>();
  /** SQL text per operation and field set, built once: a read should not build a string. */
  private StatementCache sqlText;
  /** Per SELECT, its result's column names, null for key columns ({@link #readRow}). */
  private final Map<String, String[]> fieldColumns = new HashMap<>();
  /** Whether reads hand their values to the workload ({@link BindingProperties#valuesRead}). */
  private boolean valuesRead;
  private RetryPolicy<SQLException> retry;
  /** A load's queued inserts, with ysql.batch_rows above 1; else null. */
  private InsertBatch batch;

  /** Where retries and lost batched rows are reported; the harness sets it before {@link #init()}. */
  @Override
  public void setEvents(OperationEvents events) {
    this.events = events;
  }

  /** For YCSB's own client, which makes a binding by its class name. */
  public YsqlDB() {
    this(null);
  }

  /** For the runner: the nodes its server target parsed, the same list for every thread. */
  public YsqlDB(HostList hosts) {
    this.hosts = hosts;
  }

  @Override
  public void init() throws DBException {
    config = hosts == null ? YsqlConfig.from(getProperties()) : YsqlConfig.from(getProperties(), hosts);
    if (hosts == null && config.vertx()) {
      // The event-loop client needs its threads made on its loops, which only the runner does.
      throw new DBException(YsqlConfig.DRIVER + "=vertx needs ybbench's runner (run_ycsb.sh), which runs the "
          + "client threads on its event loops; YCSB's own client cannot: use pgjdbc or yugabyte there");
    }
    schema = config.schema();
    sqlText = new StatementCache(schema);
    valuesRead = BindingProperties.valuesRead(getProperties());
    retry = RetryPolicy.of(SQLException.class, SqlErrors::classify, config.maxRetries(), () -> events);
    session = new Session(config::connect, () -> { }, statements::clear);
    batch = config.batchSize() > 1 ? new InsertBatch(config, schema, session, retry, this::prepare, events) : null;
    try {
      session.connection();
    } catch (SQLException e) {
      throw new DBException("cannot connect to " + config.url(config.database()) + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    try {
      if (batch != null && batch.size() > 0) {
        int n = batch.size();
        try {
          batch.flush();
        } catch (SQLException e) {
          events.lost("INSERT", SqlErrors.classify(e).outcomeName(), n);
          batch.drop(n);
        }
      }
    } finally {
      session.close();
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    String sql = sqlText.read(fields);
    return call("READ", () -> {
      PreparedStatement ps = prepare(sql);
      bindKey(ps, 1, key);
      BoundStatements.keep(sql, ps);
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
  public Status readByValue(String table, String column, String value, List<Map<String, ByteIterator>> rows) {
    String sql = schema.readByValue(column);
    return call("READ", () -> {
      rows.clear(); // a retry starts over
      PreparedStatement ps = prepare(sql);
      ps.setString(1, value);
      BoundStatements.keep(sql, ps);
      try (ResultSet rs = ps.executeQuery()) {
        ResultSetMetaData md = rs.getMetaData();
        while (rs.next()) {
          Map<String, ByteIterator> row = new HashMap<>();
          for (int c = 1; c <= md.getColumnCount(); c++) {
            String v = rs.getString(c);
            row.put(md.getColumnName(c), new StringByteIterator(v == null ? "" : v));
          }
          rows.add(row);
        }
      }
      return rows.isEmpty() ? Status.NOT_FOUND : Status.OK;
    });
  }

  @Override
  public Status scan(String table, String startKey, int count, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    String sql = sqlText.scan(fields);
    return call("SCAN", () -> {
      PreparedStatement ps = prepare(sql);
      int i = bindKey(ps, 1, startKey, 1); // a scan starts at the key column alone (and orders by it)
      ps.setInt(i, count);
      if (config.fetchSize() > 0) {
        ps.setFetchSize(config.fetchSize()); // as yugabyte/YCSB's binding: pgjdbc uses it outside autocommit only
      }
      if (result != null) {
        result.clear();
      }
      BoundStatements.keep(sql, ps);
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
        BoundStatements.keep(sql, ps);
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
      BoundStatements.keep(sql, ps);
      return ps.executeUpdate() == 1 ? Status.OK : Status.NOT_FOUND;
    });
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    if (batch != null) {
      if (!batch.add(key, values)) {
        return Status.BATCHED_OK;
      }
      int n = batch.size();
      try {
        batch.flush();
        return Status.BATCHED_OK; // this row too was counted as written, with its batch
      } catch (SQLException e) {
        // This call reports its own row as failed; the others were taken on as batched.
        events.lost("INSERT", SqlErrors.classify(e).outcomeName(), n - 1);
        batch.drop(n - 1);
        return errorStatus(e);
      }
    }
    Object[] row = InsertBatch.row(config, key, values);
    return call("INSERT", () -> {
      PreparedStatement ps = prepare(schema.insert());
      InsertBatch.bind(ps, row);
      BoundStatements.keep(schema.insert(), ps);
      ps.executeUpdate();
      return Status.OK;
    });
  }

  @Override
  public Status delete(String table, String key) {
    return call("DELETE", () -> {
      PreparedStatement ps = prepare(schema.delete());
      bindKey(ps, 1, key);
      BoundStatements.keep(schema.delete(), ps);
      return ps.executeUpdate() == 1 ? Status.OK : Status.NOT_FOUND;
    });
  }

  private Status call(String op, RetryPolicy.Attempt<Status, SQLException> body) {
    try {
      return retry.call(op, () -> session.attempt(body));
    } catch (SQLException e) {
      return errorStatus(e);
    }
  }

  /** The operation's end: an error of its class, or an abort when it lost a race on every attempt. */
  private static Status errorStatus(SQLException e) {
    return new Status(SqlErrors.classify(e).outcomeName(), ErrorText.firstLine(e));
  }

  private PreparedStatement prepare(String sql) throws SQLException {
    PreparedStatement ps = statements.get(sql);
    if (ps == null) {
      ps = session.current().prepareStatement(sql);
      statements.put(sql, ps);
    }
    return ps;
  }

  /** Binds the key column(s) from parameter {@code index}; returns the next free index. */
  private int bindKey(PreparedStatement ps, int index, String key) throws SQLException {
    return bindKey(ps, index, key, config.table().keyCopies());
  }

  /**
   * Binds a key from parameter {@code index}: the hash-range pair, or the key {@code copies}
   * times (a range column holds the key again); returns the next free index.
   */
  private int bindKey(PreparedStatement ps, int index, String key, int copies) throws SQLException {
    if (config.table().layout() == KeyLayout.HASH_RANGE) {
      HashRangeKey k = HashRangeKey.of(key, config.split());
      ps.setLong(index, k.key1());
      ps.setLong(index + 1, k.key2());
      return index + 2;
    }
    for (int c = 0; c < copies; c++) {
      ps.setString(index + c, key);
    }
    return index + copies;
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
}
