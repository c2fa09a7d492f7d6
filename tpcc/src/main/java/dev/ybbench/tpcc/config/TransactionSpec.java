package dev.ybbench.tpcc.config;

import java.util.Arrays;
import java.util.List;

/**
 * TPC-C's five transaction profiles as the specification and configs know them, in the order
 * BenchBase's weights list them: the name results and configs use, the 90th-percentile response
 * time limit of clause 5.2.5.3, and the spec's keying time (clause 5.2.5.2) and mean think time
 * (clause 5.2.5.4). What runs each is {@code txn.TransactionKind}'s.
 */
public enum TransactionSpec {
  NEW_ORDER("NewOrder", 5.0, 18_000, 12_000),
  PAYMENT("Payment", 5.0, 3_000, 12_000),
  ORDER_STATUS("OrderStatus", 5.0, 2_000, 10_000),
  DELIVERY("Delivery", 5.0, 2_000, 5_000),
  STOCK_LEVEL("StockLevel", 20.0, 2_000, 5_000);

  /**
   * Clause 2.7.2: a deferred Delivery must complete within 80 s of being queued, for 90 % of them.
   * Its terminal's response, the acknowledgement that it is queued, is immediate.
   */
  public static final double DEFERRED_DELIVERY_LIMIT_SECONDS = 80.0;

  /** The name New-Orders rolled back by design (clause 2.4.2.3) are recorded under. */
  public static final String NEW_ORDER_ROLLBACK = "NewOrderRollback";

  private final String benchbaseName;
  private final double p90LimitSeconds;
  private final long keyingMs;
  private final long meanThinkMs;

  TransactionSpec(String benchbaseName, double p90LimitSeconds, long keyingMs, long meanThinkMs) {
    this.benchbaseName = benchbaseName;
    this.p90LimitSeconds = p90LimitSeconds;
    this.keyingMs = keyingMs;
    this.meanThinkMs = meanThinkMs;
  }

  /** BenchBase's name: NewOrder, Payment, OrderStatus, Delivery, StockLevel. */
  public String benchbaseName() {
    return benchbaseName;
  }


  public double p90LimitSeconds() {
    return p90LimitSeconds;
  }

  public long keyingMs() {
    return keyingMs;
  }

  public long meanThinkMs() {
    return meanThinkMs;
  }

  /** The names in weight order. */
  public static List<String> names() {
    return Arrays.stream(values()).map(TransactionSpec::benchbaseName).toList();
  }

  public static TransactionSpec named(String name) {
    return Arrays.stream(values()).filter(k -> k.benchbaseName.equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no TPC-C transaction " + name));
  }
}
