package dev.ybbench.sysbench.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.UserError;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;

/** sysbench's distributions, formula for formula, on given uniform draws; and their shape on many. */
class SysbenchRandomTest {
  private static DoubleSupplier draws(double... u) {
    int[] i = {0};
    return () -> u[i[0]++];
  }

  private static SysbenchRandom of(String type, double... u) {
    return new SysbenchRandom(SysbenchRandom.Distribution.of(Map.of("rand-type", type)), draws(u));
  }

  @Test
  void uniformAndParetoAsSbRand() {
    assertEquals(1 + 9999, of("uniform", 0.99999).next(1, 10000)); // 1 + (uint32)(0.99999 × 10000)
    assertEquals(1 + 5000, of("uniform", 0.5).next(1, 10000));
    // pareto, h = 0.2: 1 + (uint32)(10000 × 0.5^(ln 0.2 / ln 0.8)) = 1 + (uint32)(10000 × 0.5^7.2126) = 1 + 67
    assertEquals(68, of("pareto", 0.5).next(1, 10000));
  }

  @Test
  void specialPutsItsShareInTheMiddlePercent() {
    // rnd 0.9 × (t × 100/25) ≥ t: the special branch, uniform over the middle 1 %:
    // res = 0.9 × (t × 0.01 + 1) + t/2 − t × 0.005, t = 9999: 0.9 × 100.99 + 4999.5 − 49.995 = 5040.396
    assertEquals(1 + 5040, of("special", 0.9).next(1, 10000));
    // rnd 0.1: the gaussian branch, the mean of 12 more draws across the range: 1 + 0.5 × 9999 = 5000.5
    assertEquals(5000, of("special", 0.1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5)
        .next(1, 10000));
    // Many draws: about 75 % fall in the middle 1 % of [1, 10000] (4950 … 5051, with the gaussian's few).
    SplittableRandom r = new SplittableRandom(7);
    SysbenchRandom special = new SysbenchRandom(SysbenchRandom.Distribution.DEFAULT, r::nextDouble);
    int middle = 0;
    for (int i = 0; i < 100_000; i++) {
      long v = special.next(1, 10000);
      assertTrue(v >= 1 && v <= 10000, "drawn " + v);
      middle += v >= 4950 && v <= 5051 ? 1 : 0;
    }
    assertTrue(middle > 75_000 && middle < 78_000, middle + " of 100,000 in the middle percent");
  }

  @Test
  void stringsFollowTheTemplates() {
    SysbenchRandom r = new SysbenchRandom(SysbenchRandom.Distribution.DEFAULT, new SplittableRandom(1)::nextDouble);
    String c = r.string(SysbenchRandom.C_TEMPLATE);
    assertEquals(119, c.length());
    assertTrue(c.matches("([0-9]{11}-){9}[0-9]{11}"), c);
    assertTrue(r.string(SysbenchRandom.PAD_TEMPLATE).matches("([0-9]{11}-){4}[0-9]{11}"));
    assertEquals("7-0", of("uniform", 0.75, 0.0).string("#-#"));
  }

  @Test
  void badParametersAreRefused() {
    assertEquals("--rand-type=zipf is not one of uniform, gaussian, special, pareto", assertThrows(UserError.class,
        () -> SysbenchRandom.Distribution.of(Map.of("rand-type", "zipf"))).getMessage());
    assertThrows(UserError.class, () -> SysbenchRandom.Distribution.of(Map.of("rand-spec-res", "100")));
  }
}
