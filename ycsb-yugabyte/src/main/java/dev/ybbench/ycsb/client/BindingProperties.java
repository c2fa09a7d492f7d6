package dev.ybbench.ycsb.client;

import dev.ybbench.harness.UserError;
import java.util.Properties;
import dev.ybbench.ycsb.workload.CoreWorkload64;
import dev.ybbench.ycsb.workload.KeyValueApp;
import site.ycsb.workloads.CoreWorkload;

/** Reading the bindings' YCSB properties, with one clear error for a value that is not a number. */
public final class BindingProperties {
  private BindingProperties() {}

  /**
   * Whether the workload looks at the values a read or scan returns: YCSB's CoreWorkload only
   * when it verifies them ({@code dataintegrity=true}); another workload class, or none named, is
   * assumed to.
   * When it does not, the bindings still fetch every row and column the server sends, but build
   * no strings and maps that no one reads — as upstream YCSB's JDBC binding skips them for
   * {@code readallfields}: a benchmark client should spend its CPU on the database's work.
   */
  public static boolean valuesRead(Properties p) {
    String workload = p.getProperty("workload");
    if (workload == null) {
      return true; // a binding used without a workload file: its caller may look at anything
    }
    return !CoreWorkload64.isCore(workload) || dataIntegrity(p);
  }

  /**
   * Whether the workload checks what it reads and reports each check as operation VERIFY: CoreWorkload
   * under {@code dataintegrity}, and the sample apps' workload always (as the apps check every read).
   */
  public static boolean verifies(Properties p) {
    return dataIntegrity(p) || KeyValueApp.class.getName().equals(p.getProperty("workload", "").strip());
  }

  /** CoreWorkload's {@code dataintegrity}: whether it writes values it can check and checks each read. */
  public static boolean dataIntegrity(Properties p) {
    return Boolean.parseBoolean(p.getProperty(CoreWorkload.DATA_INTEGRITY_PROPERTY, "false").strip());
  }

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
