package dev.ybbench.sysbench;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerTarget;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.benchmark.Outline;
import dev.ybbench.harness.embedded.EmbeddedPostgres;
import dev.ybbench.harness.ysql.Libpq;
import dev.ybbench.harness.ysql.SqlDialect;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import dev.ybbench.sysbench.core.SysbenchRandom;
import dev.ybbench.sysbench.core.SysbenchSchema;
import dev.ybbench.sysbench.core.SysbenchTests;
import dev.ybbench.sysbench.engine.SysbenchBinary;
import dev.ybbench.sysbench.engine.SysbenchProcess;
import dev.ybbench.sysbench.interop.SysbenchCommandLine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A run_sysbench.sh command, settled and checked before anything starts: the test and what to do
 * (prepare, run, cleanup), the tables, sysbench's options, the sysbench binary and the server.
 *
 * @param command     "prepare", "run", "cleanup", or null: prepare what is missing, then run
 * @param options     sysbench's options passed on, by name as given
 * @param rows        rows loaded per table (none for oltp_insert without auto_inc, as sysbench prepares it)
 */
record SysbenchPlan(SysbenchTests.Test test, String command, int tables, long tableSize, long rows, int threads,
    int duration, long events, int warmup, boolean range, int tablets, int serialCache, boolean autoInc,
    boolean secondaryIndex, int percentile, boolean histogram, int reportInterval, Map<String, String> options,
    SysbenchRandom.Distribution distribution, long seed, SysbenchBinary binary, ServerTarget server,
    YsqlEndpoint endpoint, int clients) {

  private static final Set<String> COMMANDS = Set.of("prepare", "run", "cleanup");

  /** sysbench's own default database. */
  static final String DATABASE = "sbtest";

  static SysbenchPlan of(SysbenchOptions o) {
    if (o.test == null) {
      throw new UserError("Name a sysbench test, e.g. ./run_sysbench.sh oltp_read_only (see --help)");
    }
    SysbenchTests.Test test = SysbenchTests.named(o.test);
    if (o.command != null && !COMMANDS.contains(o.command)) {
      throw new UserError("Unknown command '" + o.command + "' after the test; use prepare, run or cleanup (or none: "
          + "prepare what is missing, then run)");
    }
    positive("--threads", o.threads);
    o.fleet.check();
    if (o.duration < 0 || o.events < 0 || o.warmup < 0 || o.serialCache < 0 || o.tablets < 0) {
      throw new UserError("--duration, --events, --warmup, --serial-cache and --tablets cannot be negative");
    }
    if (o.duration == 0 && o.events == 0) {
      throw new UserError("--duration 0 runs until --events: give --events N, or a --duration");
    }
    if (o.percentile < 1 || o.percentile > 100) {
      throw new UserError("--percentile must be 1 … 100, was " + o.percentile + " (0 would turn off sysbench's "
          + "latency, which ybbench records)");
    }
    positive("--report-interval", o.reportInterval);
    if (!o.layout.equals("hash") && !o.layout.equals("range")) {
      throw new UserError("--layout must be hash or range, was '" + o.layout + "'");
    }
    if (o.run.prometheusPort != null) {
      throw new UserError("--prometheus-port serves ybbench's own counters; sysbench counts in its own process: "
          + "leave it out");
    }
    Map<String, String> options = options(o.options, test);
    boolean autoInc = flag(options, "auto_inc", true);
    boolean secondary = flag(options, "create_secondary", true);
    Map<String, String> general = new LinkedHashMap<>();
    options.forEach((k, v) -> general.put(k.replace('_', '-').toLowerCase(Locale.ROOT), v));
    SysbenchRandom.Distribution distribution = SysbenchRandom.Distribution.of(general);
    long seed = whole(general.getOrDefault("rand-seed", "0"), "--rand-seed");
    // A schema now refuses a bad table count, size or split before anything starts.
    new SysbenchSchema(SqlDialect.YUGABYTEDB, o.layout.equals("range"), o.tables, o.tableSize, o.tablets, autoInc,
        secondary, o.serialCache);
    String path = System.getenv("PATH");
    SysbenchBinary binary = SysbenchBinary.toInstall(o.sysbench, path, o.run.noInstall) ? SysbenchBinary.TO_INSTALL
        : SysbenchBinary.find(o.sysbench, path);
    ServerTarget server = ServerTarget.choose(ServerTarget.Api.YSQL, o.server.hosts, o.server.dbVersion, 1)
        .withSettings(o.server.dbSettings()).refusing("--url-options", o.server.urlOptions);
    if (server.hosts() != null) {
      hosts(server, binary);
    }
    if (o.fleet.clients > 1 && server.hosts() == null) {
      throw new UserError("--clients " + o.fleet.clients + " share one server's tables, and an embedded server is this "
          + "client's alone: give --hosts");
    }
    if (o.fleet.clients > 1 && !"run".equals(o.command)) {
      throw new UserError("--clients " + o.fleet.clients + ": the clients run on tables prepared once; prepare them first "
          + "(./run_sysbench.sh " + test.name() + " prepare …), then give each client 'run'");
    }
    String password = o.server.password("");
    YsqlEndpoint endpoint = YsqlEndpoint.of(YsqlEndpoint.Driver.PGJDBC, server.hosts() == null
            ? HostList.parse("127.0.0.1", 5432) : server.hosts(), o.server.database != null ? o.server.database
            : DATABASE, o.server.user != null ? o.server.user : "yugabyte", password)
        .withOptions(Libpq.urlOptions(o.server.urlOptions, "sysbench")).withLoadBalance(false);
    long rows = test.name().equals("oltp_insert") && !autoInc ? 0 : o.tableSize;
    return new SysbenchPlan(test, o.command, o.tables, o.tableSize, rows, o.threads, o.duration, o.events, o.warmup,
        o.layout.equals("range"), o.tablets, o.serialCache, autoInc, secondary, o.percentile, o.histogram,
        o.reportInterval, options, distribution, seed, binary, server, endpoint, o.fleet.clients);
  }

  /** The same plan run by {@code b}: the sysbench found once it was installed. */
  SysbenchPlan withBinary(SysbenchBinary b) {
    return new SysbenchPlan(test, command, tables, tableSize, rows, threads, duration, events, warmup, range, tablets,
        serialCache, autoInc, secondaryIndex, percentile, histogram, reportInterval, options, distribution, seed, b,
        server, endpoint, clients);
  }

  private static void positive(String flag, long v) {
    if (v < 1) {
      throw new UserError(flag + " must be at least 1, was " + v);
    }
  }

  private static long whole(String v, String what) {
    try {
      return Long.parseLong(v.strip());
    } catch (NumberFormatException e) {
      throw new UserError(what + "=" + v + " is not a whole number");
    }
  }

  /**
   * The --option NAME=VALUE given, checked: a name the test's script declares (its value of the
   * default's kind) or a general sysbench option; the rest refused by name.
   */
  private static Map<String, String> options(List<String> given, SysbenchTests.Test test) {
    Map<String, String> declared = SysbenchTests.options(test);
    Map<String, String> out = new LinkedHashMap<>();
    for (String nv : given) {
      int eq = nv.indexOf('=');
      if (eq < 1) {
        throw new UserError("--option " + nv + ": give NAME=VALUE, e.g. --option point_selects=5");
      }
      String name = nv.substring(0, eq).strip();
      String value = nv.substring(eq + 1).strip();
      String lua = name.replace('-', '_').toLowerCase(Locale.ROOT);
      if (SysbenchTests.REFUSED_OPTIONS.containsKey(lua)) {
        throw new UserError("--" + name + " " + SysbenchTests.REFUSED_OPTIONS.get(lua));
      }
      if (lua.equals("tables") || lua.equals("table_size")) {
        throw new UserError("--option " + nv + ": give --" + lua.replace('_', '-') + ", ybbench's flag");
      }
      if (declared.containsKey(lua)) {
        String kind = declared.get(lua);
        if (kind.equals("on") || kind.equals("off")) {
          SysbenchCommandLine.on(value, "--" + name + "=" + value);
        } else if (!value.matches("[0-9]+")) {
          throw new UserError("--" + name + "=" + value + " is not a whole number");
        }
      } else if (!SysbenchCommandLine.GENERAL.contains(lua.replace('_', '-'))) {
        throw new UserError("--" + name + " is not an option of " + test.name() + " (its script declares "
            + String.join(", ", declared.keySet()) + ") nor a general sysbench option ybbench passes on ("
            + String.join(", ", SysbenchCommandLine.GENERAL.stream().sorted().toList()) + ")");
      }
      out.put(name, value);
    }
    return out;
  }

  private static boolean flag(Map<String, String> options, String lua, boolean dflt) {
    for (Map.Entry<String, String> e : options.entrySet()) {
      if (e.getKey().replace('-', '_').equalsIgnoreCase(lua)) {
        return SysbenchCommandLine.on(e.getValue(), "--" + e.getKey() + "=" + e.getValue());
      }
    }
    return dflt;
  }

  /**
   * Several hosts need a sysbench whose pgsql driver spreads its threads over them
   * (yugabyte/sysbench's); all take one port, sysbench's --pgsql-port.
   */
  private static void hosts(ServerTarget server, SysbenchBinary binary) {
    HostList hosts = server.hosts();
    if (hosts.hosts().size() > 1 && !binary.hostList()) {
      throw new UserError(binary.version() + " connects to one host: give one node in " + server.hostsSource()
          + ", or a yugabyte/sysbench build (--sysbench PATH), which spreads its threads over a list");
    }
    if (hosts.hosts().stream().map(HostList.HostPort::port).distinct().count() > 1) {
      throw new UserError(server.hostsSource() + " " + hosts + ": sysbench takes one port for all its hosts "
          + "(--pgsql-port)");
    }
  }

  /** Whether its events are BEGIN … COMMIT: the test's are, unless --skip_trx. */
  boolean begins() {
    return test.begins() && !flag(options, "skip_trx", false);
  }

  /** The schema over the server's dialect. */
  SysbenchSchema schema(SqlDialect dialect) {
    return new SysbenchSchema(dialect, range, tables, tableSize, tablets, autoInc, secondaryIndex, serialCache);
  }

  /** Whether this run may drop and create the tables (everything but run alone). */
  boolean mayRecreate() {
    return !"run".equals(command) || server.embedded();
  }

  /** sysbench's options for a run of {@code seconds}: the tables, threads and limits, then those given. */
  List<String> sysbenchOptions(int seconds, boolean measured) {
    List<String> out = new ArrayList<>(List.of("--tables=" + tables, "--table-size=" + tableSize,
        "--threads=" + threads, "--time=" + seconds, "--events=" + (measured ? events : 0), "--report-interval=1",
        "--percentile=" + percentile, "--histogram=on"));
    options.forEach((k, v) -> out.add("--" + k + "=" + v));
    return out;
  }

  /** sysbench's command line, as the run will give it (the embedded server's host is known once it is up). */
  List<String> command(YsqlEndpoint connected) {
    return SysbenchProcess.command(binary, test.name(), connected, sysbenchOptions(duration, true));
  }

  /**
   * What every dry run says first: the server and how it is reached, what happens to the tables
   * and when, the connections, the phases.
   */
  Outline outline(List<String> reads) {
    String names = tables == 1 ? "sbtest1" : "sbtest1 … sbtest" + tables;
    String shape = tables + (tables == 1 ? " table" : " tables") + " of " + rows + " rows";
    String are = tables == 1 ? "it is" : "they are";
    List<String> done = new ArrayList<>();
    if ("cleanup".equals(command)) {
      done.add(names + ": dropped");
    } else if ("prepare".equals(command)) {
      done.add(names + ": dropped if " + are + " there, created and loaded (" + shape + ")");
    } else if ("run".equals(command) && !server.embedded()) {
      done.add(names + ": used as " + are + ", and must be prepared in this shape (" + shape + ")");
    } else {
      done.add(names + ": kept when prepared earlier in this shape (" + shape + "); otherwise dropped if " + are
          + " there, created and loaded");
    }
    int nodes = server.embedded() ? 1 : server.hosts().hosts().size();
    String connections = threads + ", one per sysbench thread" + (nodes == 1 ? "" : ", spread over " + nodes
        + " nodes by yugabyte/sysbench") + ("run".equals(command) || "cleanup".equals(command) ? ""
        : "; the prepare loads on " + threads);
    List<Outline.Phase> phases = new ArrayList<>();
    if ("cleanup".equals(command)) {
      phases.add(Outline.Phase.untimed("cleanup", "drop " + names));
    } else {
      if (!"run".equals(command) || server.embedded()) {
        phases.add(Outline.Phase.untimed("prepare", shape + ("prepare".equals(command) ? "" : ", when not there")));
      }
      if (!"prepare".equals(command)) {
        if (warmup > 0) {
          phases.add(Outline.Phase.timed("warmup", test.name(), warmup));
        }
        phases.add(duration > 0 ? Outline.Phase.timed("run", test.name() + (events > 0 ? ", at most " + events
            + " events" : ""), duration) : Outline.Phase.untimed("run", test.name() + ", " + events + " events"));
      }
    }
    String user = server.embedded() ? EmbeddedPostgres.SUPERUSER : endpoint.user();
    return new Outline(server.describe(), server.embedded() ? "off (the embedded server has none)" : endpoint.tls(),
        endpoint.database() + " as " + user + (endpoint.password().isEmpty() ? "" : " with a password"),
        done, connections, reads, phases, null);
  }

  /** The settings as --dry-run prints them after the outline, one a line. */
  Map<String, String> settings() {
    Map<String, String> out = new LinkedHashMap<>();
    out.put("test", test.name() + " (each event: " + test.event() + ")");
    out.put("sysbench_command", command == null ? "prepare what is missing, then run" : command);
    Map<String, String> p = parameters(endpoint);
    p.remove("test");
    if (server.embedded()) {
      p.put("url", "the embedded server's, once it is up (database " + endpoint.database() + ")");
      p.put("user", "the embedded server's");
    }
    out.putAll(p);
    out.put("sysbench", binary.path() + " (" + binary.version() + ")");
    out.put("runs", String.join(" ", command(endpoint)) + (server.embedded() ? " (host, port and user: the "
        + "embedded server's)" : ""));
    return out;
  }

  /** run.json's parameters. */
  Map<String, String> parameters(YsqlEndpoint connected) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("url", connected.url());
    m.put("user", connected.user());
    m.put("test", test.name());
    m.put("tables", Integer.toString(tables));
    m.put("table_size", Long.toString(tableSize));
    m.put("threads", Integer.toString(threads));
    m.put("clients", Integer.toString(clients));
    m.put("duration_s", Integer.toString(duration));
    m.put("events", Long.toString(events));
    m.put("warmup_s", Integer.toString(warmup));
    m.put("layout", range ? "range" : "hash");
    m.put("tablets", Integer.toString(tablets));
    m.put("serial_cache", Integer.toString(serialCache));
    m.put("percentile", Integer.toString(percentile));
    options.forEach((k, v) -> m.put("sysbench." + k, v));
    m.put("sysbench_version", binary.version());
    return m;
  }
}
