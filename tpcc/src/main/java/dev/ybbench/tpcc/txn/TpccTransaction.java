package dev.ybbench.tpcc.txn;

import java.sql.SQLException;

/**
 * One of TPC-C's five transaction profiles (clauses 2.4–2.8). {@link #execute} runs one
 * transaction on the terminal's connection (autocommit off) and commits or rolls back itself;
 * a retryable error thrown out of it is retried by the terminal, which rolls back first.
 */
public interface TpccTransaction {
  /** How a transaction that did not throw ended. */
  enum Outcome {
    COMMITTED,
    /** New-Order's 1 % with an unused item number: rolled back, as clause 2.4.2.3 intends. */
    ROLLED_BACK
  }

  /** BenchBase's name for it: NewOrder, Payment, OrderStatus, Delivery, StockLevel. */
  String name();

  /**
   * Whether the transaction only reads (Order-Status, clause 2.6; Stock-Level, clause 2.8). It is
   * then declared READ ONLY: under PostgreSQL's SERIALIZABLE a read-only transaction can be proven
   * safe and keeps no predicate locks. Without, Order-Status run alone (the throughput run's
   * table) ran the server out of predicate-lock memory: SQLSTATE 53200 on 14 % of transactions.
   */
  default boolean readOnly() {
    return false;
  }

  Outcome execute(Terminal.Context t) throws SQLException;
}
