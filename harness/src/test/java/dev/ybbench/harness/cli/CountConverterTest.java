package dev.ybbench.harness.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CountConverterTest {
  @Test
  void countsAsPeopleWriteThem() {
    assertEquals(1_000_000L, CountConverter.parse("1000000"));
    assertEquals(1_000_000L, CountConverter.parse("1_000_000"));
    assertEquals(100_000L, CountConverter.parse("100k"));
    assertEquals(10_000_000L, CountConverter.parse("10M"));
    assertEquals(2_500_000L, CountConverter.parse("2.5m"));
    assertEquals(1_000_000_000L, CountConverter.parse("1G"));
    assertEquals(1_000_000L, CountConverter.parse("1e6"));
    assertEquals(0L, CountConverter.parse("0"));
  }

  @Test
  void whatIsNoCountIsNamed() {
    for (String bad : new String[] {"1.5", "abc", "1e-3", "k", "", "9e30"}) {
      assertEquals("'" + bad + "' is not a whole count; give e.g. 100000, 100k, 10M or 1e6",
          assertThrows(CommandLine.TypeConversionException.class, () -> CountConverter.parse(bad)).getMessage(), bad);
    }
  }
}
