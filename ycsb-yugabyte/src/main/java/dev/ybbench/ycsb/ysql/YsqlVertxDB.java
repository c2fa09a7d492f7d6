package dev.ybbench.ycsb.ysql;

import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.metrics.OperationEvents;
import dev.ybbench.harness.retry.RetryPolicy;
import dev.ybbench.harness.server.BoundStatements;
import dev.ybbench.harness.sql.Placeholders;
import dev.ybbench.harness.sql.SqlErrors;
import dev.ybbench.ycsb.client.BindingProperties;
import dev.ybbench.ycsb.schema.HashRangeKey;
import dev.ybbench.ycsb.schema.KeyLayout;
import dev.ybbench.ycsb.schema.SqlSchema;
import dev.ybbench.ycsb.schema.StatementCache;
import dev.ybbench.ycsb.workload.IndexRead;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.PreparedQuery;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import java.util.function.Function;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * The YSQL binding over the event-loop client ({@code --driver vertx}): the statements, retries
 * and outcomes of {@link YsqlDB}, each operation one prepared statement on this thread's own
 * connection, sent through Vert.x and waited for ({@link VertxClient#await}). Errors come back as
 * JDBC's, so {@link SqlErrors} classifies them and the {@link RetryPolicy} retries them as it does
 * pgjdbc's. A lost connection is not retried within the operation (its outcome is unknown); the
 * next attempt, after the policy's pause, connects again.
 *
 * <p>The run phase only: a load writes through {@link YsqlDB} (COPY or batched inserts are
 * pgjdbc's), and the runner makes this binding for the run.
 */
public final class YsqlVertxDB extends DB implements OperationEvents.Source, IndexRead {
  private final VertxClient client;
  private final YsqlConfig config;
  private final SqlSchema schema;
  private final StatementCache sqlText;
  private OperationEvents events = OperationEvents.NONE;
  private boolean valuesRead;
  private RetryPolicy<SQLException> retry;
  /** This thread's connection; null until the first attempt, and again after one lost it. */
  private PgConnection connection;
  /** Set by the loop when {@link #connection} closes under this thread. */
  private volatile boolean closed;
  /** Per JDBC text, its statement on {@link #connection}. */
  private final Map<String, PreparedQuery<RowSet<Row>>> statements = new HashMap<>();
  /** Per SELECT, its result's column names, null for key columns. */
  private final Map<String, String[]> fieldColumns = new HashMap<>();

  public YsqlVertxDB(VertxClient client, YsqlConfig config) {
    this.client = client;
    this.config = config;
    this.schema = config.schema();
    this.sqlText = new StatementCache(schema);
  }

  @Override
  public void setEvents(OperationEvents events) {
    this.events = events;
  }

  @Override
  public void init() throws DBException {
    valuesRead = BindingProperties.valuesRead(getProperties());
    retry = RetryPolicy.of(SQLException.class, SqlErrors::classify, config.maxRetries(), () -> events);
    try {
      open();
    } catch (SQLException e) {
      throw new DBException("cannot connect to " + config.url(config.database()) + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void cleanup() {
    drop();
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    String sql = sqlText.read(fields);
    Tuple params = bindKey(Tuple.tuple(), key, config.table().keyCopies());
    return call("READ", sql, params, rows -> {
      if (rows.size() == 0) {
        return Status.NOT_FOUND;
      }
      if (result != null && valuesRead) {
        readRow(sql, rows, rows.iterator().next(), result);
      }
      return Status.OK;
    });
  }

  @Override
  public Status readByValue(String table, String column, String value, List<Map<String, ByteIterator>> rows) {
    return call("READ", schema.readByValue(column), Tuple.of(value), found -> {
      rows.clear(); // a retry starts over
      List<String> names = found.columnsNames();
      for (Row r : found) {
        Map<String, ByteIterator> row = new HashMap<>();
        for (int c = 0; c < names.size(); c++) {
          Object v = r.getValue(c);
          row.put(names.get(c), new StringByteIterator(v == null ? "" : v.toString()));
        }
        rows.add(row);
      }
      return rows.isEmpty() ? Status.NOT_FOUND : Status.OK;
    });
  }

  @Override
  public Status scan(String table, String startKey, int count, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    String sql = sqlText.scan(fields);
    Tuple params = bindKey(Tuple.tuple(), startKey, 1).addLong((long) count); // a scan starts at the key column alone
    return call("SCAN", sql, params, rows -> {
      if (result != null) {
        result.clear();
        if (valuesRead) {
          for (Row r : rows) {
            HashMap<String, ByteIterator> row = new HashMap<>();
            readRow(sql, rows, r, row);
            result.add(row);
          }
        }
      }
      return Status.OK;
    });
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    String sql;
    Tuple params = Tuple.tuple();
    if (values.size() == 1) {
      // YCSB's default (writeallfields=false): one field, found by its name without sorting anything.
      Map.Entry<String, ByteIterator> only = values.entrySet().iterator().next();
      sql = sqlText.update(only.getKey());
      params.addString(only.getValue().toString());
    } else {
      Map<String, String> sorted = new TreeMap<>();
      values.forEach((k, v) -> sorted.put(k, v.toString()));
      sql = sqlText.update(sorted.keySet());
      sorted.values().forEach(params::addString);
    }
    bindKey(params, key, config.table().keyCopies());
    return call("UPDATE", sql, params, rows -> rows.rowCount() == 1 ? Status.OK : Status.NOT_FOUND);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    Tuple params = Tuple.wrap(Arrays.asList(InsertBatch.row(config, key, values)));
    return call("INSERT", schema.insert(), params, rows -> Status.OK);
  }

  @Override
  public Status delete(String table, String key) {
    Tuple params = bindKey(Tuple.tuple(), key, config.table().keyCopies());
    return call("DELETE", schema.delete(), params, rows -> rows.rowCount() == 1 ? Status.OK : Status.NOT_FOUND);
  }

  /** The operation, retried by the policy; its end an error of its class when every attempt failed. */
  private Status call(String op, String sql, Tuple params, Function<RowSet<Row>, Status> outcome) {
    try {
      return retry.call(op, () -> outcome.apply(execute(sql, params)));
    } catch (SQLException e) {
      return new Status(SqlErrors.classify(e).outcomeName(), ErrorText.firstLine(e));
    }
  }

  /** One attempt: on this thread's connection, opened first if an earlier attempt lost it. */
  private RowSet<Row> execute(String sql, Tuple params) throws SQLException {
    try {
      if (connection == null) {
        open();
      }
      PreparedQuery<RowSet<Row>> q = statements.get(sql);
      if (q == null) {
        q = connection.preparedQuery(dollarParameters(sql));
        statements.put(sql, q);
      }
      RowSet<Row> rows = VertxClient.await(q.execute(params));
      BoundStatements.keep(sql, () -> values(params));
      return rows;
    } catch (SQLException e) {
      // Vert.x fails a command on a connection that closed in several ways, most without a type
      // ("Connection is not active now", pending commands failed): by then the loop has run the
      // close handler, so a failure without an SQLSTATE on a closed connection is the loss of it.
      SQLException failure = e.getSQLState() == null && closed ? new SQLException(e.getMessage(), "08006", e) : e;
      if (SqlErrors.isConnectionLost(failure)) {
        drop();
      }
      throw failure;
    }
  }

  private void open() throws SQLException {
    closed = false;
    connection = client.connect();
    connection.closeHandler(v -> closed = true);
  }

  private static List<Object> values(Tuple t) {
    Object[] v = new Object[t.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = t.getValue(i);
    }
    return Arrays.asList(v);
  }

  /** Forgets the connection and what was prepared on it, closing it if it still stands. */
  private void drop() {
    statements.clear();
    if (connection != null) {
      try {
        VertxClient.await(connection.close());
      } catch (SQLException ignored) {
        // closing a broken connection
      }
      connection = null;
    }
  }

  /**
   * The key into {@code t}: the hash-range pair, or the key {@code copies} times (a range column
   * holds the key again).
   */
  private Tuple bindKey(Tuple t, String key, int copies) {
    if (config.table().layout() == KeyLayout.HASH_RANGE) {
      HashRangeKey k = HashRangeKey.of(key, config.split());
      return t.addLong(k.key1()).addLong(k.key2());
    }
    for (int c = 0; c < copies; c++) {
      t.addString(key);
    }
    return t;
  }

  /** The row's fields into {@code into}, the key columns left out; the names looked up once per statement. */
  private void readRow(String sql, RowSet<Row> rows, Row row, Map<String, ByteIterator> into) {
    String[] names = fieldColumns.get(sql);
    if (names == null) {
      List<String> columns = rows.columnsNames();
      names = new String[columns.size()];
      for (int c = 0; c < names.length; c++) {
        names[c] = config.table().isKey(columns.get(c)) ? null : columns.get(c);
      }
      fieldColumns.put(sql, names);
    }
    for (int c = 0; c < names.length; c++) {
      if (names[c] != null) {
        String v = row.getString(c);
        into.put(names[c], new StringByteIterator(v == null ? "" : v));
      }
    }
  }

  /**
   * JDBC's {@code ?} parameters as PostgreSQL's own {@code $1, $2, …}, which Vert.x sends as they
   * are; a {@code ?} inside quotes is left alone.
   */
  static String dollarParameters(String sql) {
    return Placeholders.replace(sql, n -> "$" + (n + 1));
  }
}
