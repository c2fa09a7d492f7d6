package dev.ybbench.harness.ysql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CopyRowsTest {
  @Test
  void rowsAreTabSeparatedLinesWithNullsAndNumbers() {
    CopyRows rows = new CopyRows();
    rows.value("user6284781860667377211").value("a b").value((String) null).endRow();
    rows.value(-42).value(0).value(Long.MAX_VALUE).value(Long.MIN_VALUE).endRow();
    assertEquals("user6284781860667377211\ta b\t\\N\n-42\t0\t9223372036854775807\t-9223372036854775808\n",
        rows.text());
    assertEquals(2, rows.rows());
    rows.clear();
    assertEquals("", rows.text());
    assertEquals(0, rows.rows());
  }

  @Test
  void theFormatsSpecialCharactersAreEscapedAndOtherTextIsUtf8() {
    CopyRows rows = new CopyRows();
    rows.value("back\\slash\ttab\nline\rreturn").value("naïve \\ café\t€").endRow();
    assertEquals("back\\\\slash\\ttab\\nline\\rreturn\tnaïve \\\\ café\\t€\n", rows.text());
  }

  @Test
  void bytesAreReadAsUtf8AsAStringWouldReadThem() {
    CopyRows rows = new CopyRows();
    byte[] ascii = "plain \\ text".getBytes(StandardCharsets.UTF_8);
    byte[] utf8 = "café".getBytes(StandardCharsets.UTF_8);
    byte[] malformed = {'a', (byte) 0xFF, 'b'};
    // escapes before the first byte above ASCII are written once, not again after it
    byte[] escapedThenUtf8 = "\\\t€".getBytes(StandardCharsets.UTF_8);
    rows.decoded(ascii).decoded(utf8).decoded(malformed).decoded(escapedThenUtf8).endRow();
    assertEquals("plain \\\\ text\tcafé\ta\uFFFDb\t\\\\\\t€\n", rows.text());
  }

  @Test
  void theBufferGrowsPastItsFirstSize() {
    CopyRows rows = new CopyRows();
    String value = "x".repeat(1000);
    for (int i = 0; i < 200; i++) {
      rows.value(i).value(value).endRow();
    }
    assertEquals(200, rows.rows());
    String[] lines = rows.text().split("\n");
    assertEquals(200, lines.length);
    assertEquals("199\t" + value, lines[199]);
    assertEquals(rows.text().length(), rows.bytes());
  }
}
