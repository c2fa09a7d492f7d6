package dev.ybbench.ycsb.cli;

import static dev.ybbench.ycsb.cli.YcsbSettings.CREATE_TABLE;
import static dev.ybbench.ycsb.cli.YcsbSettings.FILE_API;
import static dev.ybbench.ycsb.cli.YcsbSettings.FILE_BATCH_SIZE;
import static dev.ybbench.ycsb.cli.YcsbSettings.FILE_PHASE;
import static dev.ybbench.ycsb.cli.YcsbSettings.FILE_TARGET;
import static dev.ybbench.ycsb.cli.YcsbSettings.JOBS;
import static dev.ybbench.ycsb.cli.YcsbSettings.READS;
import static dev.ybbench.ycsb.cli.YcsbSettings.READ_TARGET;
import static dev.ybbench.ycsb.cli.YcsbSettings.READ_THREADS;
import static dev.ybbench.ycsb.cli.YcsbSettings.WARMUP;
import static dev.ybbench.ycsb.cli.YcsbSettings.WRITES;
import static dev.ybbench.ycsb.cli.YcsbSettings.WRITE_TARGET;
import static dev.ybbench.ycsb.cli.YcsbSettings.WRITE_THREADS;

import dev.ybbench.harness.ServerTarget.Api;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.results.RunInfo;
import dev.ybbench.ycsb.schema.TableSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Where a run_ycsb.sh command's settings come from, and the one precedence between them, YCSB's
 * extended by ybbench's flags: the workload files (several {@code -P}, a later one replacing an
 * earlier one's values), then {@code -p}, then the flag. A flag and a {@code -p} that disagree are
 * refused, naming both; a flag silently wins over a file, as {@code -p} does in YCSB. YCSB's own
 * properties ({@code threadcount}, {@code target}, {@code maxexecutiontime}, {@code
 * operationcount}, {@code recordcount}, {@code dotransactions}, {@code db}, {@code label}) and
 * yugabyte/YCSB's binding properties ({@link YcsbBindingProperties}) are settings like the flags
 * they stand for; nothing is reinterpreted and nothing dropped: what ybbench cannot honour is
 * refused. The flags themselves ({@link YcsbOptions}) are only read.
 */
public final class SettingSources {
  /** YSQL's JDBC URL options, --url-options or -p ysql.url_options (the binding's YsqlConfig reads them). */
  private static final String URL_OPTIONS = "ysql.url_options";

  /** Where a value was given, weakest first. */
  enum Rank { BINDING_DEFAULT, FILE, PROPERTY, FLAG }

  /**
   * A value given for a setting, where ({@code -p threadcount=4}, {@code threadcount=4
   * (workloada)}), and the property it was given as: the setting's own name, another of YCSB's
   * or yugabyte/YCSB's that stands for it, or none (a binding's default).
   */
  record Given(String value, Rank rank, String origin, String as) {}

  /**
   * The properties that stand for a ybbench setting the runner itself applies (the scenario keys,
   * YCSB's client settings): taken out of what the workload and bindings read, and recorded in
   * run.json as the settings they became.
   */
  private static final List<String> TAKEN = List.of(FILE_API, FILE_PHASE, FILE_TARGET, FILE_BATCH_SIZE,
      CREATE_TABLE, READ_THREADS, WRITE_THREADS, JOBS, READS, WRITES, READ_TARGET, WRITE_TARGET, "dotransactions", "db",
      "label", "maxexecutiontime", "status", "target");

  private final YcsbOptions o;
  private final List<Path> workloadFiles;
  /** Every file's properties in order, a later file's replacing an earlier one's, and which file each came from. */
  private final Properties files = new Properties();
  private final Map<String, String> fileOf = new LinkedHashMap<>();
  private final Map<String, String> cli;
  private final Map<String, List<Given>> given = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();
  /** Properties this settlement took as its own (YCSB's and yugabyte/YCSB's that stand for settings). */
  private final Set<String> consumed = new TreeSet<>();
  /** Settings whose value came from somewhere other than a flag of ybbench's: the equivalent command shows them. */
  private final Map<String, String> translated = new LinkedHashMap<>();
  /** Properties a flag settles ({@link #pick}); every other given property goes to the workload and bindings as settled. */
  private final Set<String> picked = new LinkedHashSet<>();
  /** Properties whose setting a flag gave. */
  private final Set<String> flagged = new LinkedHashSet<>();
  /** Settled values no single flag can say (reads and writes at different consistency levels): -p in the equivalent command. */
  private final Map<String, String> translatedProperties = new LinkedHashMap<>();
  private final Properties props = new Properties();

