package dev.ybbench.ycsb.ycql;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.ybbench.harness.ErrorText;
import dev.ybbench.harness.HostList;
import dev.ybbench.harness.metrics.OperationEvents;
import dev.ybbench.harness.retry.Attempts;
import dev.ybbench.harness.retry.Decision;
import dev.ybbench.harness.retry.RetryPolicy;
import dev.ybbench.ycsb.client.BindingProperties;
import dev.ybbench.ycsb.schema.CqlSchema;
import dev.ybbench.ycsb.schema.HashRangeKey;
import dev.ybbench.ycsb.schema.KeyLayout;
import dev.ybbench.ycsb.schema.StatementCache;
import dev.ybbench.ycsb.schema.TableSpec;
import dev.ybbench.ycsb.workload.BatchInsert;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.Vector;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * YCSB binding for YCQL (YugabyteDB's Cassandra-compatible API) and Apache Cassandra, over
 * YugabyteDB's Java driver 4.x. All threads share one session; statements are prepared once.
 *
 * <p>Errors that leave a request's outcome unknown (timeouts, lost connections, a node going
 * down) and YugabyteDB's "try again" family are retried here by the {@link RetryPolicy}, up to
 * {@code ycql.max_retries} times; YCSB's writes are idempotent upserts, so that is safe. Each
 * retry is reported to {@link OperationEvents}. Reads and scans go at {@code ycql.read_consistency},
 * writes at {@code ycql.write_consistency} (both {@code ycql.consistency} unless given). With
 * {@code ycql.in_flight} above 1 (a load's --batch-size), inserts are
 * sent asynchronously with up to that many in flight per thread; {@link #cleanup()} waits for
 * the last of them, and a write that finally fails is reported as lost. {@link #insertBatch} writes
 * several rows as one LOGGED batch.
 */
public class YcqlDB extends DB implements OperationEvents.Source, BatchInsert {
  /** The nodes the runner gave, or null: then {@link YcqlConfig#HOSTS} or the environment, as YCSB's own client runs it. */
  private final HostList hosts;
  private OperationEvents events = OperationEvents.NONE;
  private YcqlConfig config;
  private CqlSchema schema;
  private SharedSession shared;
  /** CQL text per operation and field set, built once: a read should not build a string. */
  private StatementCache cqlText;
  /** Per SELECT, its result's column names, null for key columns ({@link #readRow}). */
  private final Map<String, String[]> fieldColumns = new HashMap<>();
  /** Whether reads hand their values to the workload ({@link BindingProperties#valuesRead}). */
  private boolean valuesRead;
  private RetryPolicy<RuntimeException> retry;
  private Semaphore inFlight;

  @Override
  public void setEvents(OperationEvents events) {
    this.events = events;
  }

  /** For YCSB's own client, which makes a binding by its class name. */
  public YcqlDB() {
    this(null);
  }

  /** For the runner: the nodes its server target parsed, the same list for every thread. */
  public YcqlDB(HostList hosts) {
    this.hosts = hosts;
  }

  @Override
  public void init() throws DBException {
    config = hosts == null ? YcqlConfig.from(getProperties()) : YcqlConfig.from(getProperties(), hosts);
    schema = config.schema();
    cqlText = new StatementCache(schema);
    valuesRead = BindingProperties.valuesRead(getProperties());
    inFlight = new Semaphore(config.inFlight());
    retry = RetryPolicy.of(RuntimeException.class, CqlErrors::classify, config.maxRetries(), () -> events);
    try {
      shared = SharedSession.acquire(config);
    } catch (RuntimeException e) {
      throw new DBException("cannot connect to YCQL at " + config.hosts() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    try {
      // Wait for the asynchronous writes still in flight: their outcome belongs to this run.
      if (!inFlight.tryAcquire(config.inFlight(), 5, TimeUnit.MINUTES)) {
        events.lost("INSERT", "timeout", config.inFlight() - inFlight.availablePermits());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (shared != null) {
        shared.release();
        shared = null;
      }
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    String cql = cqlText.read(fields);
    return call("READ", () -> {
      Row row = shared.session.execute(bindKey(shared.prepare(cql).boundStatementBuilder(), key)
          .setConsistencyLevel(config.readConsistency()).build()).one();
      if (row == null) {
        return Status.NOT_FOUND;
      }
      if (result != null && valuesRead) {
        readRow(cql, row, result);
      }
      return Status.OK;
    });
  }

  @Override
  public Status scan(String table, String startKey, int count, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    String cql = cqlText.scan(fields);
    return call("SCAN", () -> {
      PreparedStatement ps = shared.prepare(cql);
      // A scan starts at the partition key alone (its token), or at the hash-range pair.
      BoundStatement bound = bindKey(ps.boundStatementBuilder(), startKey, 0, 1)
          .setInt(ps.getVariableDefinitions().size() - 1, count)
          .setPageSize(Math.min(count, 1000))
          .setConsistencyLevel(config.readConsistency())
          .build();
      if (result != null) {
        result.clear();
      }
      // Iterating the result set fetches further pages as needed.
      for (Row row : shared.session.execute(bound)) { // every row fetched, whether or not its values are read
        if (result != null && valuesRead) {
          HashMap<String, ByteIterator> r = new HashMap<>();
          readRow(cql, row, r);
          result.add(r);
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
      String cql = cqlText.update(only.getKey());
      Object value = valueOf(only.getValue());
      return call("UPDATE", () -> {
        shared.session.execute(bindKey(bindValue(shared.prepare(cql).boundStatementBuilder(), 0, value), key, 1)
            .build());
        return Status.OK;
      });
    }
    Map<String, Object> sorted = new TreeMap<>();
    values.forEach((k, v) -> sorted.put(k, valueOf(v)));
    String cql = cqlText.update(sorted.keySet());
    return call("UPDATE", () -> {
      BoundStatementBuilder b = shared.prepare(cql).boundStatementBuilder();
      int i = 0;
      for (Object v : sorted.values()) {
        b = bindValue(b, i++, v);
      }
      shared.session.execute(bindKey(b, key, i).build());
      return Status.OK;
    });
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    Object[] row = row(values);
    Supplier<BoundStatement> statement = () -> insertStatement(key, row);
    if (config.inFlight() > 1) {
      // A write that found the server unreachable failed on a driver thread: this thread waits.
      retry.awaitTurn();
      try {
        inFlight.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Status.ERROR;
      }
      sendAsync(key, statement.get(), retry.begin("INSERT"), System.nanoTime());
      return Status.BATCHED_OK;
    }
    return call("INSERT", () -> {
      shared.session.execute(statement.get());
      return Status.OK;
    });
  }

  /**
   * The rows' INSERTs as one LOGGED batch at the write consistency, as yb-sample-apps'
   * CassandraBatchKeyValue writes (its driver's BatchStatement is LOGGED by default). The batch is
   * retried as a whole: each row is an upsert of a value fixed before the first attempt, so a batch
   * sent again writes the same.
   */
  @Override
  public Status insertBatch(String table, List<String> keys, List<Map<String, ByteIterator>> values) {
    List<Object[]> rows = new ArrayList<>(values.size());
    for (Map<String, ByteIterator> v : values) {
      rows.add(row(v));
    }
    return call("INSERT", () -> {
      BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.LOGGED)
          .setConsistencyLevel(config.writeConsistency());
      for (int i = 0; i < rows.size(); i++) {
        batch.addStatement(insertStatement(keys.get(i), rows.get(i)));
      }
      shared.session.execute(batch.build());
      return Status.OK;
    });
  }

  @Override
  public Status delete(String table, String key) {
    return call("DELETE", () -> {
      shared.session.execute(bindKey(shared.prepare(schema.delete()).boundStatementBuilder(), key).build());
      return Status.OK;
    });
  }

  /**
   * Sends one write without waiting; on a retryable failure it is sent again, else counted as lost.
   * Once written, its latency is from {@code handedOver} (the first send) to its completion.
   */
  private void sendAsync(String key, BoundStatement statement, Attempts<RuntimeException> attempts, long handedOver) {
    shared.session.executeAsync(statement).whenComplete((AsyncResultSet rs, Throwable error) -> {
      if (error == null) {
        events.written("INSERT", (System.nanoTime() - handedOver) / 1000);
        events.settled(key, true);
        retry.succeeded();
        inFlight.release();
        return;
      }
      Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
      Decision next = attempts.failed(cause instanceof RuntimeException r ? r : new CompletionException(cause));
      if (next.retry()) {
        // Back off off the driver's I/O thread, then send again.
        CompletableFuture.delayedExecutor(next.delayMillis(), TimeUnit.MILLISECONDS)
            .execute(() -> sendAsync(key, statement, attempts, handedOver));
      } else {
        events.lost("INSERT", next.failure().outcomeName(), 1);
        events.settled(key, false);
        inFlight.release();
      }
    });
  }

  /** A row's values in field order, each read once: a retry binds the same values again. */
  private Object[] row(Map<String, ByteIterator> values) {
    Object[] row = new Object[config.table().fields().size()];
    int f = 0;
    for (String field : config.table().fields()) {
      row[f++] = valueOf(values.get(field));
    }
    return row;
  }

  private BoundStatement insertStatement(String key, Object[] row) {
    BoundStatementBuilder b = bindKey(shared.prepare(schema.insert()).boundStatementBuilder(), key, 0);
    int i = config.table().keyColumns().size();
    for (Object v : row) {
      b = bindValue(b, i++, v);
    }
    return b.build();
  }

  private Status call(String op, RetryPolicy.Attempt<Status, RuntimeException> body) {
    try {
      return retry.call(op, body);
    } catch (RuntimeException e) {
      return new Status(CqlErrors.classify(e).outcomeName(), ErrorText.firstLine(e));
    }
  }

  /**
   * A value as its column takes it: text as YCSB's ByteIterator gives it, or for a blob column its
   * bytes. Read once, before the first attempt: a ByteIterator is used up by reading it, and a
   * retry binds the same value again.
   */
  private Object valueOf(ByteIterator v) {
    if (v == null) {
      return null;
    }
    return config.table().values() == TableSpec.ValueType.BLOB ? ByteBuffer.wrap(v.toArray()) : v.toString();
  }

  private static BoundStatementBuilder bindValue(BoundStatementBuilder b, int index, Object v) {
    if (v == null) {
      return b.setToNull(index);
    }
    return v instanceof ByteBuffer bytes ? b.setByteBuffer(index, bytes.duplicate()) : b.setString(index, (String) v);
  }

  private BoundStatementBuilder bindKey(BoundStatementBuilder b, String key) {
    return bindKey(b, key, 0);
  }

  /** Binds the key column(s) from position {@code index}. */
  private BoundStatementBuilder bindKey(BoundStatementBuilder b, String key, int index) {
    return bindKey(b, key, index, config.table().keyCopies());
  }

  /**
   * Binds a key from position {@code index}: the hash-range pair, or the key {@code copies} times
   * (a range column holds the key again).
   */
  private BoundStatementBuilder bindKey(BoundStatementBuilder b, String key, int index, int copies) {
    if (config.table().layout() == KeyLayout.HASH_RANGE) {
      HashRangeKey k = HashRangeKey.of(key, config.split());
      return b.setLong(index, k.key1()).setLong(index + 1, k.key2());
    }
    for (int c = 0; c < copies; c++) {
      b = b.setString(index + c, key);
    }
    return b;
  }

  /**
   * The row's fields into {@code into}, key columns left out; the column names are read once per
   * statement and the values by position, not looked up by name in every row.
   */
  private void readRow(String cql, Row row, Map<String, ByteIterator> into) {
    String[] names = fieldColumns.get(cql);
    if (names == null) {
      List<String> all = new ArrayList<>();
      for (ColumnDefinition c : row.getColumnDefinitions()) {
        String name = c.getName().asInternal();
        all.add(config.table().isKey(name) ? null : name);
      }
      names = all.toArray(new String[0]);
      fieldColumns.put(cql, names);
    }
    boolean blob = config.table().values() == TableSpec.ValueType.BLOB;
    for (int i = 0; i < names.length; i++) {
      if (names[i] != null && blob) {
        ByteBuffer v = row.getByteBuffer(i);
        byte[] bytes = new byte[v == null ? 0 : v.remaining()];
        if (v != null) {
          v.duplicate().get(bytes);
        }
        into.put(names[i], new ByteArrayByteIterator(bytes));
      } else if (names[i] != null) {
        String v = row.getString(i);
        into.put(names[i], new StringByteIterator(v == null ? "" : v));
      }
    }
  }
}
