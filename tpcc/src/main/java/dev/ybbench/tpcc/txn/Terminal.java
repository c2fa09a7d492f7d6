package dev.ybbench.tpcc.txn;

import dev.ybbench.harness.metrics.Metrics;
import dev.ybbench.harness.retry.RetryPolicy;
import dev.ybbench.harness.sql.SqlErrors;
import dev.ybbench.tpcc.TpccRandom;
import dev.ybbench.tpcc.config.TpccConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Supplier;

/**
 * One emulated terminal (clause 2.1): bound to a home warehouse and district, it picks a
 * transaction by the mix, waits its keying time, runs it (retrying conflicts), waits its think
 * time, and records the response time. Keying times are fixed and think times are drawn from a
 * negative exponential with the configured mean, truncated at 10 times it (clause 5.2.5.4),
 * when the config asks for them; none otherwise.
 */
public final class Terminal implements Runnable {
  /** What a transaction needs of its terminal. */
  public interface Context {
    Connection connection();

    Statements statements();

    TpccRandom random();

    /** The home warehouse. */
    int warehouse();

    /** The home district (used by Stock-Level). */
    int district();

    /** Warehouses in the whole database, for remote order lines and payments. */
    int warehouses();

    /** Where a terminal would show the result; kept so the work is not optimised away. */
    void display(Object result);

    /**
     * Commits the transaction. A commit whose reply is lost with the connection may or may not
     * have committed: the terminal counts it as an unknown outcome, neither success nor error.
     */
    void commit() throws SQLException;
  }

  private final int warehouse;
  private final int district;
  private final int totalWarehouses;
  private final Supplier<Connection> connections;
  private final TpccConfig config;
  private final TpccConfig.Work work;
  private final TpccRandom random;
  private final double secondsPerTransaction;
  private final RetryPolicy<SQLException> retry;
  private volatile Metrics metrics;
  private volatile boolean stopped;
  private Connection connection;
  private Statements statements;
  private volatile Object lastDisplay;
  /** Set while a COMMIT is under way, and left set when it threw. */
  private boolean commitFailed;

  /**
   * @param connections           opens a connection (autocommit off, the config's isolation)
   * @param secondsPerTransaction pacing for the config's rate (0 = none)
   */
  public Terminal(int warehouse, int district, int totalWarehouses, Supplier<Connection> connections,
      TpccConfig config, TpccConfig.Work work, TpccRandom random, int maxRetries, double secondsPerTransaction,
      Metrics metrics) {
    this.warehouse = warehouse;
    this.district = district;
    this.totalWarehouses = totalWarehouses;
    this.connections = connections;
    this.config = config;
    this.work = work;
    this.random = random;
    this.secondsPerTransaction = secondsPerTransaction;
    this.metrics = metrics;
    this.retry = RetryPolicy.of(SQLException.class, SqlErrors::classify, maxRetries, () -> this.metrics)
        .stopWhen(() -> stopped);
  }

  /** Where results go from now on (the runner swaps the warm-up's sink for the measurement's). */
  public void recordInto(Metrics sink) {
    this.metrics = sink;
  }

  public void stop() {
    stopped = true;
  }

  @Override
  public void run() {
    Context context = new Context() {
      @Override
      public Connection connection() {
        return connection;
      }

      @Override
      public Statements statements() {
        return statements;
      }

      @Override
      public TpccRandom random() {
        return random;
      }

      @Override
      public int warehouse() {
        return warehouse;
      }

      @Override
      public int district() {
        return district;
      }

      @Override
      public int warehouses() {
        return totalWarehouses;
      }

      @Override
      public void display(Object result) {
        lastDisplay = result;
      }

      @Override
      public void commit() throws SQLException {
        commitFailed = true;
        connection.commit();
        commitFailed = false;
      }
    };
    // Under a rate, each transaction has a slot in the terminal's schedule; it is meant to be
    // submitted its keying time after the slot, whether or not the terminal is running late.
    long slot = System.nanoTime();
    try {
      while (!stopped) {
        TpccTransaction txn = pick();
        TpccConfig.TransactionType type = config.transaction(txn.name());
        if (!pause(type.preExecutionWaitMs())) {
          break;
        }
        runOne(txn, context, secondsPerTransaction > 0 ? slot + type.preExecutionWaitMs() * 1_000_000L : 0);
        if (!pause(thinkTime(type.postExecutionWaitMs()))) {
          break;
        }
        if (secondsPerTransaction > 0) {
          slot += (long) (secondsPerTransaction * 1e9);
          long wait = (slot - System.nanoTime()) / 1_000_000;
          if (wait > 0 && !pause(wait)) {
            break;
          }
        }
      }
    } finally {
      disconnect();
    }
  }

