package dev.ybbench.ycsb.workload;

import java.util.concurrent.ThreadLocalRandom;
import site.ycsb.generator.CounterGenerator;
import site.ycsb.generator.NumberGenerator;
import site.ycsb.generator.ZipfianGenerator;

/**
 * YCSB's {@code requestdistribution=latest} (its SkewedLatestGenerator): the newest key is the
 * most popular, the one before it next, zipfian over every key written so far. The same draws as
 * YCSB's, Gray et al.'s method with YCSB's constants, but ζ comes from {@link Zeta} instead of
 * a sum over every key, which at 30 billion keys would take minutes before the first read.
 */
final class LatestGenerator extends NumberGenerator {
  private static final double THETA = ZipfianGenerator.ZIPFIAN_CONSTANT;
  private static final double ALPHA = 1 / (1 - THETA);
  private static final double ZETA2 = Zeta.of(2, THETA);
  private static final double HALF_POW_THETA = Math.pow(0.5, THETA);

  private final CounterGenerator basis;
  /** The item count the generator was built for: YCSB keeps it in eta as the items grow, and so does this. */
  private final long items;
  private long countForZeta;
  private double zetan;
  private double eta;

  LatestGenerator(CounterGenerator basis) {
    this.basis = basis;
    this.items = basis.lastValue();
    this.countForZeta = items;
    this.zetan = Zeta.of(items, THETA);
    this.eta = eta();
    nextValue();
  }

  private double eta() {
    return (1 - Math.pow(2.0 / items, 1 - THETA)) / (1 - ZETA2 / zetan);
  }

  @Override
  public Long nextValue() {
    long max = basis.lastValue();
    long next = max - zipfian(max);
    setLastValue(next);
    return next;
  }

  /** A zipfian draw from 0 … itemcount − 1, 0 the most popular (YCSB's ZipfianGenerator.nextLong). */
  private long zipfian(long itemcount) {
    double z;
    double e;
    synchronized (this) {
      if (itemcount > countForZeta) { // keys were added: ζ grows by their terms alone
        zetan += Zeta.between(countForZeta, itemcount, THETA);
        countForZeta = itemcount;
        eta = eta();
      }
      z = zetan;
      e = eta;
    }
    double u = ThreadLocalRandom.current().nextDouble();
    double uz = u * z;
    if (uz < 1.0) {
      return 0;
    }
    if (uz < 1.0 + HALF_POW_THETA) {
      return 1;
    }
    return (long) (itemcount * Math.pow(e * u - e + 1, ALPHA));
  }

  @Override
  public double mean() {
    throw new UnsupportedOperationException("a distribution that moves with the writes has no fixed mean");
  }
}
