package dev.ybbench.ycsb.workload;

/**
 * The generalized harmonic number ζ(n, θ) = Σ_{i=1}^{n} i^−θ that a zipfian distribution over n
 * items needs (Gray et al., "Quickly Generating Billion-Record Synthetic Databases", SIGMOD 1994).
 * YCSB sums it term by term, which at 30 billion items (the published large data set) takes
 * minutes; here the first {@value #EXACT} terms are summed and the rest is the Euler–Maclaurin
 * formula, whose error beyond a million is far below a double's precision.
 */
final class Zeta {
  /** Terms summed one by one; the tail after them is computed in closed form. */
  static final long EXACT = 1_000_000;

  private Zeta() {}

  /** ζ(n, θ) for n ≥ 0 and θ > 0. */
  static double of(long n, double theta) {
    return between(0, n, theta);
  }

  /** Σ_{i=from+1}^{to} i^−θ: what ζ gains when the items grow from {@code from} to {@code to}. */
  static double between(long from, long to, double theta) {
    if (to <= from) {
      return 0;
    }
    double sum = 0;
    long exactTo = Math.min(to, Math.max(from, EXACT));
    for (long i = from + 1; i <= exactTo; i++) {
      sum += Math.pow(i, -theta);
    }
    if (to > exactTo) {
      sum += tail(exactTo + 1, to, theta);
    }
    return sum;
  }

  /**
   * Σ_{i=a}^{b} i^−θ by Euler–Maclaurin: ∫_a^b f + (f(a) + f(b))/2 + Σ_k B_2k/(2k)! (f^(2k−1)(b) − f^(2k−1)(a)),
   * with f(x) = x^−θ and the terms up to B_4; for a above a million the next term is below 10^−30.
   */
  private static double tail(long a, long b, double theta) {
    double x = a;
    double y = b;
    double integral = Math.abs(theta - 1) < 1e-12 ? Math.log(y / x)
        : (Math.pow(y, 1 - theta) - Math.pow(x, 1 - theta)) / (1 - theta);
    double ends = (Math.pow(x, -theta) + Math.pow(y, -theta)) / 2;
    // f'(x) = −θ x^(−θ−1), B_2/2! = 1/12; f'''(x) = −θ(θ+1)(θ+2) x^(−θ−3), B_4/4! = −1/720.
    double first = -theta * (Math.pow(y, -theta - 1) - Math.pow(x, -theta - 1)) / 12;
    double third = theta * (theta + 1) * (theta + 2) * (Math.pow(y, -theta - 3) - Math.pow(x, -theta - 3)) / 720;
    return integral + ends + first + third;
  }
}
