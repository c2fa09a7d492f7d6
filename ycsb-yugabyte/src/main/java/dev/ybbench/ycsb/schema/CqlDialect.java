package dev.ybbench.ycsb.schema;

/** The CQL servers the YCQL path talks to; they differ only in DDL. */
public enum CqlDialect {
  /** YugabyteDB YCQL: WITH tablets = n, WITH transactions = { 'enabled' : true }. */
  YUGABYTEDB,
  /** Apache Cassandra (the embedded default). */
  CASSANDRA
}
