package dev.ybbench.tpcc.load;

import dev.ybbench.harness.ysql.CopyRows;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * Rows of one table into the database by COPY FROM STDIN ({@link CopyRows}), the fastest bulk
 * path on both PostgreSQL and YugabyteDB's YSQL, through whichever JDBC driver the connection
 * comes from. Rows are sent every {@code batchRows} rows, each batch in its own transaction
 * (autocommit), so a long load holds no giant transaction open.
 */
final class BulkWriter implements AutoCloseable {
  private final Connection connection;
  private final String copySql;
  private final int batchRows;
  private final LongConsumer progress;
  private final BooleanSupplier stop;
  private final CopyRows rows = new CopyRows();
  private long written;

  /**
   * @param progress hears the rows of each batch once it is committed
   * @param stop     once true, the next batch is not sent: {@link Stopped} is thrown instead
   */
  BulkWriter(Connection connection, String table, List<String> columns, int batchRows, LongConsumer progress,
      BooleanSupplier stop) {
    this.connection = connection;
    this.progress = progress;
    this.stop = stop;
    this.copySql = "COPY " + table + " (" + String.join(", ", columns) + ") FROM STDIN";
    this.batchRows = batchRows;
  }

  /** One row; null values become SQL NULL, whole numbers are written without a String. */
  void row(Object... values) throws SQLException {
    for (Object v : values) {
      if (v instanceof Integer || v instanceof Long) {
        rows.value(((Number) v).longValue());
      } else {
        rows.value(v == null ? null : v.toString());
      }
    }
    rows.endRow();
    if (rows.rows() >= batchRows) {
      flush();
    }
  }

  long written() {
    return written;
  }

  void flush() throws SQLException {
    int n = rows.rows();
    if (n == 0) {
      return;
    }
    if (stop.getAsBoolean()) {
      throw new Stopped();
    }
    rows.send(connection, copySql);
    written += n;
    progress.accept(n);
    rows.clear();
  }

  @Override
  public void close() throws SQLException {
    flush();
  }

  /** The load was asked to stop (Ctrl-C): it ends between two batches, whatever the warehouse. */
  static final class Stopped extends RuntimeException {
    Stopped() {
      super("the load was stopped", null, false, false);
    }
  }
}