  /**
   * Runs one transaction to its end, retrying retryable errors; records the outcome.
   *
   * @param intendedStart when the rate's schedule meant it to be submitted (System.nanoTime()),
   *                      or 0 without a rate: a late terminal's wait then counts in its latency
   */
  private void runOne(TpccTransaction txn, Context context, long intendedStart) {
    long start = System.nanoTime();
    try {
      TpccTransaction.Outcome outcome = retry.call(txn.name(), () -> attempt(txn, context));
      long end = System.nanoTime();
      String name = outcome == TpccTransaction.Outcome.ROLLED_BACK ? TransactionKind.NEW_ORDER_ROLLBACK : txn.name();
      if (intendedStart != 0) {
        metrics.operation(name).success((end - Math.min(intendedStart, start)) / 1000, (end - start) / 1000);
      } else {
        metrics.operation(name).success((end - start) / 1000);
      }
    } catch (SQLException e) {
      if (commitFailed && SqlErrors.isConnectionLost(e)) {
        // The COMMIT was sent and the connection went before its reply (Jepsen's indeterminate operation).
        metrics.operation(txn.name()).unknownOutcome();
      } else {
        metrics.operation(txn.name()).error(SqlErrors.errorClass(e), 1);
      }
    }
  }

  /** One attempt on the terminal's connection, opened again if an earlier attempt lost it. */
  private TpccTransaction.Outcome attempt(TpccTransaction txn, Context context) throws SQLException {
    commitFailed = false;
    try {
      if (connection == null) {
        connect();
      }
      if (connection.isReadOnly() != txn.readOnly()) {
        connection.setReadOnly(txn.readOnly());  // pgjdbc: the next BEGIN says READ ONLY, or not
      }
      return txn.execute(context);
    } catch (SQLException e) {
      rollbackQuietly();
      if (SqlErrors.isConnectionLost(e)) {
        disconnect();
      }
      throw e;
    }
  }

  /** A transaction type drawn by the work's weights (in TpccConfig.TRANSACTIONS order). */
  private TpccTransaction pick() {
    int roll = random.uniform(1, 100);
    List<Integer> weights = work.weights();
    List<TpccConfig.TransactionType> types = config.transactionTypes();
    int sum = 0;
    for (int i = 0; i < weights.size(); i++) {
      sum += weights.get(i);
      if (roll <= sum) {
        String name = types.get(i).name();
        return TransactionKind.named(name).transaction();
      }
    }
    throw new IllegalStateException("weights do not sum to 100");
  }

  /** Negative exponential with the given mean, truncated at 10 times the mean; 0 stays 0. */
  long thinkTime(long meanMs) {
    if (meanMs <= 0) {
      return 0;
    }
    double r = Math.max(random.fraction(), 1e-12);
    return Math.min((long) (-Math.log(r) * meanMs), 10 * meanMs);
  }

  private boolean pause(long ms) {
    if (ms <= 0) {
      return !stopped;
    }
    long until = System.currentTimeMillis() + ms;
    try {
      while (!stopped) {
        long left = until - System.currentTimeMillis();
        if (left <= 0) {
          return true;
        }
        Thread.sleep(Math.min(left, 200));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return false;
  }

  private void connect() throws SQLException {
    try {
      connection = connections.get();
    } catch (RuntimeException e) {
      if (e.getCause() instanceof SQLException s) {
        throw s;
      }
      throw e;
    }
    statements = new Statements(connection);
  }

  private void rollbackQuietly() {
    try {
      if (connection != null && !connection.isClosed()) {
        connection.rollback();
      }
    } catch (SQLException ignored) {
      // the connection is being dropped
    }
  }

  private void disconnect() {
    if (statements != null) {
      statements.close();
      statements = null;
    }
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // already broken
      }
      connection = null;
    }
  }
}
