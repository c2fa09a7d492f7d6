package dev.ybbench.ycsb.cli;

import dev.ybbench.harness.ServerTarget.Api;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The property names a run_ycsb.sh user may give, by whose they are, and the warning for one that
 * nothing in the run reads: a misspelt name, or one of the other API's, would otherwise be
 * silently ignored.
 */
public final class PropertyNames {
  /** YCSB's client (site.ycsb.Client, its measurements and DB wrapper). */
  static final Set<String> YCSB_CLIENT = Set.of("workload", "db", "threadcount", "target", "maxexecutiontime",
      "operationcount", "recordcount", "insertcount", "insertstart", "dotransactions", "status", "status.interval",
      "label", "exportfile", "exporter", "measurementtype", "measurement.interval", "measurement.trackjvm",
      "hdrhistogram.percentiles", "hdrhistogram.fileoutput", "hdrhistogram.output.path", "histogram.buckets",
      "timeseries.granularity", "measurement.raw.output_file", "measurement.raw.no_summary",
      "reportlatencyforeacherror", "latencytrackederrors", "spin.sleep");

  /** YCSB's CoreWorkload. */
  static final Set<String> CORE_WORKLOAD = Set.of("table", "fieldcount", "fieldnameprefix", "fieldlengthdistribution",
      "fieldlength", "minfieldlength", "fieldlengthhistogram", "readallfields", "writeallfields", "dataintegrity",
      "readproportion", "updateproportion", "insertproportion", "scanproportion", "readmodifywriteproportion",
      "requestdistribution", "zeropadding", "minscanlength", "maxscanlength", "scanlengthdistribution", "insertorder",
      "hotspotdatafraction", "hotspotopnfraction", "core_workload_insertion_retry_limit",
      "core_workload_insertion_retry_interval", "exponential.percentile", "exponential.frac");

  /** ybbench's: the workload files' scenario keys, the bindings' and the key layout's. */
  static final Set<String> YBBENCH = Set.of(YcsbSettings.FILE_API, YcsbSettings.FILE_PHASE, YcsbSettings.FILE_TARGET,
      YcsbSettings.FILE_BATCH_SIZE, YcsbSettings.WARMUP, "yb.layout", "yb.split", "yb.tablets", "yb.split_at",
      "ysql.hosts", "ysql.database", "ysql.user", "ysql.password", "ysql.driver", "ysql.load_balance",
      "ysql.url_options",
      "ysql.dialect", "ysql.max_retries", "ysql.load_method", "ysql.fetch_size", "ycql.hosts", "ycql.keyspace",
      "ycql.user", "ycql.password", "ycql.consistency", "ycql.read_consistency", "ycql.write_consistency", "ycql.rf",
      "ycql.local_dc", "ycql.partition_metadata", "ycql.tls", "ycql.truststore", "ycql.truststore_password",
      "ycql.dialect", "ycql.transactions", "ycql.max_retries", "ycql.connections_per_node", "ycql.request_timeout_ms",
      "ycql.connect_timeout_ms");

  private PropertyNames() {}

  /**
   * The warning for a property given ({@code where}: "-p" or a file's name) that nothing in this
   * run reads; {@code read} are the names the run's parts asked for, for "did you mean".
   */
  public static String unread(String name, String where, Api api, Set<String> read) {
    String given = where.equals("-p") ? "-p " + name : name + " (" + where + ")";
    String whose = whose(name, api);
    if (whose != null) {
      return given + ": nothing in this run reads it (" + whose + ")";
    }
    Set<String> known = new TreeSet<>(read);
    known.addAll(YCSB_CLIENT);
    known.addAll(CORE_WORKLOAD);
    known.addAll(YBBENCH);
    known.addAll(YcsbBindingProperties.SQL);
    known.addAll(YcsbBindingProperties.CQL);
    String near = known.stream().min(Comparator.comparingInt(k -> distance(k, name))).orElse(null);
    return given + " is not a property of YCSB, yugabyte/YCSB's bindings or ybbench, and nothing in this run reads it"
        + (near != null && distance(near, name) <= Math.max(1, name.length() / 4) ? "; did you mean " + near + "?"
        : "");
  }

  /** Whose a known property is, when the run does not read it: the other API's, or a distribution's not chosen. */
  private static String whose(String name, Api api) {
    if (name.startsWith("ysql.") && api == Api.YCQL) {
      return "it is the YSQL binding's, and this run is YCQL";
    }
    if (name.startsWith("ycql.") && api == Api.YSQL) {
      return "it is the YCQL binding's, and this run is YSQL";
    }
    if (CORE_WORKLOAD.contains(name)) {
      return List.of("exponential.percentile", "exponential.frac").contains(name)
          ? "it applies to requestdistribution=exponential" : List.of("hotspotdatafraction", "hotspotopnfraction")
          .contains(name) ? "it applies to requestdistribution=hotspot" : name.equals("fieldlengthhistogram")
          ? "it applies to fieldlengthdistribution=histogram" : "it is CoreWorkload's, and this run's workload is "
          + "another class";
    }
    if (YBBENCH.contains(name) || YCSB_CLIENT.contains(name)) {
      return "it is ybbench's or YCSB's, but has no effect with these settings";
    }
    return null;
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
