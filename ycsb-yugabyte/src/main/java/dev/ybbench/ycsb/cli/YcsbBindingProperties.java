package dev.ybbench.ycsb.cli;

import dev.ybbench.harness.HostList;
import dev.ybbench.harness.ServerTarget.Api;
import dev.ybbench.harness.UserError;
import dev.ybbench.harness.ysql.YsqlEndpoint;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * yugabyte/YCSB's binding properties, with the meaning its bindings give them (read from
 * yugabyte/YCSB's source), turned into ybbench's: {@code yugabyteSQL} (and {@code
 * yugabyteSQL2Keys}, YCSB's {@code jdbc}) is {@code site.ycsb.db.JdbcDBClient}, {@code
 * yugabyteCQL} (YCSB's {@code cassandra-cql}) is {@code site.ycsb.db.CassandraCQLClient}. A
 * property whose meaning ybbench cannot give is refused with one line saying why.
 */
final class YcsbBindingProperties {
  static final String JDBC_CLIENT = "site.ycsb.db.JdbcDBClient";
  static final String CQL_CLIENT = "site.ycsb.db.CassandraCQLClient";

  /** yugabyteSQL's properties (JdbcDBClient, and yugabyteSQL2Keys' key split). */
  static final Set<String> SQL = Set.of("db.driver", "db.url", "db.user", "db.passwd", "db.batchsize",
      "jdbc.fetchsize", "jdbc.autocommit", "jdbc.batchupdateapi", "db.keysplitsize");
  /** yugabyteCQL's properties (CassandraCQLClient). */
  static final Set<String> CQL = Set.of("hosts", "port", "cassandra.username", "cassandra.password",
      "cassandra.keyspace", "cassandra.readconsistencylevel", "cassandra.writeconsistencylevel",
      "cassandra.maxconnections", "cassandra.coreconnections", "cassandra.connecttimeoutmillis",
      "cassandra.readtimeoutmillis", "cassandra.tracing", "cassandra.useSSL", "debug");

  /** The binding names a bin/ycsb command line gives, and what each is here. */
  static final Map<String, String> BINDINGS = Map.of(
      "yugabyteSQL", JDBC_CLIENT, "yugabyteSQL2Keys", JDBC_CLIENT, "jdbc", JDBC_CLIENT,
      "yugabyteCQL", CQL_CLIENT, "cassandra-cql", CQL_CLIENT);

  private YcsbBindingProperties() {}

  /** The API a {@code db} class is, or a one-line refusal. */
  static String apiOfClass(String dbClass) {
    return switch (dbClass.strip()) {
      case JDBC_CLIENT -> "ysql";
      case CQL_CLIENT -> "ycql";
      default -> throw new UserError("db=" + dbClass + " is not a binding ybbench has: its YSQL binding stands for "
          + "yugabyteSQL (" + JDBC_CLIENT + "), its YCQL binding for yugabyteCQL (" + CQL_CLIENT + ")");
    };
  }

  /** The API yugabyte/YCSB's properties among {@code names} belong to, or null; both APIs' at once is refused. */
  static String apiOfProperties(Set<String> names) {
    List<String> sql = names.stream().filter(SQL::contains).sorted().toList();
    List<String> cql = names.stream().filter(CQL::contains).sorted().toList();
    if (!sql.isEmpty() && !cql.isEmpty()) {
      throw new UserError(sql.get(0) + " is yugabyteSQL's property and " + cql.get(0) + " yugabyteCQL's: one run "
          + "uses one API; give one binding's properties");
    }
    return !sql.isEmpty() ? "ysql" : !cql.isEmpty() ? "ycql" : null;
  }

  /**
   * ybbench's properties for the yugabyte/YCSB ones in {@code p}, each handed to {@code out} with
   * the name of the property it came from; notes (what a property does here that a user might
   * not expect) go to {@code notes}.
   *
   * @param api the API the run uses; the other binding's properties are refused
   */
  static void translate(Map<String, String> p, Api api, BiConsumer<String, Source> out, Consumer<String> notes) {
    Set<String> other = api == Api.YSQL ? CQL : SQL;
    for (String name : p.keySet()) {
      if (other.contains(name)) {
        throw new UserError(name + " is " + (api == Api.YSQL ? "yugabyteCQL's (YCQL)" : "yugabyteSQL's (YSQL)")
            + " property, and this run is --api " + api.flag() + "; give the binding's own properties, or --api "
            + (api == Api.YSQL ? "ycql" : "ysql"));
      }
    }
    if (api == Api.YSQL) {
      sql(p, out, notes);
    } else {
      cql(p, out, notes);
    }
  }

  /**
   * A ybbench property's value and the yugabyte/YCSB properties it was read from; none when it is
   * the binding's own default (which a flag or file overrides without disagreeing).
   */
  record Source(String value, List<String> from) {
    Source(String value, String... from) {
      this(value, List.of(from));
    }

    /** The same value, from those of {@code names} that {@code p} has. */
    static Source of(String value, Map<String, String> p, String... names) {
      return new Source(value, java.util.Arrays.stream(names).filter(p::containsKey).toList());
    }
  }

  private static void sql(Map<String, String> p, BiConsumer<String, Source> out, Consumer<String> notes) {
    String url = p.get("db.url");
    String driver = p.get("db.driver");
    String urlDriver = null;
    if (url != null) {
      // One or several URLs separated by ';' (a trailing one is usual): JdbcDBClient opens one connection to each
      // per thread; here their hosts are the run's nodes, which the driver spreads the threads' connections over.
      Set<String> hosts = new LinkedHashSet<>();
      Set<String> databases = new LinkedHashSet<>();
      Set<String> options = new LinkedHashSet<>();
      Set<String> drivers = new LinkedHashSet<>();
      for (String one : url.split(";")) {
        if (one.isBlank()) {
          continue;
        }
        YsqlEndpoint e;
        try {
          e = YsqlEndpoint.parse(one);
        } catch (UserError bad) {
          throw new UserError("db.url '" + one.strip() + "' is not a jdbc:postgresql:// or jdbc:yugabytedb:// URL "
              + "with host, port and database");
        }
        e.hosts().hosts().forEach(h -> hosts.add(h.toString()));
        databases.add(e.database());
        options.add(YsqlEndpoint.query(e.options()));
        drivers.add(e.isYugabyteDriver() ? "yugabyte" : "pgjdbc");
        if (!e.user().isEmpty()) {
          out.accept("ysql.user", new Source(e.user(), "db.url"));
        }
        if (!e.password().isEmpty()) {
          out.accept("ysql.password", new Source(e.password(), "db.url"));
        }
      }
      if (hosts.isEmpty()) {
        throw new UserError("db.url names no host; give jdbc:postgresql://HOST:PORT/DATABASE");
      }
      for (Set<String> one : List.of(databases, options, drivers)) {
        if (one.size() > 1) {
          throw new UserError("db.url's URLs differ in " + (one == databases ? "database" : one == options
              ? "options" : "driver") + " (" + String.join(", ", one) + "); ybbench runs one database over one "
              + "driver: give URLs that differ only in host");
        }
      }
      out.accept("ysql.hosts", new Source(String.join(",", hosts), "db.url"));
      out.accept("ysql.database", new Source(databases.iterator().next(), "db.url"));
      if (!options.iterator().next().isEmpty()) {
        out.accept("ysql.url_options", new Source(options.iterator().next(), "db.url"));
      }
      urlDriver = drivers.iterator().next();
    }
    if (driver != null) {
      String named = switch (driver.strip()) {
        case "org.postgresql.Driver" -> "pgjdbc";
        case "com.yugabyte.Driver" -> "yugabyte";
        default -> throw new UserError("db.driver=" + driver + " is not a driver ybbench has; use org.postgresql.Driver "
            + "(pgjdbc) or com.yugabyte.Driver (YugabyteDB's smart driver)");
      };
      if (urlDriver != null && !urlDriver.equals(named)) {
        // JdbcDBClient would fail here too: each driver takes only its own URLs.
        throw new UserError("db.driver=" + driver + " does not take db.url's " + (urlDriver.equals("pgjdbc")
            ? "jdbc:postgresql:" : "jdbc:yugabytedb:") + " URLs; use " + (urlDriver.equals("pgjdbc")
            ? "org.postgresql.Driver" : "com.yugabyte.Driver") + " or change the URLs");
      }
      out.accept("ysql.driver", new Source(named, "db.driver"));
    } else if (urlDriver != null) {
      out.accept("ysql.driver", new Source(urlDriver, "db.url"));
    }
    if (p.containsKey("db.user")) {
      out.accept("ysql.user", new Source(p.get("db.user"), "db.user"));
    }
    if (p.containsKey("db.passwd")) {
      out.accept("ysql.password", new Source(p.get("db.passwd"), "db.passwd"));
    }
    if (p.containsKey("jdbc.fetchsize")) {
      out.accept("ysql.fetch_size", new Source(whole(p, "jdbc.fetchsize", Long.MIN_VALUE) + "", "jdbc.fetchsize"));
    }
    if (p.containsKey("db.keysplitsize")) {
      long split = whole(p, "db.keysplitsize", 1);
      out.accept("yb.split", new Source(Long.toString(split), "db.keysplitsize"));
    }
    load(p, out, notes);
  }

  /**
   * How JdbcDBClient writes a load: with {@code jdbc.batchupdateapi=true}, JDBC batches of {@code
   * db.batchsize} rows (here one multi-row INSERT per batch, each a transaction); otherwise one
   * INSERT per row, whatever {@code db.batchsize} says. {@code jdbc.autocommit=false} would keep
   * every read and update of a run in one open transaction until the end, which no benchmark
   * here can stand for, so it is refused.
   */
  private static void load(Map<String, String> p, BiConsumer<String, Source> out, Consumer<String> notes) {
    String autocommit = p.get("jdbc.autocommit");
    if (autocommit != null && !bool(p, "jdbc.autocommit")) {
      throw new UserError("jdbc.autocommit=false: yugabyte/YCSB's binding then keeps every read and update in one "
          + "transaction until the run ends; ybbench commits each operation; leave it out or set it true");
    }
    boolean batchApi = p.containsKey("jdbc.batchupdateapi") && bool(p, "jdbc.batchupdateapi");
    long batch = p.containsKey("db.batchsize") ? whole(p, "db.batchsize", Long.MIN_VALUE) : -1;
    if (batchApi) {
      if (batch <= 0) {
        throw new UserError("jdbc.batchupdateapi=true with no db.batchsize above 0: yugabyte/YCSB's binding then never "
            + "sends its batches; give db.batchsize");
      }
      out.accept("ybbench.batch_size", Source.of(Long.toString(batch), p, "db.batchsize", "jdbc.batchupdateapi"));
      out.accept("ysql.load_method", new Source("insert", "jdbc.batchupdateapi"));
    } else {
      out.accept("ybbench.batch_size", Source.of("1", p, "db.batchsize", "jdbc.batchupdateapi"));
      if (batch > 1) {
        notes.accept("db.batchsize=" + batch + " batches nothing without jdbc.batchupdateapi=true, as in yugabyte/YCSB's "
            + "binding: the load writes one row per INSERT (--batch-size N for ybbench's batched COPY)");
      }
    }
  }

  private static void cql(Map<String, String> p, BiConsumer<String, Source> out, Consumer<String> notes) {
    if (p.containsKey("hosts")) {
      int port = (int) (p.containsKey("port") ? whole(p, "port", 1) : 9042);
      List<String> hosts = new ArrayList<>();
      for (String h : p.get("hosts").split(",")) {
        if (!h.isBlank()) {
          hosts.add(h.strip() + ":" + port);
        }
      }
      out.accept("ycql.hosts", Source.of(HostList.parse(String.join(",", hosts), port).toString(), p, "hosts", "port"));
    } else if (p.containsKey("port")) {
      throw new UserError("port=" + p.get("port") + " is the port of yugabyteCQL's hosts; give hosts too (or --hosts "
          + "H:PORT,…)");
    }
    rename(p, "cassandra.keyspace", "ycql.keyspace", out);
    rename(p, "cassandra.username", "ycql.user", out);
    rename(p, "cassandra.password", "ycql.password", out);
    // CassandraCQLClient reads and writes at ONE unless told otherwise (ybbench's own default is QUORUM).
    for (String kind : List.of("read", "write")) {
      String name = "cassandra." + kind + "consistencylevel";
      out.accept("ycql." + kind + "_consistency", Source.of(p.getOrDefault(name, "ONE").strip()
          .toUpperCase(Locale.ROOT), p, name));
    }
    // Driver 3's pool grows from core to max connections per host; driver 4's is a fixed size, taken as the max.
    if (p.containsKey("cassandra.maxconnections") || p.containsKey("cassandra.coreconnections")) {
      long max = p.containsKey("cassandra.maxconnections") ? whole(p, "cassandra.maxconnections", 1)
          : whole(p, "cassandra.coreconnections", 1);
      if (p.containsKey("cassandra.coreconnections") && whole(p, "cassandra.coreconnections", 1) > max) {
        throw new UserError("cassandra.coreconnections=" + p.get("cassandra.coreconnections") + " is above "
            + "cassandra.maxconnections=" + max);
      }
      out.accept("ycql.connections_per_node", Source.of(Long.toString(max), p, "cassandra.maxconnections",
          "cassandra.coreconnections"));
    }
    rename(p, "cassandra.connecttimeoutmillis", "ycql.connect_timeout_ms", out);
    rename(p, "cassandra.readtimeoutmillis", "ycql.request_timeout_ms", out);
    rename(p, "cassandra.useSSL", "ycql.tls", out);
    if (p.containsKey("cassandra.tracing") && bool(p, "cassandra.tracing")) {
      throw new UserError("cassandra.tracing=true has the server trace every request, which a benchmark cannot stand "
          + "for; ybbench does not trace: leave it out");
    }
    if (p.containsKey("debug") && bool(p, "debug")) {
      throw new UserError("debug=true prints every statement in yugabyteCQL; ybbench does not: leave it out (--verbose "
          + "gives stack traces with errors)");
    }
  }

  private static void rename(Map<String, String> p, String from, String to, BiConsumer<String, Source> out) {
    if (p.containsKey(from)) {
      out.accept(to, new Source(p.get(from).strip(), from));
    }
  }

  private static boolean bool(Map<String, String> p, String name) {
    String v = p.get(name).strip();
    if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
      throw new UserError(name + "=" + v + " is not true or false");
    }
    return Boolean.parseBoolean(v);
  }

  private static long whole(Map<String, String> p, String name, long atLeast) {
    String v = p.get(name).strip();
    try {
      long n = Long.parseLong(v);
      if (n < atLeast) {
        throw new UserError(name + "=" + v + " must be at least " + atLeast);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UserError(name + "=" + v + " is not a whole number");
    }
  }
}
