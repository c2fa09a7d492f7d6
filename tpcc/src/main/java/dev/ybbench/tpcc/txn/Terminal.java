package dev.ybbench.tpcc.txn;

import dev.ybbench.tpcc.core.TpccRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;

/**
 * One emulated terminal (clause 2.1): a home warehouse and district, its own random stream, and
 * where it is in its cycle: the transaction it is keying and when it will submit it. It holds
 * no thread and no connection. While it keys and thinks it waits in {@link Terminals}' queue,
 * which hands it to a worker when its submission is due; so a thousand terminals cost a thousand
 * small objects, and threads and connections follow the work in flight.
 */
public final class Terminal implements Delayed {
  /** What a transaction needs of the terminal that submitted it and the connection it runs on. */
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

  final int warehouse;
  final int district;
  final TpccRandom random;
  /** The transaction it is keying or has submitted. */
  TransactionKind next;
  /** Its keying time for {@link #next}, ms. */
  long keyingMs;
  /** When it submits {@link #next} (System.nanoTime()): its think time and keying time are over. */
  long due;
  /** When a rate's schedule meant it to submit {@link #next}; {@link #due} without a rate. */
  long intended;
  /** Its slot in a rate's schedule. */
  long slot;
  /** When its previous response was displayed, 0 before the first; with the think and keying times since. */
  long lastResponse;
  long waitedMs;

  public Terminal(int warehouse, int district, TpccRandom random) {
    this.warehouse = warehouse;
    this.district = district;
    this.random = random;
  }

  /** Negative exponential with the given mean, truncated at 10 times the mean (clause 5.2.5.4); 0 stays 0. */
  long thinkTime(long meanMs) {
    if (meanMs <= 0) {
      return 0;
    }
    double r = Math.max(random.fraction(), 1e-12);
    return Math.min((long) (-Math.log(r) * meanMs), 10 * meanMs);
  }

  @Override
  public long getDelay(TimeUnit unit) {
    return unit.convert(due - System.nanoTime(), TimeUnit.NANOSECONDS);
  }

  @Override
  public int compareTo(Delayed o) {
    return Long.compare(due, ((Terminal) o).due);
  }
}
