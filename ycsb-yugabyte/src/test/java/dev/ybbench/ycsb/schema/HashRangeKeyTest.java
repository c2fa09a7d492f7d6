package dev.ybbench.ycsb.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class HashRangeKeyTest {
  @Test
  void keyNumberSplitsIntoThreadAndPost() {
    assertEquals(new HashRangeKey(0, 0), HashRangeKey.of("user0", 100));
    assertEquals(new HashRangeKey(0, 99), HashRangeKey.of("user99", 100));
    assertEquals(new HashRangeKey(1, 0), HashRangeKey.of("user100", 100));
    assertEquals(new HashRangeKey(12, 34), HashRangeKey.of("user1234", 100));
    assertEquals(new HashRangeKey(1234, 0), HashRangeKey.of("user1234", 1));
  }

  @Test
  void zeroPaddedAndHashedKeysParse() {
    assertEquals(42, HashRangeKey.keyNumber("user0000000042"));
    assertEquals(6284781860667377211L, HashRangeKey.keyNumber("user6284781860667377211"));
  }

  @Test
  void aKeyWithoutANumberIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> HashRangeKey.of("user", 100));
  }
}
