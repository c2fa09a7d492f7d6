package dev.ybbench.sysbench.interop;

import dev.ybbench.harness.UserError;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * sysbench's own command line ({@code sysbench oltp_read_only --db-driver=pgsql --pgsql-host=…
 * --tables=10 --table-size=100000 --threads=16 --time=60 run}), and yugabyte/sysbench's as its
 * docs publish it, rewritten into run_sysbench.sh's before parsing, with sysbench's meaning. Its
 * options are {@code --name=value}, with '-' or '_' alike in the name: those run_sysbench.sh has
 * become its flags; a test's own (oltp_common.lua's {@code --point_selects}) and sysbench's
 * general ones that change no result of ours ({@code --rand-type}) become {@code --option
 * name=value}, checked against the test once it is known; what ybbench cannot honour is refused
 * by name.
 */
public final class SysbenchCommandLine {
  private SysbenchCommandLine() {}

  /**
   * Ours, and what the line was.
   *
   * @param dialect "sysbench" or "yugabyte/sysbench" when the line was theirs, null when ours
   */
  public record Translation(List<String> args, String dialect, List<String> notes) {}

  /** run_sysbench.sh's flags that sysbench has by the same name. */
  private static final Set<String> SAME = Set.of("tables", "table-size", "threads", "events", "percentile",
      "report-interval");
  /** sysbench's names for run_sysbench.sh's flags. */
  private static final Map<String, String> RENAMED = Map.of("time", "--duration", "max-time", "--duration",
      "num-threads", "--threads", "max-requests", "--events", "pgsql-user", "--user", "pgsql-password",
      "--password", "pgsql-db", "--database", "warmup-time", "--warmup", "serial-cache-size", "--serial-cache",
      "num-table-splits", "--tablets");
  /** sysbench's general options passed on as they are: they change how it draws numbers or prepares statements. */
  public static final Set<String> GENERAL = Set.of("rand-type", "rand-spec-iter", "rand-spec-pct", "rand-spec-res",
      "rand-seed", "rand-pareto-h", "db-ps-mode", "forced-shutdown", "thread-stack-size");
  /** sysbench's options ybbench cannot honour, and why. */
  private static final Map<String, String> REFUSED = Map.ofEntries(
      Map.entry("rate", "sysbench times an event from when a thread takes it, not from when it was due, so under a "
          + "rate its latency hides the queue; run without it, or use run_ycsb.sh's --target"),
      Map.entry("tx-rate", "is --rate's old name; sysbench times an event from when a thread takes it, not from when "
          + "it was due: run without it"),
      Map.entry("report-checkpoints", "prints whole reports in the middle of the run, which ybbench reads as one"),
      Map.entry("debug", "mixes debug lines into the report ybbench reads"),
      Map.entry("db-debug", "mixes debug lines into the report ybbench reads"),
      Map.entry("verbosity", "can hide the report ybbench reads"),
      Map.entry("config-file", "reads options ybbench would not see: give them on the command line"));
  /**
   * yugabyte/sysbench's options of its own tests, which its docs give with every test: they change
   * nothing in the others, there or here (its own tests are refused by name).
   */
  private static final Set<String> FORK_TESTS_ONLY = Set.of("num-rows-in-insert", "batch-insert-count",
      "smaller-row-sizes");
  /** yugabyte/sysbench's own names, whose presence says the line is its. */
  private static final Set<String> FORK = Set.of("range-key-partitioning", "serial-cache-size", "num-table-splits",
      "manual-range-splitting", "warmup-time", "thread-init-timeout", "num-rows-in-insert", "batch-insert-count",
      "smaller-row-sizes");

