package dev.ybbench.harness.retry;

/** One API's reading of its errors (SQL over JDBC, CQL over the driver). */
@FunctionalInterface
public interface Classifier<E extends Exception> {
  Failure classify(E error);
}
