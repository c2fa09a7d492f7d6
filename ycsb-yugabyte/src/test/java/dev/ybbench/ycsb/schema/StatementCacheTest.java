package dev.ybbench.ycsb.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.ybbench.harness.ysql.SqlDialect;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class StatementCacheTest {
  private final StatementCache sql =
      new StatementCache(new SqlSchema(new TableSpec("usertable", 3, KeyLayout.HASH, 0), SqlDialect.POSTGRESQL));

  @Test
  void noFieldSetMeansEveryField() {
    assertEquals("SELECT * FROM usertable WHERE ycsb_key = ?", sql.read(null));
    assertEquals("SELECT * FROM usertable WHERE ycsb_key >= ? ORDER BY ycsb_key LIMIT ?", sql.scan(null));
    assertSame(sql.read(null), sql.read(null), "built once");
  }

  @Test
  void fieldSetsAreWrittenInNameOrderWhateverTheSetsOrder() {
    Set<String> given = new LinkedHashSet<>(List.of("field2", "field0"));
    assertEquals("SELECT field0, field2 FROM usertable WHERE ycsb_key = ?", sql.read(given));
    assertEquals("SELECT field0, field2 FROM usertable WHERE ycsb_key >= ? ORDER BY ycsb_key LIMIT ?",
        sql.scan(given));
    assertSame(sql.read(given), sql.read(new TreeSet<>(given)), "an equal set finds the same text");
  }

  @Test
  void updatesOfOneFieldOrSeveral() {
    assertEquals("UPDATE usertable SET field1 = ? WHERE ycsb_key = ?", sql.update("field1"));
    assertEquals("UPDATE usertable SET field0 = ?, field2 = ? WHERE ycsb_key = ?",
        sql.update(new TreeSet<>(List.of("field2", "field0"))));
  }
}
