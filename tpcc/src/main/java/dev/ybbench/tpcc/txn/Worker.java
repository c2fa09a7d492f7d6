package dev.ybbench.tpcc.txn;

import dev.ybbench.harness.retry.RetryPolicy;
import dev.ybbench.harness.sql.SqlErrors;
import dev.ybbench.harness.ysql.Session;
import dev.ybbench.tpcc.config.TransactionSpec;
import dev.ybbench.tpcc.core.TpccRandom;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * One connection and the thread that runs, on it, the terminals' transactions as they fall due,
 * or the deferred Deliveries as they are queued; the context of each.
 */
final class Worker implements Runnable, Terminal.Context {
  private final Terminals terminals;
  private final boolean deferred;
  private final RetryPolicy<SQLException> retry;
  /** The worker's connection, opened again on the next attempt after one lost it. */
  private final Session session = new Session(this::open, this::prepare, this::forget);
  private Statements statements;
  /** The transaction type this worker runs now (a connection made during it runs its statements). */
  private String running = "";
  private Terminal terminal;
  private int warehouse;
  private volatile Object lastDisplay;
  /** Set while a COMMIT is under way, and left set when it threw. */
  private boolean commitFailed;

  /** @param deferred runs the deferred Deliveries rather than the terminals' transactions */
  Worker(Terminals terminals, boolean deferred) {
    this.terminals = terminals;
    this.deferred = deferred;
    this.retry = RetryPolicy.of(SQLException.class, SqlErrors::classify, terminals.setup().maxRetries(),
        terminals::sink).stopWhen(terminals::stopped);
  }

  @Override
  public void run() {
    try {
      while (!terminals.stopped()) {
        if (deferred) {
          Terminals.DeferredDelivery d = terminals.nextDelivery();
          if (d != null) {
            deliver(d);
          }
        } else {
          Terminal t = terminals.nextDue();
          if (t != null) {
            serve(t);
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      session.close();
    }
  }

  private void serve(Terminal t) {
    long end;
    if (terminals.submit(t, System.nanoTime())) {
      end = System.nanoTime(); // a deferred Delivery: answered once queued
    } else {
      terminal = t;
      warehouse = t.warehouse;
      TpccTransaction txn = t.next.transaction();
      end = runOne(txn.name(), txn.readOnly(), () -> txn.execute(this), t.intended, t.due);
      terminal = null;
    }
    terminals.answered(t, end);
  }

  private void deliver(Terminals.DeferredDelivery d) {
    terminal = null;
    warehouse = d.warehouse();
    runOne(TransactionKind.DELIVERY.benchbaseName(), false, () -> Delivery.deliver(this, d.carrier()),
        d.queued(), d.queued());
  }

  /**
   * Runs one transaction to its end, retrying retryable errors, and records the outcome.
   *
   * @param intended  when a rate's schedule meant it to be submitted
   * @param submitted when it was submitted
   * @return when it ended
   */
  private long runOne(String name, boolean readOnly, RetryPolicy.Attempt<TpccTransaction.Outcome, SQLException> body,
      long intended, long submitted) {
    running = name;
    if (statements != null) {
      statements.runningFor(name);
    }
    terminals.sink().begin();
    try {
      TpccTransaction.Outcome outcome = retry.call(name, () -> attempt(readOnly, body));
      long end = System.nanoTime();
      String recorded = outcome == TpccTransaction.Outcome.ROLLED_BACK ? TransactionSpec.NEW_ORDER_ROLLBACK : name;
      if (terminals.paced()) {
        terminals.sink().operation(recorded).success((end - intended) / 1000, (end - submitted) / 1000);
      } else {
        terminals.sink().operation(recorded).success((end - submitted) / 1000);
      }
      return end;
    } catch (SQLException e) {
      if (commitFailed && SqlErrors.isConnectionLost(e)) {
        // The COMMIT was sent and the connection went before its reply (Jepsen's indeterminate operation).
        terminals.sink().operation(name).unknownOutcome();
      } else {
        terminals.sink().operation(name).failed(SqlErrors.classify(e).outcomeName(), 1); // an error, or an abort
      }
      return System.nanoTime();
    } finally {
      terminals.sink().end(); // in the window's metrics if it opened meanwhile: their sum is exact
    }
  }

  /** One attempt on the worker's connection, in read-only mode or not as the transaction is. */
  private TpccTransaction.Outcome attempt(boolean readOnly,
      RetryPolicy.Attempt<TpccTransaction.Outcome, SQLException> body) throws SQLException {
    commitFailed = false;
    return session.attempt(() -> {
      Connection connection = session.current();
      if (connection.isReadOnly() != readOnly) {
        connection.setReadOnly(readOnly);  // pgjdbc: the next BEGIN says READ ONLY, or not
      }
      return body.run();
    });
  }

  @Override
  public Connection connection() {
    return session.current();
  }

  @Override
  public Statements statements() {
    return statements;
  }

  @Override
  public TpccRandom random() {
    return terminal.random;
  }

  @Override
  public int warehouse() {
    return warehouse;
  }

  @Override
  public int district() {
    return terminal.district;
  }

  @Override
  public int warehouses() {
    return terminals.totalWarehouses();
  }

  @Override
  public void display(Object result) {
    lastDisplay = result;
  }

  @Override
  public void commit() throws SQLException {
    commitFailed = true;
    session.current().commit();
    commitFailed = false;
  }

  private Connection open() throws SQLException {
    try {
      return terminals.connect();
    } catch (RuntimeException e) {
      if (e.getCause() instanceof SQLException s) {
        throw s;
      }
      throw e;
    }
  }

  /** The statements of a new connection, named after the transaction it opened in. */
  private void prepare() {
    statements = new Statements(session.current());
    statements.runningFor(running);
  }

  private void forget() {
    statements.close();
    statements = null;
  }
}