  private SettingSources(YcsbOptions o, List<Path> workloadFiles) {
    this.o = o;
    this.workloadFiles = workloadFiles;
    this.cli = new LinkedHashMap<>(o.properties);
  }

  /**
   * Reads {@code workloadFiles} in order and settles every setting: a flag of {@code o} left out
   * takes its property's value or its default.
   */
  public static YcsbSettings settle(YcsbOptions o, List<Path> workloadFiles) throws IOException {
    SettingSources s = new SettingSources(o, workloadFiles);
    for (Path f : workloadFiles) {
      Properties p = new Properties();
      try (InputStream in = Files.newInputStream(f)) {
        p.load(in);
      }
      for (String name : p.stringPropertyNames()) {
        s.files.setProperty(name, p.getProperty(name));
        s.fileOf.put(name, f.getFileName().toString());
      }
    }
    return s.settle();
  }

  /**
   * The run's workload name, for its directory and run.json: WORKLOAD's, else that of the last -P
   * file naming a {@code workload} class (YCSB users also pass a db.properties), else the last file's.
   */
  private String workloadName() {
    String name = o.workload != null ? workloadFiles.get(0).getFileName().toString()
        : fileOf.getOrDefault("workload", workloadFiles.get(workloadFiles.size() - 1).getFileName().toString());
    return name.replaceFirst("\\.properties$", "");
  }

