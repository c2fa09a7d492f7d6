package dev.ybbench.ycsb;

import dev.ybbench.harness.UserError;
import java.util.Properties;

/** Reading the bindings' YCSB properties, with one clear error for a value that is not a number. */
public final class BindingProperties {
  private BindingProperties() {}

  public static int intProp(Properties p, String name, int dflt) {
    String v = p.getProperty(name);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    try {
      return Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new UserError("Property " + name + "=" + v + " is not a whole number");
    }
  }
}
