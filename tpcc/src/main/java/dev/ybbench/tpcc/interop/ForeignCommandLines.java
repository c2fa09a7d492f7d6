package dev.ybbench.tpcc.interop;

import dev.ybbench.harness.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The command lines people already type for TPC-C, BenchBase's and yugabyte/tpcc's, rewritten
 * into ours before parsing, so a script written for either runs here with the same meaning.
 * A flag that has no counterpart here is a one-line error naming what to use instead.
 *
 * <ul>
 *   <li>BenchBase ({@code java -jar benchbase.jar -b tpcc -c FILE --create=true --load=true
 *       --execute=true -d DIR}): phases as {@code =true|false}, {@code -d} where results go
 *       ({@code -c} is ours too).
 *   <li>yugabyte/tpcc ({@code ./tpccbenchmark --execute=true --nodes=IPS --warehouses=100
 *       --warmup-time-secs=60}): always the spec's run (10 terminals per warehouse, keying and
 *       think times, a shared pool of {@code --num-connections}), so it becomes {@code --spec};
 *       its warm-up is 0 unless given.
 * </ul>
 */
public final class ForeignCommandLines {
  private ForeignCommandLines() {}

  /**
   * Ours, and where it came from.
   *
   * @param dialect "BenchBase", "yugabyte/tpcc", or null when the line was ours already
   */
  public record Translation(List<String> args, String dialect, List<String> notes) {}

  /** Phase flags that BenchBase and yugabyte/tpcc give as {@code --create=true}. */
  private static final Set<String> PHASES = Set.of("--create", "--load", "--execute", "--clear");

  /** yugabyte/tpcc's flags that take a value, and ours. */
  private static final Map<String, String> YUGABYTE_VALUES = Map.of("--nodes", "--hosts",
      "--loaderthreads", "--loader-threads", "--num-connections", "--connections",
      "--warmup-time-secs", "--warmup", "--start-warehouse-id", "--start-warehouse");

  /** Flags whose presence says the line is yugabyte/tpcc's. */
  private static final Set<String> YUGABYTE_ONLY = Set.of("--nodes", "--loaderthreads", "--num-connections",
      "--warmup-time-secs", "--start-warehouse-id", "--merge-results", "--merge-json-results", "--dir",
      "--initial-delay-secs", "--enable-foreign-keys", "--create-sql-procedures", "--vv", "--histograms",
      "--output-raw", "--output-samples", "-gpc", "--geopartitioned-config");