  /**
   * The effective properties (files', then -p's), what each setting was given and where, the API,
   * what yugabyte/YCSB's properties mean, YCSB's client properties; then every setting picked by
   * its precedence and written back into the properties the workload and bindings read.
   */
  private YcsbSettings settle() {
    files.stringPropertyNames().forEach(n -> props.setProperty(n, files.getProperty(n)));
    cli.forEach(props::setProperty);
    collect();
    Api api = api();
    if (bindingInUse()) {
      YcsbBindingProperties.translate(effective(), api, (name, source) -> {
        Rank rank = source.from().isEmpty() ? Rank.BINDING_DEFAULT
            : source.from().stream().anyMatch(cli::containsKey) ? Rank.PROPERTY : Rank.FILE;
        String origin = source.from().isEmpty() ? "yugabyte/YCSB's default"
            : String.join(" and ", source.from().stream().map(this::origin).toList());
        add(name, source.value(), rank, origin, source.from().isEmpty() ? null : source.from().get(0));
        consumed.addAll(source.from());
      }, notes::add);
      for (String name : props.stringPropertyNames()) {
        if (YcsbBindingProperties.SQL.contains(name) || YcsbBindingProperties.CQL.contains(name)) {
          consumed.add(name);
        }
      }
    }
    YcsbClientProperties.check(props, (name, refusal) -> new UserError(origin(name) + ": " + refusal));
    consumed.addAll(TAKEN);
    consumed.addAll(YcsbClientProperties.SATISFIED);
    boolean ycql = api == Api.YCQL;
    String phaseName = pick("--phase", o.phase, FILE_PHASE, s -> s, "both");
    String createTable = pick("--create-table", o.createTable, CREATE_TABLE, s -> s, null);
    int threads = pick("--threads", o.threads, "threadcount", whole("threadcount", Integer::parseInt),
        YcsbSettings.DEFAULT_THREADS);
    Integer jobs = pick("--jobs", o.jobs, JOBS, whole(JOBS, Integer::parseInt), null);
    double target = pick("--target", o.target, "target", number("target"), 0.0);
    long duration = pick("--duration", o.duration, "maxexecutiontime", whole("maxexecutiontime", Long::parseLong),
        YcsbSettings.DEFAULT_DURATION_S);
    Long operations = pick("--operations", o.operations, "operationcount", whole("operationcount", Long::parseLong),
        null);
    long records = pick("--records", o.records, "recordcount", whole("recordcount", Long::parseLong),
        YcsbSettings.DEFAULT_RECORDS);
    long warmup = pick("--warmup", o.warmup, WARMUP, whole(WARMUP, Long::parseLong), 0L);
    Integer readThreads = pick("--read-threads", o.readThreads, READ_THREADS, whole(READ_THREADS, Integer::parseInt),
        null);
    Integer writeThreads = pick("--write-threads", o.writeThreads, WRITE_THREADS,
        whole(WRITE_THREADS, Integer::parseInt), null);
    long reads = pick("--reads", o.reads, READS, whole(READS, Long::parseLong), 0L);
    long writes = pick("--writes", o.writes, WRITES, whole(WRITES, Long::parseLong), 0L);
    double readTarget = pick("--read-target", o.readTarget, READ_TARGET, number(READ_TARGET), 0.0);
    double writeTarget = pick("--write-target", o.writeTarget, WRITE_TARGET, number(WRITE_TARGET), 0.0);
    String label = pick("--label", o.run.label, "label", s -> s, null);
    String layout = pick("--layout", o.layout, "yb.layout", s -> s, null);
    Integer tablets = pick("--tablets", o.tablets, TableSpec.TABLETS, whole(TableSpec.TABLETS, Integer::parseInt),
        null);
    String splitAt = pick("--split-at", o.splitAt, TableSpec.SPLIT_AT, s -> s, null);
    int batchSize = pick("--batch-size", o.batchSize, FILE_BATCH_SIZE, whole(FILE_BATCH_SIZE, Integer::parseInt),
        ycql ? YcsbSettings.YCQL_IN_FLIGHT : YcsbSettings.YSQL_BATCH_ROWS);
    String prefix = ycql ? "ycql." : "ysql.";
    String hosts = pick("--hosts", o.server.hosts, prefix + "hosts", s -> s, null);
    String database = pick("--database", o.server.database, ycql ? "ycql.keyspace" : "ysql.database", s -> s, "ycsb");
    String user = pick("--user", o.server.user, prefix + "user", s -> s, null);
    String password = pick("--password", o.server.password, prefix + "password", s -> s, null);
    if (ycql && o.server.urlOptions != null) {
      throw new UserError("--url-options are JDBC's connection options, for YSQL; YCQL takes TLS as -p "
          + "ycql.truststore=… (docs/yugabytedb.md)");
    }
    String urlOptions = ycql ? null : pick("--url-options", o.server.urlOptions, URL_OPTIONS, s -> s, null);
    Integer rf = o.rf;
    String consistency = o.consistency;
    String loadMethod = o.loadMethod;
    String driver = o.driver;
    if (ycql) {
      rf = pick("--rf", o.rf, "ycql.rf", whole("ycql.rf", Integer::parseInt), null);
      consistency = consistency();
    } else {
      loadMethod = pick("--load-method", o.loadMethod, "ysql.load_method", s -> s, "copy");
      driver = pick("--driver", o.driver, "ysql.driver", s -> s, null);
    }
    Phase phase = Phase.named(phaseName);

    // The settled values into the properties the workload and bindings read; the scenario keys out of them.
    TAKEN.forEach(props::remove);
    props.setProperty("threadcount", Integer.toString(threads));
    props.setProperty("recordcount", Long.toString(records));
    if (operations != null) {
      props.setProperty("operationcount", Long.toString(operations));
    }
    if (target > 0) {
      props.setProperty("target", Double.toString(target));
    }
    set(WARMUP, warmup > 0 ? Long.toString(warmup) : null);
    set("yb.layout", layout);
    set(TableSpec.TABLETS, tablets == null ? null : tablets.toString());
    set(TableSpec.SPLIT_AT, splitAt);
    set(prefix + "hosts", hosts);
    set(ycql ? "ycql.keyspace" : "ysql.database", database);
    set(prefix + "user", user);
    set(prefix + "password", password);
    if (!ycql) {
      set(URL_OPTIONS, urlOptions);
    }
    if (ycql) {
      set("ycql.rf", rf == null ? null : rf.toString());
    } else {
      set("ysql.driver", driver);
      set("ysql.load_method", loadMethod.strip().toLowerCase(Locale.ROOT));
    }
    // Every other setting as settled: a property given as it was, or what yugabyte/YCSB's became (jdbc.fetchsize,
    // db.url's options, cassandra's timeouts, …), the strongest value winning.
    Map<String, String> origins = new LinkedHashMap<>();
    given.forEach((setting, list) -> {
      Given best = strongest(setting);
      origins.put(setting, best.origin());
      if (!picked.contains(setting) && !consumed.contains(setting)) {
        props.setProperty(setting, best.value());
        if (!setting.equals(best.as())) { // what yugabyte/YCSB's property became: a -p of ybbench's own
          translatedProperties.put(setting, best.value());
        }
      }
    });
    Map<String, String> givenProperties = new LinkedHashMap<>(fileOf);
    cli.keySet().forEach(name -> givenProperties.put(name, "-p"));
    return new YcsbSettings(api, phase, createTable, threads, jobs, target, duration, operations, records, warmup,
        readThreads, writeThreads, reads, writes, readTarget, writeTarget, label, layout, tablets, splitAt, batchSize,
        hosts, database, user, password, rf, consistency, loadMethod, driver, workloadName(), props,
        new YcsbSettings.Provenance(origins, flagged, picked, consumed, translated, translatedProperties, cli,
            givenProperties, notes, !effective().isEmpty()));
  }

