package dev.ybbench.harness.ysql;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * Rows in PostgreSQL's COPY text format, built in one reused byte buffer and sent with
 * {@code COPY … FROM STDIN} through either JDBC driver (pgjdbc or YugabyteDB's fork): the bulk
 * path of both PostgreSQL and YSQL, one round trip and one transaction (under autocommit) per
 * send, with none of a multi-row INSERT's parameter binding. Values are escaped as the format
 * asks (backslash, tab, newline, carriage return), so any text arrives as it was given.
 */
public final class CopyRows {
  /** What follows a backslash for each ASCII byte the format escapes; 0 for the rest. */
  private static final byte[] ESCAPE = new byte[128];

  static {
    ESCAPE['\\'] = '\\';
    ESCAPE['\t'] = 't';
    ESCAPE['\n'] = 'n';
    ESCAPE['\r'] = 'r';
  }

  private byte[] buf = new byte[1 << 16];
  private int len;
  private int rows;
  /** Whether the current row has a value yet (the next one is preceded by a tab). */
  private boolean inRow;

  /** A text value of the current row; null is SQL NULL. */
  public CopyRows value(String v) {
    separate();
    if (v == null) {
      ensure(2);
      buf[len++] = '\\';
      buf[len++] = 'N';
    } else {
      escaped(v.getBytes(StandardCharsets.UTF_8), false);
    }
    return this;
  }

  /**
   * A text value given as bytes, read as UTF-8 the way a {@code new String(bytes, UTF_8)} reads
   * them (a malformed sequence becomes U+FFFD). ASCII bytes — YCSB's random values — are escaped
   * straight into the buffer in one pass, without a String in between.
   */
  public CopyRows decoded(byte[] bytes) {
    separate();
    if (!escaped(bytes, true)) {
      escaped(new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8), false);
    }
    return this;
  }

  /**
   * Appends UTF-8 escaped where the format asks (its ASCII bytes never occur inside a multi-byte
   * character, so those are copied as they are). With {@code asciiOnly}, the first byte above
   * ASCII stops it: nothing is appended and it returns false.
   */
  private boolean escaped(byte[] b, boolean asciiOnly) {
    ensure(2 * b.length);
    byte[] out = buf;
    int n = len;
    for (byte x : b) {
      if (x < 0) {
        if (asciiOnly) {
          return false;
        }
        out[n++] = x;
        continue;
      }
      byte e = ESCAPE[x];
      if (e == 0) {
        out[n++] = x;
      } else {
        out[n++] = '\\';
        out[n++] = e;
      }
    }
    len = n;
    return true;
  }

  /** A whole-number value of the current row. */
  public CopyRows value(long v) {
    separate();
    String digits = Long.toString(v);
    ensure(digits.length());
    for (int i = 0; i < digits.length(); i++) {
      buf[len++] = (byte) digits.charAt(i);
    }
    return this;
  }

  /** Ends the current row. */
  public void endRow() {
    ensure(1);
    buf[len++] = '\n';
    rows++;
    inRow = false;
  }

  /** Rows ended since the last {@link #clear()}. */
  public int rows() {
    return rows;
  }

  /** Bytes buffered (what one send will carry). */
  public int bytes() {
    return len;
  }

  public void clear() {
    len = 0;
    rows = 0;
    inRow = false;
  }

  /**
   * Sends the rows ended so far with {@code copySql} ({@code COPY table (columns) FROM STDIN}) and
   * returns the count the server reported; the buffer is kept until {@link #clear()}, so a failed
   * send can be retried as a whole. A COPY that fails part way is cancelled: nothing of it stays.
   */
  public long send(Connection connection, String copySql) throws SQLException {
    if (connection.isWrapperFor(org.postgresql.PGConnection.class)) {
      org.postgresql.copy.CopyIn in =
          connection.unwrap(org.postgresql.PGConnection.class).getCopyAPI().copyIn(copySql);
      try {
        in.writeToCopy(buf, 0, len);
        return in.endCopy();
      } finally {
        if (in.isActive()) {
          in.cancelCopy();
        }
      }
    }
    com.yugabyte.copy.CopyIn in = connection.unwrap(com.yugabyte.PGConnection.class).getCopyAPI().copyIn(copySql);
    try {
      in.writeToCopy(buf, 0, len);
      return in.endCopy();
    } finally {
      if (in.isActive()) {
        in.cancelCopy();
      }
    }
  }

  /** The buffered text, for tests. */
  String text() {
    return new String(buf, 0, len, StandardCharsets.UTF_8);
  }

  private void separate() {
    if (inRow) {
      ensure(1);
      buf[len++] = '\t';
    }
    inRow = true;
  }

  private void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }
  }
}
