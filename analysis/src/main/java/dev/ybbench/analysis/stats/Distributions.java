package dev.ybbench.analysis.stats;

/**
 * The normal and Student's t distributions the comparison's intervals and p-values need: CDFs
 * and quantiles, accurate to about 1e-9, from the regularized incomplete beta function
 * (continued fraction) and Acklam's rational approximation of the normal quantile.
 */
public final class Distributions {
  private Distributions() {}

  /** P(Z ≤ z) for a standard normal Z. */
  static double normalCdf(double z) {
    return 0.5 * erfc(-z / Math.sqrt(2));
  }

  /** z with P(Z ≤ z) = p (Acklam's algorithm, refined by one Halley step). */
  static double normalQuantile(double p) {
    if (!(p > 0 && p < 1)) {
      throw new IllegalArgumentException("p must lie in (0, 1), was " + p);
    }
    double[] a = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
        -3.066479806614716e+01, 2.506628277459239e+00};
    double[] b = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
        -1.328068155288572e+01};
    double[] c = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
        4.374664141464968e+00, 2.938163982698783e+00};
    double[] d = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00};
    double x;
    if (p < 0.02425) {
      double q = Math.sqrt(-2 * Math.log(p));
      x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
          / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p <= 1 - 0.02425) {
      double q = p - 0.5;
      double r = q * q;
      x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
          / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    } else {
      double q = Math.sqrt(-2 * Math.log(1 - p));
      x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
          / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    double e = normalCdf(x) - p;
    double u = e * Math.sqrt(2 * Math.PI) * Math.exp(x * x / 2);
    return x - u / (1 + x * u / 2);
  }

  /** P(T ≤ t) for Student's t with {@code df} degrees of freedom (df may be fractional; infinite = normal). */
  static double tCdf(double t, double df) {
    if (Double.isInfinite(df)) {
      return normalCdf(t);
    }
    double x = df / (df + t * t);
    double tail = 0.5 * regularizedBeta(x, df / 2, 0.5);
    return t > 0 ? 1 - tail : tail;
  }

  /** t with P(T ≤ t) = p, by bisection on the CDF (monotone; 100 halvings reach double precision). */
  static double tQuantile(double p, double df) {
    if (!(p > 0 && p < 1)) {
      throw new IllegalArgumentException("p must lie in (0, 1), was " + p);
    }
    if (Double.isInfinite(df)) {
      return normalQuantile(p);
    }
    double lo = -1;
    double hi = 1;
    while (tCdf(lo, df) > p) {
      lo *= 2;
    }
    while (tCdf(hi, df) < p) {
      hi *= 2;
    }
    for (int i = 0; i < 100 && hi - lo > 1e-12 * Math.max(1, Math.abs(hi)); i++) {
      double mid = (lo + hi) / 2;
      if (tCdf(mid, df) < p) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return (lo + hi) / 2;
  }

  /** erfc(x) = 1 − erf(x), via the regularized incomplete gamma function Q(1/2, x²). */
  private static double erfc(double x) {
    if (x < 0) {
      return 2 - erfc(-x);
    }
    return upperGammaQ(0.5, x * x);
  }

  /** Q(a, x), the regularized upper incomplete gamma function (series below a + 1, continued fraction above). */
  private static double upperGammaQ(double a, double x) {
    if (x <= 0) {
      return 1;
    }
    double logPrefix = -x + a * Math.log(x) - logGamma(a);
    if (x < a + 1) {
      double sum = 1 / a;
      double term = sum;
      for (int n = 1; n < 1000 && Math.abs(term) > Math.abs(sum) * 1e-16; n++) {
        term *= x / (a + n);
        sum += term;
      }
      return 1 - sum * Math.exp(logPrefix);
    }
    // Lentz's method for the continued fraction.
    double b = x + 1 - a;
    double c = 1 / 1e-300;
    double d = 1 / b;
    double h = d;
    for (int i = 1; i < 1000; i++) {
      double an = -i * (i - a);
      b += 2;
      d = an * d + b;
      d = Math.abs(d) < 1e-300 ? 1e-300 : d;
      c = b + an / c;
      c = Math.abs(c) < 1e-300 ? 1e-300 : c;
      d = 1 / d;
      double delta = d * c;
      h *= delta;
      if (Math.abs(delta - 1) < 1e-16) {
        break;
      }
    }
    return Math.exp(logPrefix) * h;
  }

  /** I_x(a, b), the regularized incomplete beta function. */
  static double regularizedBeta(double x, double a, double b) {
    if (x <= 0) {
      return 0;
    }
    if (x >= 1) {
      return 1;
    }
    double logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
    // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise.
    if (x < (a + 1) / (a + b + 2)) {
      return Math.exp(logFront) * betaFraction(x, a, b) / a;
    }
    return 1 - Math.exp(logFront) * betaFraction(1 - x, b, a) / b;
  }

  private static double betaFraction(double x, double a, double b) {
    double tiny = 1e-300;
    double c = 1;
    double d = 1 - (a + b) * x / (a + 1);
    d = Math.abs(d) < tiny ? tiny : d;
    d = 1 / d;
    double h = d;
    for (int m = 1; m < 1000; m++) {
      int m2 = 2 * m;
      double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
      d = 1 + aa * d;
      d = Math.abs(d) < tiny ? tiny : d;
      c = 1 + aa / c;
      c = Math.abs(c) < tiny ? tiny : c;
      d = 1 / d;
      h *= d * c;
      aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
      d = 1 + aa * d;
      d = Math.abs(d) < tiny ? tiny : d;
      c = 1 + aa / c;
      c = Math.abs(c) < tiny ? tiny : c;
      d = 1 / d;
      double delta = d * c;
      h *= delta;
      if (Math.abs(delta - 1) < 1e-15) {
        break;
      }
    }
    return h;
  }

  /** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9: about 15 significant digits). */
  static double logGamma(double x) {
    double[] g = {0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
        -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
        1.5056327351493116e-7};
    if (x < 0.5) {
      return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
    }
    x -= 1;
    double a = g[0];
    double t = x + 7.5;
    for (int i = 1; i < 9; i++) {
      a += g[i] / (x + i);
    }
    return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
  }
}
