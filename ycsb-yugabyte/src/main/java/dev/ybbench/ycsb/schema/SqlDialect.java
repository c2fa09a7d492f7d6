package dev.ybbench.ycsb.schema;

/** The SQL servers the YSQL path talks to; they differ only in DDL. */
public enum SqlDialect {
  /** YugabyteDB YSQL: HASH/ASC key columns, SPLIT INTO n TABLETS. */
  YUGABYTEDB,
  /** PostgreSQL (the embedded default): the same logical layout as a plain primary key. */
  POSTGRESQL
}
