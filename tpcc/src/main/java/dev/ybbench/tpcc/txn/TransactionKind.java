package dev.ybbench.tpcc.txn;

import dev.ybbench.tpcc.config.TransactionSpec;

/**
 * What runs each of TPC-C's five transactions ({@link TransactionSpec}: its name, response time
 * limit, keying and think times), in the same order.
 */
public enum TransactionKind {
  NEW_ORDER(TransactionSpec.NEW_ORDER, new NewOrder()),
  PAYMENT(TransactionSpec.PAYMENT, new Payment()),
  ORDER_STATUS(TransactionSpec.ORDER_STATUS, new OrderStatus()),
  DELIVERY(TransactionSpec.DELIVERY, new Delivery()),
  STOCK_LEVEL(TransactionSpec.STOCK_LEVEL, new StockLevel());

  private final TransactionSpec spec;
  private final TpccTransaction transaction;

  TransactionKind(TransactionSpec spec, TpccTransaction transaction) {
    this.spec = spec;
    this.transaction = transaction;
  }

  /** BenchBase's name: NewOrder, Payment, OrderStatus, Delivery, StockLevel. */
  public String benchbaseName() {
    return spec.benchbaseName();
  }

  public TpccTransaction transaction() {
    return transaction;
  }

  public static TransactionKind named(String name) {
    return values()[TransactionSpec.named(name).ordinal()];
  }
}
