package dev.ybbench.ycsb.cli;

import dev.ybbench.harness.UserError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * YCSB's own command line, rewritten into ybbench's before parsing, so that a line copied from
 * YCSB or yugabyte/YCSB runs with the meaning it has there:
 *
 * <ul>
 *   <li>bin/ycsb's {@code load|run BINDING}: the phase, and the binding ({@code yugabyteSQL},
 *       {@code yugabyteSQL2Keys}, {@code jdbc}: YSQL; {@code yugabyteCQL}, {@code cassandra-cql}:
 *       YCQL; {@code yugabyteSQL2Keys} is the hash-range layout);
 *   <li>site.ycsb.Client's flags {@code -threads N}, {@code -target N}, {@code -s}, {@code -load},
 *       {@code -t}, {@code -db CLASS}, {@code -l LABEL}: each the property YCSB sets for it
 *       ({@code threadcount}, {@code target}, {@code status}, {@code dotransactions}, {@code db},
 *       {@code label}), at the rank of {@code -p} as in YCSB, so a ybbench flag that disagrees
 *       is refused naming both; {@code -P} and {@code -p} are ybbench's too.
 * </ul>
 */
public final class YcsbCommandLine {
  private YcsbCommandLine() {}

  /** YCSB's flags that take a value, and the property each sets. */
  private static final Map<String, String> VALUED = Map.of("-threads", "threadcount", "-target", "target",
      "-db", "db", "-l", "label");
  /** YCSB's flags without a value, and the property setting each makes. */
  private static final Map<String, String> BARE = Map.of("-s", "status=true", "-load", "dotransactions=false",
      "-t", "dotransactions=true");

  /**
   * Whether {@code args} is YCSB's own command line (bin/ycsb's {@code load|run}, or one of
   * site.ycsb.Client's flags): such a run reports in YCSB's own words, so that scripts reading
   * YCSB's output ({@code [OVERALL], Throughput(ops/sec)}) read it unchanged.
   */
  public static boolean isYcsbs(String[] args) {
    if (args.length > 0 && List.of("load", "run").contains(args[0])) {
      return true;
    }
    for (String a : args) {
      if (VALUED.containsKey(a) || BARE.containsKey(a)) {
        return true;
      }
    }
    return false;
  }

  /** {@code args} in ybbench's words (the same array when it has nothing of YCSB's). */
  public static String[] translate(String[] args) {
    List<String> out = new ArrayList<>();
    int i = 0;
    if (args.length > 0 && List.of("load", "run", "shell").contains(args[0])) {
      if (args[0].equals("shell")) {
        throw new UserError("bin/ycsb shell is YCSB's interactive shell; ybbench runs workloads: give load or run");
      }
      out.add("-p");
      out.add("dotransactions=" + args[0].equals("run"));
      i = 1;
      if (args.length > 1 && !args[1].startsWith("-")) {
        String db = YcsbBindingProperties.BINDINGS.get(args[1]);
        if (db == null) {
          throw new UserError("'" + args[1] + "' is not a binding ybbench has; use one of "
              + String.join(", ", new TreeSet<>(YcsbBindingProperties.BINDINGS.keySet())));
        }
        out.add("-p");
        out.add("db=" + db);
        if (args[1].equals("yugabyteSQL2Keys")) {
          // yugabyteSQL2Keys keys rows by (key / db.keysplitsize, key % db.keysplitsize): ybbench's hash-range layout.
          out.add("-p");
          out.add("yb.layout=hash-range");
        }
        i = 2;
      }
    }
    for (; i < args.length; i++) {
      String a = args[i];
      if (VALUED.containsKey(a)) {
        if (i + 1 >= args.length) {
          throw new UserError("YCSB's " + a + " needs a value");
        }
        out.add("-p");
        out.add(VALUED.get(a) + "=" + args[++i]);
      } else if (BARE.containsKey(a)) {
        out.add("-p");
        out.add(BARE.get(a));
      } else if (a.equals("-cp") || a.equals("-jvm-args")) {
        throw new UserError("bin/ycsb's " + a + " sets up YCSB's own JVM; ybbench's takes options from "
            + "YBBENCH_JAVA_OPTS and needs no classpath");
      } else {
        out.add(a);
      }
    }
    return out.toArray(new String[0]);
  }
}
