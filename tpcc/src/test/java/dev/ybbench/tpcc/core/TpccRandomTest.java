package dev.ybbench.tpcc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TpccRandomTest {
  private static final TpccRandom.Constants LOAD = new TpccRandom.Constants(123, 259, 7911);

  @Test
  void lastNamesAreThreeSyllablesByDigit() {
    assertEquals("BARBARBAR", TpccRandom.lastName(0));
    assertEquals("PRICALLYOUGHT", TpccRandom.lastName(371));
    assertEquals("EINGEINGEING", TpccRandom.lastName(999));
    assertEquals("OUGHTBARABLE", TpccRandom.lastName(102));
  }

  @Test
  void theFirstThousandCustomersOfADistrictCoverEveryName() {
    TpccRandom r = new TpccRandom(1, LOAD);
    Set<String> names = new HashSet<>();
    for (int cId = 1; cId <= 1000; cId++) {
      names.add(r.lastNameForLoad(cId));
    }
    assertEquals(1000, names.size());
    assertEquals("BARBARBAR", r.lastNameForLoad(1));
    assertEquals("EINGEINGEING", r.lastNameForLoad(1000));
  }

  @Test
  void nurandFollowsTheFormulaWithItsConstant() {
    // With A = 255, x = 0, y = 999 and C = 123 every value stays in range, and the
    // distribution is skewed: 0..255 OR any y can only set the low 8 bits.
    TpccRandom r = new TpccRandom(42, LOAD);
    int[] hits = new int[1000];
    for (int i = 0; i < 200_000; i++) {
      int v = r.nurand(255, 0, 999);
      assertTrue(v >= 0 && v <= 999, "out of range: " + v);
      hits[v]++;
    }
    int max = Arrays.stream(hits).max().orElseThrow();
    int min = Arrays.stream(hits).min().orElseThrow();
    assertTrue(max > 3 * min + 1, "NURand should be non-uniform: max " + max + ", min " + min);
    for (int i = 0; i < 10_000; i++) {
      int c = r.customerId();
      int item = r.itemId();
      assertTrue(c >= 1 && c <= 3000 && item >= 1 && item <= 100000);
    }
  }

  @Test
  void nurandIsExactlyTheSpecFormula() {
    // The same seed replays the two uniform draws, so the result is known exactly.
    Random replay = new Random(77);
    int r1 = replay.nextInt(256);
    int r2 = 1 + replay.nextInt(3000);
    int r3 = replay.nextInt(1024);
    int r4 = 1 + replay.nextInt(3000);
    TpccRandom r = new TpccRandom(77, LOAD);
    assertEquals((((r1 | r2) + 123) % 3000) + 1, r.nurand(255, 1, 3000));
    assertEquals((((r3 | r4) + 259) % 3000) + 1, r.customerId());
  }

  @Test
  void runConstantsKeepTheSpecDeltaForLastNames() {
    Random seed = new Random(9);
    for (int i = 0; i < 1000; i++) {
      TpccRandom.Constants load = TpccRandom.Constants.forLoad(seed);
      TpccRandom.Constants run = TpccRandom.Constants.forRun(load, seed);
      int delta = Math.abs(run.cLast() - load.cLast());
      assertTrue(delta >= 65 && delta <= 119 && delta != 96 && delta != 112, "delta " + delta);
    }
    assertFalse(TpccRandom.Constants.validCLastDelta(96));
    assertFalse(TpccRandom.Constants.validCLastDelta(112));
    assertFalse(TpccRandom.Constants.validCLastDelta(64));
    assertTrue(TpccRandom.Constants.validCLastDelta(65));
    assertTrue(TpccRandom.Constants.validCLastDelta(119));
    assertFalse(TpccRandom.Constants.validCLastDelta(120));
  }

  @Test
  void stringsAndZipsHaveTheSpecShapes() {
    TpccRandom r = new TpccRandom(5, LOAD);
    for (int i = 0; i < 1000; i++) {
      String a = r.astring(8, 16);
      assertTrue(a.length() >= 8 && a.length() <= 16 && a.matches("[A-Za-z0-9]+"), a);
      assertTrue(r.zip().matches("\\d{4}11111"));
      assertTrue(r.nstring(16, 16).matches("\\d{16}"));
    }
  }

  @Test
  void aboutOneInTenDataValuesSayOriginal() {
    TpccRandom r = new TpccRandom(11, LOAD);
    int original = 0;
    int n = 100_000;
    for (int i = 0; i < n; i++) {
      String d = r.dataWithOriginal();
      assertTrue(d.length() >= 26 && d.length() <= 50, d);
      original += d.contains("ORIGINAL") ? 1 : 0;
    }
    // 10 % ± 0.5 %: about 16 standard deviations of a binomial(100000, 0.1).
    assertTrue(Math.abs(original - n / 10) < n / 200, "ORIGINAL in " + original + " of " + n);
  }

  @Test
  void permutationsHoldEachNumberOnce() {
    int[] p = new TpccRandom(3, LOAD).permutation(3000);
    assertEquals(3000, Arrays.stream(p).distinct().count());
    assertEquals(1, Arrays.stream(p).min().orElseThrow());
    assertEquals(3000, Arrays.stream(p).max().orElseThrow());
  }
}
