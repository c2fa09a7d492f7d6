package dev.ybbench.ycsb.client;

import dev.ybbench.harness.UserError;
import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.metrics.OperationMetrics;
import dev.ybbench.ycsb.workload.BatchInsert;
import dev.ybbench.ycsb.workload.IndexRead;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.function.Consumer;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * Sits between YCSB's workload and a binding, as YCSB's own DBWrapper does, but records into the
 * harness's metrics: latency of successes only, errors by the class the binding named in its
 * Status. The first error of each class is printed once, so a failing run says why.
 */
public final class MeasuredDB extends DB implements BatchInsert, IndexRead {
  private final DB db;
  private final Set<String> reported;
  /** This thread's view of the current metrics, so the hot path skips the shared map. */
  private final Map<String, OperationMetrics> byName = new HashMap<>();
  private final MetricsSink sink;
  /** The metrics {@link #byName} belongs to; the warm-up's until the measured window begins. */
  private Metrics metrics;
  private final Consumer<String> log;

  private final ClientThreadFailures threadFailures;

  /** @param reported error classes already printed, shared by the phase's threads */
  public MeasuredDB(DB db, MetricsSink sink, Set<String> reported, Consumer<String> log,
      ClientThreadFailures threadFailures) {
    this.db = db;
    this.threadFailures = threadFailures;
    this.reported = reported;
    this.sink = sink;
    this.log = log;
  }

  /**
   * A binding that cannot start (no such database, connection refused) ends its thread here:
   * YCSB's ClientThread would print a stack trace and then leave the phase waiting forever.
   */
  @Override
  public void init() {
    try {
      db.init();
    } catch (DBException | RuntimeException e) {
      throw threadFailures.failed(e);
    }
  }

  /** When the schedule says the next operation should start (System.nanoTime), or 0 with no schedule. */
  private long intendedNanos;

  /** Operations from now on run to a schedule: the next one was due at {@code nanos} (0: no schedule). */
  public void scheduled(long nanos) {
    intendedNanos = nanos;
  }

  /** When this thread's first operation started, or -1 before it. */
  private long firstNanos = -1;
  /** When its last operation ended, or its final flush (cleanup) did. */
  private long lastNanos = -1;

  @Override
  public void cleanup() throws DBException {
    try {
      db.cleanup();
    } finally {
      if (firstNanos >= 0) {
        lastNanos = System.nanoTime(); // a final flush of batched writes is part of the work
      }
    }
  }

  public long firstNanos() {
    return firstNanos;
  }

  public long lastNanos() {
    return lastNanos;
  }

  /**
   * Records one operation that started at {@code start} (System.nanoTime) and returned {@code s}.
   * Each operation calls the binding directly and then this, rather than through a lambda: no
   * allocation per operation.
   */
  private Status measured(String op, long start, Status s) {
    return measured(op, start, s, 1, false);
  }

  /**
   * Records {@code rows} operations that one statement did: each with its latency, or each an
   * error of its class; a batch statement's own latency apart ({@link Metrics#batch}).
   */
  private Status measured(String op, long start, Status s, int rows, boolean batch) {
    long end = System.nanoTime();
    Metrics current = sink.current();
    current.end();
    if (current != metrics) {
      // The warm-up is over: the measured window starts with this thread's next operation.
      metrics = current;
      byName.clear();
      firstNanos = -1;
    }
    if (firstNanos < 0) {
      firstNanos = start;
    }
    lastNanos = end;
    if (s == Status.BATCHED_OK) {
      return s; // taken on by the binding: counted when it is written (OperationEvents.written) or lost
    }
    long micros = (end - start) / 1000;
    OperationMetrics m = byName.get(op);
    if (m == null) {
      m = metrics.operation(op);
      byName.put(op, m);
    }
    if (s.isOk() && intendedNanos > 0) {
      // Workload F's read-modify-write is one scheduled transaction: both parts count from its start, as in YCSB.
      for (int i = 0; i < rows; i++) {
        m.success((end - intendedNanos) / 1000, micros);
      }
    } else if (s.isOk()) {
      for (int i = 0; i < rows; i++) {
        m.success(micros);
      }
    } else {
      m.failed(s.getName(), rows);
      if (reported.add(op + "/" + s.getName())) {
        log.accept("first " + op + (s.getName().startsWith(OperationMetrics.ABORT_PREFIX) ? " abort (" : " error (")
            + s.getName() + "): " + s.getDescription());
      }
    }
    if (batch && s.isOk()) {
      metrics.batch(op, micros);
    }
    return s;
  }

  /** An operation starts: counted in flight until {@link #measured} (in whichever phase it ends). */
  private long begin() {
    sink.current().begin();
    return System.nanoTime();
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    long start = begin();
    return measured("READ", start, db.read(table, key, fields, result));
  }

  @Override
  public Status scan(String table, String startKey, int count, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    long start = begin();
    return measured("SCAN", start, db.scan(table, startKey, count, fields, result));
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    long start = begin();
    return measured("UPDATE", start, db.update(table, key, values));
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    long start = begin();
    Status s = measured("INSERT", start, db.insert(table, key, values));
    if (s != Status.BATCHED_OK) {
      sink.settled(key, s.isOk()); // a batched insert is settled by the binding, once written or lost
    }
    return s;
  }

  /**
   * The rows as one statement of the binding's: each row an INSERT with the statement's latency, or
   * each an error when it fails (the rows are written together or not at all).
   */
  @Override
  public Status insertBatch(String table, List<String> keys, List<Map<String, ByteIterator>> values) {
    if (!(db instanceof BatchInsert batches)) {
      throw new UserError("the workload writes batches of rows in one statement, which only the YCQL binding "
          + "sends; run it with --api ycql");
    }
    long start = begin();
    return measured("INSERT", start, batches.insertBatch(table, keys, values), keys.size(), true);
  }

  /** A read by an indexed value, recorded as a READ. */
  @Override
  public Status readByValue(String table, String column, String value, List<Map<String, ByteIterator>> rows) {
    if (!(db instanceof IndexRead index)) {
      throw new UserError("the workload reads rows by an indexed value, which only the YSQL binding does; run it with "
          + "--api ysql");
    }
    long start = begin();
    return measured("READ", start, index.readByValue(table, column, value, rows));
  }

  @Override
  public Status delete(String table, String key) {
    long start = begin();
    return measured("DELETE", start, db.delete(table, key));
  }
}
