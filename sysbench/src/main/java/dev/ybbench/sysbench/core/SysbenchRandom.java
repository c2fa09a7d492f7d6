package dev.ybbench.sysbench.core;

import dev.ybbench.harness.UserError;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * sysbench's random numbers and strings, for the rows ybbench loads as sysbench's prepare would:
 * the four distributions of {@code --rand-type} with their {@code --rand-spec-*} and {@code
 * --rand-pareto-h} parameters (src/sb_rand.c of 1.0.20, formula for formula, truncations
 * included), and {@code sysbench.rand.string}'s templates ('#' a digit). The load draws k from it
 * as oltp_common.lua's prepare does, so that k's spread (which select_random_* read through the
 * index on k) is sysbench's.
 */
public final class SysbenchRandom {
  /** oltp_common.lua's c: 10 groups of 11 digits, 119 characters. */
  public static final String C_TEMPLATE = "###########-###########-###########-###########-###########-"
      + "###########-###########-###########-###########-###########";
  /** oltp_common.lua's pad: 5 groups of 11 digits, 59 characters. */
  public static final String PAD_TEMPLATE = "###########-###########-###########-###########-###########";

  /** {@code --rand-type} and its parameters, with sysbench's defaults. */
  public record Distribution(String type, int specIter, int specPct, int specRes, double paretoH) {
    public static final Distribution DEFAULT = new Distribution("special", 12, 1, 75, 0.2);

    public Distribution {
      if (!java.util.List.of("uniform", "gaussian", "special", "pareto").contains(type)) {
        throw new UserError("--rand-type=" + type + " is not one of uniform, gaussian, special, pareto");
      }
      if (specIter < 1 || specPct < 0 || specPct > 100 || specRes < 0 || specRes >= 100 || !(paretoH > 0)
          || !(paretoH < 1)) {
        throw new UserError("--rand-spec-iter must be at least 1, --rand-spec-pct 0…100, --rand-spec-res 0…99 "
            + "and --rand-pareto-h between 0 and 1");
      }
    }

    /** From sysbench's options as given (names with '-' or '_'), the rest sysbench's defaults. */
    public static Distribution of(Map<String, String> options) {
      try {
        return new Distribution(options.getOrDefault("rand-type", DEFAULT.type).toLowerCase(Locale.ROOT),
            Integer.parseInt(options.getOrDefault("rand-spec-iter", "12")),
            Integer.parseInt(options.getOrDefault("rand-spec-pct", "1")),
            Integer.parseInt(options.getOrDefault("rand-spec-res", "75")),
            Double.parseDouble(options.getOrDefault("rand-pareto-h", "0.2")));
      } catch (NumberFormatException e) {
        throw new UserError("--rand-spec-iter, --rand-spec-pct and --rand-spec-res take whole numbers and "
            + "--rand-pareto-h a number: " + e.getMessage());
      }
    }
  }

  private final Distribution d;
  private final DoubleSupplier uniform;

  /** @param uniform doubles in [0, 1), as sb_rand_uniform_double */
  public SysbenchRandom(Distribution d, DoubleSupplier uniform) {
    this.d = d;
    this.uniform = uniform;
  }

  /** sb_rand_default(a, b): a number in [a, b] by the distribution. */
  public long next(long a, long b) {
    return switch (d.type) {
      case "uniform" -> a + uint32(uniform.getAsDouble() * (b - a + 1));
      case "gaussian" -> gaussian(a, b);
      case "pareto" -> a + uint32((b - a + 1) * Math.pow(uniform.getAsDouble(), Math.log(d.paretoH)
          / Math.log(1.0 - d.paretoH)));
      default -> special(a, b);
    };
  }

  private long gaussian(long a, long b) {
    double t = b - a + 1;
    double sum = 0;
    for (int i = 0; i < d.specIter; i++) {
      sum += uniform.getAsDouble() * t;
    }
    return a + uint32(sum * (1.0 / d.specIter));
  }

  /**
   * sb_rand_special: res percent of the values uniform over the middle pct percent of [a, b], the
   * rest gaussian over all of it.
   */
  private long special(long a, long b) {
    double t = b - a;
    double rangeSize = t * (100.0 / (100.0 - d.specRes));
    double rnd = uniform.getAsDouble();
    double res = rnd * rangeSize;
    if (res < t) {
      double sum = 0;
      for (int i = 0; i < d.specIter; i++) {
        sum += uniform.getAsDouble();
      }
      return uint32(a + sum * t * (1.0 / d.specIter));
    }
    double width = t * (d.specPct / 100.0);
    res = rnd * (width + 1);
    res += t / 2 - t * (d.specPct / 200.0);
    return a + uint32(res);
  }

  /** C's conversion of a non-negative double to uint32_t: truncation. */
  private static long uint32(double v) {
    return (long) v & 0xFFFFFFFFL;
  }

  /** sysbench.rand.string: each '#' a random digit, other characters as they are. */
  public String string(String template) {
    char[] out = template.toCharArray();
    for (int i = 0; i < out.length; i++) {
      if (out[i] == '#') {
        out[i] = (char) ('0' + (int) (uniform.getAsDouble() * 10));
      }
    }
    return new String(out);
  }
}