  /**
   * YCQL's consistency levels: --consistency for both, else reads' and writes' own (yugabyte/YCSB's
   * binding reads at ONE by default). Returns the one level both take, else the flag (null without).
   */
  private String consistency() {
    String flag = o.consistency;
    String both = pick("--consistency", flag, "ycql.consistency", s -> s.toUpperCase(Locale.ROOT), null);
    String read = pick("--consistency", flag, "ycql.read_consistency", s -> s.toUpperCase(Locale.ROOT), both);
    String write = pick("--consistency", flag, "ycql.write_consistency", s -> s.toUpperCase(Locale.ROOT), both);
    translated.remove("--consistency");
    if (flag == null && read != null && read.equals(write)) {
      translated.put("--consistency", read);
    } else if (flag == null && (read != null || write != null)) {
      translatedProperties.put("ycql.read_consistency", read == null ? "QUORUM" : read);
      translatedProperties.put("ycql.write_consistency", write == null ? "QUORUM" : write);
    }
    set("ycql.read_consistency", read);
    set("ycql.write_consistency", write);
    props.remove("ycql.consistency");
    return read != null && read.equals(write) ? read : flag;
  }

  /** Gathers what files and -p give for each setting, under the setting's own property name. */
  private void collect() {
    for (String name : files.stringPropertyNames()) {
      add(name, files.getProperty(name), Rank.FILE);
    }
    cli.forEach((name, value) -> add(name, value, Rank.PROPERTY));
  }

