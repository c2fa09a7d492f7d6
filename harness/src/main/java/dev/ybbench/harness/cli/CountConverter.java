package dev.ybbench.harness.cli;

import java.math.BigDecimal;
import java.util.Locale;
import picocli.CommandLine;

/**
 * A count as people write one: {@code 1000000}, {@code 1_000_000}, {@code 100k}, {@code 10M},
 * {@code 1G} (powers of 1000, as record counts are spoken) or {@code 1e6}; a fraction that is not
 * whole is refused. For --records, --operations and the like.
 */
public final class CountConverter implements CommandLine.ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    return parse(value);
  }

  /** The count {@code value} names; a picocli type error (one line) when it names none. */
  public static long parse(String value) {
    String v = value.strip().replace("_", "").toLowerCase(Locale.ROOT);
    long unit = 1;
    if (!v.isEmpty() && "kmg".indexOf(v.charAt(v.length() - 1)) >= 0) {
      unit = switch (v.charAt(v.length() - 1)) {
        case 'k' -> 1_000L;
        case 'm' -> 1_000_000L;
        default -> 1_000_000_000L;
      };
      v = v.substring(0, v.length() - 1);
    }
    try {
      BigDecimal n = new BigDecimal(v).multiply(BigDecimal.valueOf(unit));
      return n.longValueExact(); // a fraction left over, or beyond a long, throws
    } catch (NumberFormatException | ArithmeticException e) {
      throw new CommandLine.TypeConversionException("'" + value + "' is not a whole count; give e.g. 100000, "
          + "100k, 10M or 1e6");
    }
  }
}
