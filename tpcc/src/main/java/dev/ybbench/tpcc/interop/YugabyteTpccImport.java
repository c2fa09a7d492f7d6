package dev.ybbench.tpcc.interop;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ybbench.harness.ServerInfo;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.RunDirectory;
import dev.ybbench.tpcc.config.TransactionSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A yugabyte/tpcc results directory ({@code results/} where it ran), for {@link TpccImport}. What
 * yugabyte/tpcc writes after {@code --execute=true}:
 * {@code oltpbench.csv} ({@code oltpbench.2.csv} … when earlier runs' files are there): lines
 * {@code Start,<ns>} and {@code End,<ns>} (System.nanoTime at the start of execute, and that plus
 * warm-up and run time), then one row per measured transaction that succeeded or was rolled back by
 * design: its name, start (ns, same clock), connection-acquire and operation latency (µs); and
 * {@code json/output.json}, overwritten by every run: the test configuration (warehouses,
 * connections, warm-up and run time, retries), tpmC and efficiency, and, with {@code --vv}, per
 * type the failed attempts of the measured window by attempt number.
 *
 * <p>Its CSV holds successes only, so each type's successes are exact; failures are counted only
 * with {@code --vv}: without it the import is recorded as {@code failed}, saying why. Only
 * New-Order is retried (its Worker's rule): its last attempt's failures are its errors and its
 * earlier ones its retries; another type's first-attempt failures are its errors. A row's latency
 * is its connection acquire plus its successful attempt (yugabyte/tpcc does not time the whole
 * retried transaction). The files hold no wall-clock time of the run: it is taken from the CSV's
 * modification time (written as the run ended; copy results with {@code cp -p} or
 * {@code rsync -t}). Nor do they name the server: give the import a {@code --label}.
 */
public final class YugabyteTpccImport {
  private YugabyteTpccImport() {}

  private static final Pattern CSV = Pattern.compile("oltpbench(?:\\.(\\d+))?\\.csv");

  /** Whether {@code dir} (a results directory, or the directory yugabyte/tpcc ran in) holds a run. */
  public static boolean holds(Path dir) throws IOException {
    return outputJson(dir) != null;
  }

  public static TpccImport.Imported read(Path dir) throws IOException {
    Path json = outputJson(dir);
    Path results = json.getParent().getParent();
    Path csv = latestCsv(results);
    JsonNode j = RunDirectory.JSON.readTree(json.toFile());
    JsonNode conf = j.path("TestConfiguration");
    int warehouses = conf.path("numWarehouses").asInt();
    int runtime = conf.path("runTimeInSecs").asInt();
    int warmup = conf.path("warmupTimeInSecs").asInt();
    if (warehouses < 1 || runtime < 1) {
      throw new UserError(json + " has no TestConfiguration with numWarehouses and runTimeInSecs: not a yugabyte/tpcc "
          + "execute run's output");
    }
    Map<String, List<double[]>> rows = readCsv(csv);
    Map<String, TpccImport.Counts> counts = counts(j.path("RetryAttempts"));
    String reason = counts != null ? null : "yugabyte/tpcc counts failed transactions only when run with --vv; run "
        + "it with --vv and import again";
    Instant ended = Files.getLastModifiedTime(csv).toInstant();
    Map<String, String> more = new LinkedHashMap<>();
    more.put("connections", conf.path("numDBConnections").asText());
    more.put("nodes", conf.path("numNodes").asText());
    more.put("total_warehouses", conf.path("totalWarehouses").asText(Integer.toString(warehouses)));
    more.put("time_s", Integer.toString(runtime));
    more.put("warmup_s", Integer.toString(warmup));
    more.put("max_retries", conf.path("numRetries").asText());
    more.put("yugabyte_tpcc.tpmC", j.path("Results").path("tpmc").asText());
    return new TpccImport.Imported("yugabyte/tpcc", dir, ServerInfo.fromSqlVersion(""),
        ended.minusSeconds(warmup + runtime), ended, warehouses, 10 * warehouses, null, null,
        new TreeMap<>(Map.of(0, rows)), counts, runtime, "yugabyte-tpcc-failed", reason, more);
  }

  /** json/output.json under {@code dir}, its {@code results/}, or null. */
  private static Path outputJson(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new UserError("--import " + dir + ": no such directory");
    }
    for (Path p : List.of(dir.resolve("json/output.json"), dir.resolve("results/json/output.json"))) {
      if (Files.isRegularFile(p)) {
        return p;
      }
    }
    return null;
  }

  /** The newest oltpbench*.csv: the run output.json (overwritten each time) belongs to. */
  private static Path latestCsv(Path results) throws IOException {
    List<Path> found;
    try (Stream<Path> s = Files.list(results)) {
      found = s.filter(p -> CSV.matcher(p.getFileName().toString()).matches())
          .sorted(Comparator.comparingInt(YugabyteTpccImport::number)).toList();
    }
    if (found.isEmpty()) {
      throw new UserError(results + " has json/output.json but no oltpbench.csv: yugabyte/tpcc writes it with "
          + "--execute=true");
    }
    return found.get(found.size() - 1);
  }

  private static int number(Path csv) {
    Matcher m = CSV.matcher(csv.getFileName().toString());
    return m.matches() && m.group(1) != null ? Integer.parseInt(m.group(1)) : 1;
  }

  /**
   * The CSV as type → rows of {start (epoch s), latency (µs)}, epoch seconds from the file's
   * modification time taken as its End line.
   */
  private static Map<String, List<double[]>> readCsv(Path csv) throws IOException {
    double endEpoch = Files.getLastModifiedTime(csv).toMillis() / 1000.0;
    Map<String, List<double[]>> out = new TreeMap<>();
    try (BufferedReader in = Files.newBufferedReader(csv)) {
      String start = in.readLine();
      String end = in.readLine();
      String header = in.readLine();
      if (start == null || end == null || header == null || !start.startsWith("Start,") || !end.startsWith("End,")
          || !header.startsWith("Transaction Name,")) {
        throw new UserError(csv + " does not start with yugabyte/tpcc's Start, End and header lines");
      }
      long endNs = Long.parseLong(end.substring(4).strip());
      TpccImport.rows(in, csv, 3, f -> {
        String type = f[0].strip();
        TransactionSpec.named(type);
        double at = endEpoch - (endNs - Long.parseLong(f[1].strip())) / 1e9;
        out.computeIfAbsent(type, k -> new ArrayList<>()).add(new double[] {at,
            Long.parseLong(f[2].strip()) + Long.parseLong(f[3].strip())});
      });
    }
    if (out.isEmpty()) {
      throw new UserError(csv + " holds no transactions");
    }
    return out;
  }

  /**
   * RetryAttempts (written with --vv): per type its failed attempts by attempt number, in a list
   * of one list; null when absent.
   */
  private static Map<String, TpccImport.Counts> counts(JsonNode retryAttempts) {
    if (!retryAttempts.isObject() || retryAttempts.isEmpty()) {
      return null;
    }
    Map<String, TpccImport.Counts> out = new TreeMap<>();
    retryAttempts.fields().forEachRemaining(e -> {
      JsonNode f = e.getValue().path("retriesFailureCount");
      if (f.size() == 1 && f.get(0).isArray()) {
        f = f.get(0);
      }
      long[] failed = new long[f.size()];
      for (int i = 0; i < failed.length; i++) {
        failed[i] = f.get(i).asLong();
      }
      long errors;
      long retries = 0;
      if (e.getKey().equals(TransactionSpec.NEW_ORDER.benchbaseName()) && failed.length > 0) {
        errors = failed[failed.length - 1];
        for (int i = 0; i < failed.length - 1; i++) {
          retries += failed[i];
        }
      } else {
        errors = failed.length == 0 ? 0 : failed[0];
      }
      out.put(e.getKey(), new TpccImport.Counts(errors, retries, false));
    });
    return out;
  }
}