  /** @param ours run_sysbench.sh's own flags, which keep their meaning also as {@code --flag=value} */
  public static Translation translate(String[] given, Set<String> ours) {
    List<String> in = new ArrayList<>(List.of(given));
    boolean theirs = !in.isEmpty() && in.get(0).equals("sysbench");
    if (theirs) {
      in.remove(0);
    }
    boolean fork = false;
    List<String> out = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Boolean rangeKeys = null;
    Boolean manualSplits = null;
    String host = null;
    String port = null;
    for (String a : in) {
      if (!a.startsWith("--") || !a.contains("=") && !a.startsWith("--histogram")) {
        out.add(a); // ours (a flag and its value apart), a test, a command
        continue;
      }
      int eq = a.indexOf('=');
      if (eq > 0 && ours.contains(a.substring(0, eq)) && !a.startsWith("--histogram=")) {
        out.add(a);
        continue;
      }
      String name = (eq < 0 ? a.substring(2) : a.substring(2, eq)).replace('_', '-').toLowerCase(Locale.ROOT);
      String value = eq < 0 ? null : a.substring(eq + 1);
      if (SAME.contains(name) && value != null) {
        out.addAll(List.of("--" + name, value));
      } else if (name.equals("histogram")) {
        if (value == null || on(value, a)) {
          out.add("--histogram");
        }
        theirs |= value != null;
        continue;
      } else if (RENAMED.containsKey(name)) {
        out.addAll(List.of(RENAMED.get(name), value));
      } else if (name.equals("db-driver")) {
        if (!value.equals("pgsql")) {
          throw new UserError("--db-driver=" + value + ": ybbench runs sysbench over YSQL, --db-driver=pgsql");
        }
      } else if (name.equals("pgsql-host")) {
        host = value;
      } else if (name.equals("pgsql-port")) {
        port = value;
      } else if (name.equals("range-key-partitioning")) {
        rangeKeys = on(value, a);
      } else if (name.equals("manual-range-splitting")) {
        manualSplits = on(value, a);
      } else if (name.equals("thread-init-timeout")) {
        notes.add(a + " is yugabyte/sysbench's wait for its threads to connect; ybbench's sysbench waits as long "
            + "as they take");
      } else if (FORK_TESTS_ONLY.contains(name)) {
        notes.add(a + " is for yugabyte/sysbench's own insert tests; the tests here do not use it, as its others "
            + "do not");
      } else if (REFUSED.containsKey(name)) {
        throw new UserError("--" + name + " " + REFUSED.get(name));
      } else if (name.startsWith("mysql-")) {
        throw new UserError("--" + name + " is MySQL's; ybbench runs sysbench over YSQL (--pgsql-* options)");
      } else if (value != null) {
        out.addAll(List.of("--option", a.substring(2, eq) + "=" + value)); // checked against the test later
      } else {
        out.add(a);
        continue;
      }
      theirs = true;
      fork |= FORK.contains(name);
    }
    if (host != null || port != null) {
      out.addAll(List.of("--hosts", hosts(host == null ? "localhost" : host, port)));
    }
    if (Boolean.TRUE.equals(rangeKeys)) {
      out.addAll(List.of("--layout", "range"));
      if (!out.contains("--tablets") && !Boolean.FALSE.equals(manualSplits)) {
        out.addAll(List.of("--tablets", "24")); // its --num_table_splits default
      }
    }
    if (Boolean.FALSE.equals(manualSplits)) {
      int at = out.indexOf("--tablets");
      if (at >= 0) {
        out.subList(at, at + 2).clear();
      }
    } else if (!Boolean.TRUE.equals(rangeKeys) && out.contains("--tablets") && fork) {
      // yugabyte/sysbench splits only a range key; a hashed one keeps YugabyteDB's default.
      int at = out.indexOf("--tablets");
      notes.add("--num_table_splits applies with --range_key_partitioning=true, as in yugabyte/sysbench; the "
          + "hashed tables keep YugabyteDB's default tablets");
      out.subList(at, at + 2).clear();
    }
    if (!theirs) {
      return new Translation(List.of(given), null, List.of());
    }
    return new Translation(out, fork ? "yugabyte/sysbench" : "sysbench", notes);
  }

  /** sysbench's host list and one port: host:port,… as --hosts takes them. */
  private static String hosts(String hostList, String port) {
    List<String> out = new ArrayList<>();
    for (String h : hostList.split(",")) {
      out.add(port == null ? h.strip() : h.strip() + ":" + port);
    }
    return String.join(",", out);
  }

  /** sysbench's booleans: on, off, true, false, yes, no, 1, 0; {@code given} names the option in the error. */
  public static boolean on(String value, String given) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "on", "true", "yes", "1" -> true;
      case "off", "false", "no", "0" -> false;
      default -> throw new UserError(given + ": give on or off");
    };
  }
}
