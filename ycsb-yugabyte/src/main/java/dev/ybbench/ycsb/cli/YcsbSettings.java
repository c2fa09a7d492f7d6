package dev.ybbench.ycsb.cli;

import dev.ybbench.harness.ServerTarget.Api;
import dev.ybbench.harness.run.ClientThreads;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * What a run_ycsb.sh command means, settled once before anything starts ({@link SettingSources}
 * reads it from the workload files, {@code -p} and the flags; {@link SettingsCheck} refuses what
 * means nothing). A value: nothing here changes after it is made, and {@link #properties()} hands
 * out a copy. A setting the command left out holds its default; one that only some runs have
 * (operations, jobs, a table's pre-split, the pools) is null when not given.
 *
 * @param properties what the workload and bindings read: the files', then -p's, then the settings'
 * @param provenance where each setting came from, for errors and the equivalent command
 */
public record YcsbSettings(
    Api api, Phase phase, String createTable,
    int threads, Integer jobs, double target, long duration, Long operations, long records, long warmup,
    Integer readThreads, Integer writeThreads, long reads, long writes, double readTarget, double writeTarget,
    String label, String layout, Integer tablets, String splitAt, int batchSize,
    String hosts, String database, String user, String password, Integer rf, String consistency,
    String loadMethod, String driver,
    String workloadName, Properties properties, Provenance provenance) {

  /** Defaults of ybbench's own, where YCSB's would not serve (one thread, no time limit). */
  public static final int DEFAULT_THREADS = 8;
  public static final long DEFAULT_DURATION_S = 60;
  public static final long DEFAULT_RECORDS = 1000; // YCSB's own workload files' value
  /**
   * Rows per YSQL load batch (one COPY each), from measurement: 500,000 rows of workloada, 8
   * threads, embedded PostgreSQL, two rounds alternating — 128 rows: 85–89 K rows/s, 512:
   * 96–98 K, 1,000: 94–99 K, 4,096: 87–90 K (more client CPU per row). 512 is as fast as 1,000
   * with half the rows in doubt per batch should the load be cut short.
   */
  public static final int YSQL_BATCH_ROWS = 512;
  /** YCQL writes in flight per thread during a load. */
  public static final int YCQL_IN_FLIGHT = 128;

  /** The workload file's scenario keys (a published experiment is one file); taken out of the YCSB properties. */
  public static final String FILE_API = "ybbench.api";
  public static final String FILE_PHASE = "ybbench.phase";
  public static final String FILE_TARGET = "ybbench.target_ops";
  public static final String FILE_BATCH_SIZE = "ybbench.batch_size";
  public static final String CREATE_TABLE = "ybbench.create_table";
  /** The run phase's reader and writer pools (--read-threads and so on), for workload files. */
  public static final String READ_THREADS = "ybbench.read_threads";
  public static final String WRITE_THREADS = "ybbench.write_threads";
  public static final String READS = "ybbench.reads";
  public static final String WRITES = "ybbench.writes";
  public static final String READ_TARGET = "ybbench.read_target_ops";
  public static final String WRITE_TARGET = "ybbench.write_target_ops";
  /** --jobs: the OS threads the client threads run on as virtual threads. */
  public static final String JOBS = "ybbench.jobs";
  /** The workload property for --warmup, in seconds (named after YCSB's maxexecutiontime). */
  public static final String WARMUP = "warmuptime";

  /** YCSB's file for the final measurements, and their format (one of {@link #EXPORTERS}; text by default). */
  public static final String EXPORT_FILE = "exportfile";
  public static final String EXPORTER = "exporter";
  public static final List<String> EXPORTERS = List.of("site.ycsb.measurements.exporter.TextMeasurementsExporter",
      "site.ycsb.measurements.exporter.JSONMeasurementsExporter",
      "site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter");
  /** YCSB's percentiles of the final report (default: ybbench's 50, 95, 99, 99.9). */
  public static final String PERCENTILES = "hdrhistogram.percentiles";
  /** YCSB's status line interval in seconds; ybbench prints one this often (default 10). */
  public static final String STATUS_INTERVAL = "status.interval";

  /**
   * Where the settings came from.
   *
   * @param origins              for each setting given, where its strongest value was given: {@code -p
   *                             threadcount=4}, {@code threadcount=4 (workloada)}
   * @param flagged              the settings (by property name) a flag of ybbench's gave
   * @param picked               the properties a flag settles; every other given property goes to the
   *                             workload and bindings as settled
   * @param consumed             properties settled here (YCSB's client properties, yugabyte/YCSB's), which
   *                             no workload or binding reads
   * @param translatedFlags      settings whose value came from somewhere other than a flag of ybbench's, as
   *                             the flag and value the equivalent command shows
   * @param translatedProperties settled values no single flag can say (reads and writes at different
   *                             consistency levels, what yugabyte/YCSB's properties became): -p in the
   *                             equivalent command
   * @param cli                  the -p given, in order
   * @param givenProperties      each property given and where: "-p" or its file's name
   * @param notes                what the user should know about how their properties were taken
   * @param bindingProperties    whether any of yugabyte/YCSB's binding properties was given
   */
  public record Provenance(Map<String, String> origins, Set<String> flagged, Set<String> picked, Set<String> consumed,
      Map<String, String> translatedFlags, Map<String, String> translatedProperties, Map<String, String> cli,
      Map<String, String> givenProperties, List<String> notes, boolean bindingProperties) {
    public Provenance {
      origins = ordered(origins);
      flagged = Set.copyOf(flagged);
      picked = Set.copyOf(picked);
      consumed = Set.copyOf(consumed);
      translatedFlags = ordered(translatedFlags);
      translatedProperties = ordered(translatedProperties);
      cli = ordered(cli);
      givenProperties = ordered(givenProperties);
      notes = List.copyOf(notes);
    }

    private static Map<String, String> ordered(Map<String, String> m) {
      return Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }

    /** Whether the command said anything in YCSB's or yugabyte/YCSB's words, so that the equivalent is worth printing. */
    public boolean foreign() {
      return bindingProperties || consumed.stream().anyMatch(n -> cli.containsKey(n) && !n.startsWith("ybbench."))
          || !translatedProperties.isEmpty();
    }
  }

  public YcsbSettings {
    properties = copy(properties);
  }

  /** A copy of the properties the workload and bindings read, the runner's to complete (the load's slice, the server's hosts). */
  @Override
  public Properties properties() {
    return copy(properties);
  }

  /** One of {@link #properties()}, without copying them all. */
  public String property(String name) {
    return properties.getProperty(name);
  }

  private static Properties copy(Properties p) {
    Properties c = new Properties();
    p.stringPropertyNames().forEach(n -> c.setProperty(n, p.getProperty(n)));
    return c;
  }

  public boolean ycql() {
    return api == Api.YCQL;
  }

  /** Whether the run phase has separate reader and writer pools. */
  public boolean pools() {
    return readThreads != null || writeThreads != null;
  }

  /** The readers' pool size (0 without one). */
  public int readers() {
    return readThreads == null ? 0 : readThreads;
  }

  /** The writers' pool size (0 without one). */
  public int writers() {
    return writeThreads == null ? 0 : writeThreads;
  }

  /** How the client threads run: --jobs, refused on a JVM without virtual threads. */
  public ClientThreads clientThreads() {
    return jobs == null ? ClientThreads.platform() : ClientThreads.virtual(jobs, "--jobs");
  }

  /** What the user should know about how their properties were taken (one line each). */
  public List<String> notes() {
    return provenance.notes();
  }

  /** Properties settled here (YCSB's client properties, yugabyte/YCSB's), which no workload or binding reads. */
  public Set<String> consumed() {
    return provenance.consumed();
  }

  /** Where each given property came from: "-p" or its file's name. */
  public Map<String, String> givenProperties() {
    return provenance.givenProperties();
  }

  /** How the user gave a setting, for an error about its value: its flag, or where its property came from. */
  String said(String flag, String property) {
    return provenance.flagged().contains(property) ? flag : originOf(property);
  }

  /** The strongest origin of a setting's property, for an error about its value (the property's name when not given). */
  String originOf(String property) {
    return provenance.origins().getOrDefault(property, property);
  }
}
