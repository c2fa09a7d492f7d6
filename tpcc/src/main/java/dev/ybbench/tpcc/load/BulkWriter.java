package dev.ybbench.tpcc.load;

import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Rows of one table into the database by COPY FROM STDIN, the fastest bulk path on both
 * PostgreSQL and YugabyteDB's YSQL, through whichever JDBC driver the connection comes from.
 * Rows are buffered in COPY's text format and sent every {@code batchRows} rows, each batch in
 * its own transaction (autocommit), so a long load holds no giant transaction open.
 */
final class BulkWriter implements AutoCloseable {
  private final Connection connection;
  private final String copySql;
  private final int batchRows;
  private final LongAdder progress;
  private final StringBuilder buffer = new StringBuilder(1 << 16);
  private int buffered;
  private long written;

  /** @param progress counts rows as they are written, for a status line */
  BulkWriter(Connection connection, String table, List<String> columns, int batchRows, LongAdder progress) {
    this.connection = connection;
    this.progress = progress;
    this.copySql = "COPY " + table + " (" + String.join(", ", columns) + ") FROM STDIN";
    this.batchRows = batchRows;
  }

  /** One row; null values become SQL NULL. Values must not contain tabs, newlines or backslashes. */
  void row(Object... values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        buffer.append('\t');
      }
      buffer.append(values[i] == null ? "\\N" : values[i].toString());
    }
    buffer.append('\n');
    if (++buffered >= batchRows) {
      flush();
    }
  }

  long written() {
    return written;
  }

  void flush() throws SQLException {
    if (buffered == 0) {
      return;
    }
    try {
      StringReader rows = new StringReader(buffer.toString());
      if (connection.isWrapperFor(org.postgresql.PGConnection.class)) {
        connection.unwrap(org.postgresql.PGConnection.class).getCopyAPI().copyIn(copySql, rows);
      } else {
        connection.unwrap(com.yugabyte.PGConnection.class).getCopyAPI().copyIn(copySql, rows);
      }
    } catch (IOException e) {
      throw new SQLException("COPY failed: " + e.getMessage(), "08000", e);
    }
    written += buffered;
    progress.add(buffered);
    buffered = 0;
    buffer.setLength(0);
  }

  @Override
  public void close() throws SQLException {
    flush();
  }
}