  public static Translation translate(String[] given) {
    List<String[]> args = split(given);
    boolean benchbase = args.stream().anyMatch(a -> a[0].equals("-b") || a[0].equals("--bench"));
    boolean yugabyte = args.stream().anyMatch(a -> YUGABYTE_ONLY.contains(a[0]));
    boolean phaseValues = false;
    for (int i = 0; i < args.size(); i++) {
      phaseValues |= PHASES.contains(args.get(i)[0]) && (args.get(i)[1] != null || isBoolean(args, i + 1));
    }
    if (!benchbase && !yugabyte && !phaseValues) {
      return new Translation(List.of(given), null, List.of());
    }
    List<String> out = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    String mergeDir = null;
    boolean merge = false;
    boolean warmupGiven = false;
    for (int i = 0; i < args.size(); i++) {
      String flag = args.get(i)[0];
      String inline = args.get(i)[1];
      // A flag's value: after '=', or the next argument.
      Supplier<String> value = valueOf(args, i, flag, inline);
      if (PHASES.contains(flag) && (inline != null || isBoolean(args, i + 1))) {
        String v = inline != null ? inline : args.get(++i)[0];
        if (v.equalsIgnoreCase("true")) {
          out.add(flag);
        } else if (!v.equalsIgnoreCase("false")) {
          throw new UserError(flag + "=" + v + ": give true or false");
        }
        continue;
      }
      switch (flag) {
        case "-b", "--bench" -> {
          String b = value.get();
          i += inline == null ? 1 : 0;
          if (!b.equalsIgnoreCase("tpcc")) {
            throw new UserError("-b " + b + ": run_tpcc.sh runs TPC-C only (-b tpcc); YCSB is ./run_ycsb.sh");
          }
        }
        case "-d", "--directory" -> {
          out.add("--results-dir");
          out.add(value.get());
          i += inline == null ? 1 : 0;
        }
        case "-s", "--sample", "-im", "--interval-monitor", "-mt", "--monitor-type" -> {
          value.get();
          i += inline == null ? 1 : 0;
          notes.add(flag + " is not needed: every run samples each second (timeseries.csv) and prints a status "
              + "line every 10 s");
        }
        case "-jh", "--json-histograms" -> throw new UserError(flag + ": every run writes its latency histograms "
            + "to latency/*.hlog and percentiles to summary.json in its run directory; drop " + flag);
        case "--anonymize", "--dialects-export" -> throw new UserError(flag + " is BenchBase's own; run it in "
            + "BenchBase itself");
        case "--merge-results", "--merge-json-results" -> {
          String v = value.get();
          i += inline == null ? 1 : 0;
          merge = v.equalsIgnoreCase("true");
        }
        case "--dir" -> {
          mergeDir = value.get();
          i += inline == null ? 1 : 0;
        }
        case "--initial-delay-secs" -> throw new UserError("--initial-delay-secs: start the client later yourself "
            + "(sleep " + value.get() + "; ./run_tpcc.sh …)");
        case "--enable-foreign-keys" -> throw new UserError("--enable-foreign-keys: the foreign keys are added "
            + "with the load here (./run_tpcc.sh --load --foreign-keys)");
        case "--create-sql-procedures" -> throw new UserError("--create-sql-procedures: the transactions run as "
            + "plain SQL statements here, there are no procedures to create; drop it");
        case "-gpc", "--geopartitioned-config" -> throw new UserError(flag + ": geo-partitioned TPC-C is not "
            + "supported; drop it");
        case "--histograms", "--output-raw", "--output-samples" -> {
          if (!flag.equals("--histograms")) {
            value.get();
            i += inline == null ? 1 : 0;
          }
          notes.add(flag + " is not needed: every run writes its histograms (latency/*.hlog) and samples");
        }
        case "--vv" -> out.add("--verbose");
        default -> {
          if (YUGABYTE_VALUES.containsKey(flag)) {
            out.add(YUGABYTE_VALUES.get(flag));
            out.add(value.get());
            i += inline == null ? 1 : 0;
            warmupGiven |= flag.equals("--warmup-time-secs");
          } else {
            warmupGiven |= flag.equals("--warmup");
            out.add(inline == null ? flag : flag + "=" + inline);
          }
        }
      }
    }
    if (merge) {
      if (mergeDir == null) {
        throw new UserError("--merge-results needs --dir=DIR, the directory holding each client's run directory");
      }
      return new Translation(mergeArgs(Path.of(mergeDir), out), "yugabyte/tpcc", notes);
    }
    if (yugabyte) {
      // yugabyte/tpcc always runs the spec's way, and warms up only when told to.
      if (!out.contains("--spec")) {
        out.add("--spec");
      }
      if (!warmupGiven) {
        out.add("--warmup");
        out.add("0");
      }
    }
    return new Translation(List.copyOf(out), yugabyte ? "yugabyte/tpcc" : "BenchBase", notes);
  }

  /** {@code --merge} of every run directory in {@code dir}, for yugabyte/tpcc's {@code --merge-results --dir}. */
  private static List<String> mergeArgs(Path dir, List<String> rest) {
    List<String> runs;
    try (Stream<Path> s = Files.list(dir)) {
      runs = s.filter(p -> Files.isRegularFile(p.resolve("summary.json"))).map(Path::toString).sorted().toList();
    } catch (IOException e) {
      throw new UserError("--dir " + dir + ": cannot list it (" + e.getMessage() + ")");
    }
    if (runs.size() < 2) {
      throw new UserError("--dir " + dir + " holds " + runs.size() + " run director" + (runs.size() == 1 ? "y" : "ies")
          + "; copy each client's run directory (results/<run>) into it to merge them");
    }
    List<String> out = new ArrayList<>();
    // Of the rest, only where results go means anything to a merge.
    int d = rest.indexOf("--results-dir");
    if (d >= 0) {
      out.addAll(rest.subList(d, d + 2));
    }
    out.add("--merge");
    out.addAll(runs);
    return out;
  }

  /** Each argument as {flag, value after '=' or null}; a non-flag as {itself, null}. */
  private static List<String[]> split(String[] given) {
    List<String[]> out = new ArrayList<>();
    for (String a : given) {
      int eq = a.indexOf('=');
      out.add(a.startsWith("-") && eq > 0 ? new String[] {a.substring(0, eq), a.substring(eq + 1)}
          : new String[] {a, null});
    }
    return out;
  }

  private static boolean isBoolean(List<String[]> args, int i) {
    if (i >= args.size()) {
      return false;
    }
    String v = args.get(i)[0].toLowerCase(Locale.ROOT);
    return v.equals("true") || v.equals("false");
  }

  private static Supplier<String> valueOf(List<String[]> args, int i, String flag, String inline) {
    return () -> {
      if (inline != null) {
        return inline;
      }
      if (i + 1 >= args.size() || args.get(i + 1)[0].startsWith("-")) {
        throw new UserError(flag + " needs a value");
      }
      return args.get(i + 1)[0];
    };
  }
}