  /** A property given at {@code rank}, filed under the setting it stands for. */
  private void add(String name, String value, Rank rank) {
    String v = value.strip();
    String origin = origin(name, rank);
    switch (name) {
      case FILE_TARGET -> add("target", v, rank, origin, name);
      case "dotransactions" -> {
        // YCSB's -t (true, its "run" command) runs the mix over a table loaded before; -load (false) loads it.
        if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
          throw new UserError(origin + ": dotransactions takes true or false");
        }
        add(FILE_PHASE, Boolean.parseBoolean(v) ? "run" : "load", rank, origin, name);
      }
      case "db" -> add(FILE_API, YcsbBindingProperties.apiOfClass(v), rank, origin, name);
      default -> add(name, v, rank, origin, name);
    }
  }

  private void add(String setting, String value, Rank rank, String origin, String as) {
    List<Given> list = given.computeIfAbsent(setting, k -> new ArrayList<>());
    for (Given g : list) {
      if (g.rank() == rank && !g.value().equals(value) && rank != Rank.BINDING_DEFAULT) {
        throw new UserError(g.origin() + " and " + origin + " disagree; give one of them");
      }
    }
    list.add(new Given(value, rank, origin, as));
  }

  /** "-p name=value" or "name=value (file)", a password's value hidden. */
  private String origin(String name, Rank rank) {
    String value = RunInfo.isSecret(name) ? "***" : (rank == Rank.PROPERTY ? cli.get(name)
        : files.getProperty(name)).strip();
    return rank == Rank.PROPERTY ? "-p " + name + "=" + value : name + "=" + value + " (" + fileOf.get(name) + ")";
  }

  /** Where a property a translation or a check read came from. */
  private String origin(String name) {
    return origin(name, cli.containsKey(name) ? Rank.PROPERTY : Rank.FILE);
  }

  /** The effective values of yugabyte/YCSB's binding properties that were given. */
  private Map<String, String> effective() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String name : props.stringPropertyNames()) {
      if (YcsbBindingProperties.SQL.contains(name) || YcsbBindingProperties.CQL.contains(name)) {
        m.put(name, props.getProperty(name));
      }
    }
    return m;
  }

  /**
   * The API: --api, else the workload's {@code ybbench.api} or {@code db} class, else what
   * yugabyte/YCSB's properties name ({@code db.url} is YSQL, {@code hosts} YCQL), else YSQL.
   */
  private Api api() {
    String flag = o.api == null ? null : o.api.toLowerCase(Locale.ROOT); // --api YSQL as --api ysql, as the property
    String fromProperties = YcsbBindingProperties.apiOfProperties(effective().keySet());
    if (fromProperties != null && flag == null) { // with --api, the other API's properties are refused by name
      Rank rank = YcsbBindingProperties.SQL.stream().anyMatch(cli::containsKey) || YcsbBindingProperties.CQL.stream()
          .anyMatch(cli::containsKey) ? Rank.PROPERTY : Rank.FILE;
      List<Given> declared = given.getOrDefault(FILE_API, List.of());
      for (Given g : declared) {
        if (!g.value().equals(fromProperties)) {
          throw new UserError(g.origin() + " is " + g.value() + ", but the binding properties given are "
              + fromProperties + "'s (" + String.join(", ", effective().keySet()) + ")");
        }
      }
      if (declared.isEmpty()) {
        add(FILE_API, fromProperties, rank, "yugabyte/YCSB's " + (fromProperties.equals("ysql") ? "yugabyteSQL"
            : "yugabyteCQL") + " properties", "db");
      }
    }
    String api = pick("--api", flag, FILE_API, s -> s.toLowerCase(Locale.ROOT), "ysql");
    if (!api.equals("ysql") && !api.equals("ycql")) {
      throw new UserError("Unknown --api '" + api + "' (or ybbench.api); use ysql or ycql");
    }
    return Api.named(api);
  }

  /** Whether yugabyte/YCSB's binding is what the command names: its class as {@code db}, or any of its properties. */
  private boolean bindingInUse() {
    return props.getProperty("db") != null || !effective().isEmpty();
  }

  /**
   * A setting's value: its flag, else the strongest value given for {@code property}, else {@code
   * dflt}. A flag that disagrees with a {@code -p} (or anything yugabyte/YCSB's {@code -p} became)
   * is refused, naming both.
   */
  private <T> T pick(String flag, T flagValue, String property, Function<String, T> parse, T dflt) {
    picked.add(property);
    Given best = strongest(property);
    if (flagValue != null) {
      flagged.add(property);
      if (best != null && best.rank() == Rank.PROPERTY && !same(flagValue, parse.apply(best.value()))) {
        throw new UserError(flag + " " + shown(flag, flagValue) + " and " + best.origin() + " disagree; give one of "
            + "them");
      }
      return flagValue;
    }
    if (best == null) {
      return dflt;
    }
    T value = parse.apply(best.value());
    // A file's own setting, under its own name, needs no flag to say it again, nor does an empty password.
    if (!(best.rank() == Rank.FILE && property.equals(best.as())) && !String.valueOf(value).isEmpty()) {
      translated.put(flag, shown(flag, value));
    }
    return value;
  }

  /** The value given for {@code setting} at the highest rank, or null. */
  private Given strongest(String setting) {
    Given best = null;
    for (Given g : given.getOrDefault(setting, List.of())) {
      if (best == null || g.rank().compareTo(best.rank()) > 0) {
        best = g;
      }
    }
    return best;
  }

  private static String shown(String flag, Object value) {
    if (flag.equals("--password")) {
      return "***";
    }
    return value instanceof Double d && d == Math.rint(d) ? Long.toString(d.longValue()) : String.valueOf(value);
  }

  private static boolean same(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return x.doubleValue() == y.doubleValue();
    }
    return String.valueOf(a).equalsIgnoreCase(String.valueOf(b));
  }

  private <T> Function<String, T> whole(String name, Function<String, T> parse) {
    return v -> {
      try {
        return parse.apply(v);
      } catch (NumberFormatException e) {
        throw new UserError(originOf(name) + " is not a whole number");
      }
    };
  }

  private Function<String, Double> number(String name) {
    return v -> {
      try {
        double d = Double.parseDouble(v);
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          throw new NumberFormatException();
        }
        return d;
      } catch (NumberFormatException e) {
        throw new UserError(originOf(name) + " is not a number");
      }
    };
  }

  /** The strongest origin of a setting's property, for an error about its value. */
  private String originOf(String setting) {
    Given best = strongest(setting);
    return best == null ? setting : best.origin();
  }

  private void set(String name, String value) {
    if (value == null) {
      props.remove(name);
    } else {
      props.setProperty(name, value);
    }
  }
}
