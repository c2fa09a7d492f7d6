package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.ycsb.cli.SampleAppCommandLine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every flag and property docs/ycsb.md and docs/command-lines.md list changes what runs: with it,
 * the plan that --dry-run prints (the server, phases, threads and every setting the workload and
 * binding take, as they will take them) differs from the plan without it. A listed name with no
 * case here fails the test, so the docs cannot list what does nothing.
 */
class DocumentedOptionsTest {
  @TempDir
  Path results;

  /** The bases: a YSQL run, a YCQL run, against given hosts so the binding's connection shows. */
  private static final List<String> YSQL = List.of("workloada", "--hosts", "h1:5433");
  private static final List<String> YCQL = List.of("workloada", "--api", "ycql", "--hosts", "h1:9042");
  private static final List<String> EMBEDDED_YCQL = List.of("workloada", "--api", "ycql");
  private static final List<String> POOLS = List.of("workloada", "--hosts", "h1:5433", "--read-threads", "2",
      "--write-threads", "2");

  /** A case: a base, and the arguments that set the flag or property to something other than its default. */
  record Case(List<String> base, List<String> with) {}

  private static Case ysql(String... with) {
    return new Case(YSQL, List.of(with));
  }

  private static Case ycql(String... with) {
    return new Case(YCQL, List.of(with));
  }

  private static Case p(List<String> base, String property) {
    return new Case(base, List.of("-p", property));
  }

  /** Flags and properties whose change is checked elsewhere, because a dry run cannot show it. */
  private static final Map<String, String> ELSEWHERE = Map.of(
      "--merge", "a different command: ClientsIT merges runs",
      "--include-incomplete", "goes with --merge: ClientsIT merges a fleet that lacks a client",
      "--resume", "needs a crashed load: ResumeIT",
      "--dry-run", "it is what prints the plan",
      "--jobs", "needs Java 21 or later, the tests run on 17: VirtualThreadsIT runs it on a newer JDK",
      "--verbose", "stack traces with errors: CommandLines",
      "-p", "each property is a case of its own",
      "--workload", "the sample app's command line: each of its options is a case below");

  /** Properties YCSB users give that are already so here: accepted (not warned about, not refused), changing nothing. */
  private static final Set<String> ALREADY_SO = Set.of("status", "measurementtype", "measurement.interval",
      "hdrhistogram.fileoutput", "jdbc.autocommit");

  private static Map<String, Case> cases() {
    Map<String, Case> c = new LinkedHashMap<>();
    // run_ycsb.sh's flags
    c.put("--api", new Case(List.of("workloada"), List.of("--api", "ycql")));
    c.put("--hosts", new Case(List.of("workloada"), List.of("--hosts", "h2:5433")));
    c.put("--db-version", new Case(List.of("workloada"), List.of("--db-version", "16")));
    c.put("--db-setting", new Case(List.of("workloada"), List.of("--db-setting", "enable_seqscan=off")));
    c.put("--nodes", new Case(EMBEDDED_YCQL, List.of("--nodes", "2")));
    c.put("--rf", ycql("--rf", "3"));
    c.put("--consistency", ycql("--consistency", "ONE"));
    c.put("--threads", ysql("--threads", "3"));
    c.put("--records", ysql("--records", "500"));
    c.put("--operations", ysql("--operations", "500"));
    c.put("--duration", ysql("--duration", "5"));
    c.put("--warmup", ysql("--warmup", "5"));
    c.put("--target", ysql("--target", "100"));
    c.put("--read-threads", ysql("--read-threads", "2"));
    c.put("--write-threads", ysql("--write-threads", "2"));
    c.put("--reads", new Case(POOLS, List.of("--reads", "100")));
    c.put("--writes", new Case(POOLS, List.of("--writes", "100")));
    c.put("--read-target", new Case(POOLS, List.of("--read-target", "100")));
    c.put("--write-target", new Case(POOLS, List.of("--write-target", "100")));
    c.put("--layout", ysql("--layout", "range"));
    c.put("--tablets", ysql("--tablets", "4"));
    c.put("--split-at", ysql("--layout", "range", "--split-at", "user3,user6"));
    c.put("--batch-size", ysql("--batch-size", "64"));
    c.put("--load-method", ysql("--load-method", "insert"));
    c.put("--create-table", ysql("--create-table", "never"));
    c.put("--phase", ysql("--phase", "load"));
    c.put("--clients", ysql("--clients", "2"));
    c.put("--client-index", ysql("--clients", "2", "--client-index", "1"));
    c.put("--fleet", ysql("--fleet", "f1"));
    c.put("--driver", ysql("--driver", "pgjdbc"));
    c.put("--database", ysql("--database", "other"));
    c.put("--user", ysql("--user", "u"));
    c.put("--password", ysql("--password", "Secret-Pw-1"));
    c.put("--label", ysql("--label", "rc1"));
    c.put("--results-dir", ysql("--results-dir", "elsewhere"));
    c.put("--history", ysql("--history", "RESULTS/history.db"));
    c.put("--max-error-pct", ysql("--max-error-pct", "5"));
    c.put("--max-outage-pct", ysql("--max-outage-pct", "5"));
    c.put("--max-abort-pct", ysql("--max-abort-pct", "5"));
    c.put("--server-interval", ysql("--server-interval", "5"));
    c.put("--wait-interval", ysql("--wait-interval", "0"));
    c.put("--metrics-ports", ysql("--metrics-ports", "none"));
    c.put("--prometheus-port", ysql("--prometheus-port", "0")); // what it serves: PrometheusIT scrapes it
    // ybbench's binding properties
    c.put("ysql.hosts", p(List.of("workloada"), "ysql.hosts=h2:5433"));
    c.put("ysql.database", p(YSQL, "ysql.database=other"));
    c.put("ysql.user", p(YSQL, "ysql.user=u"));
    c.put("ysql.password", p(YSQL, "ysql.password=Secret-Pw-1"));
    c.put("ysql.driver", p(YSQL, "ysql.driver=pgjdbc"));
    c.put("ysql.load_balance", p(YSQL, "ysql.load_balance=false"));
    c.put("ysql.url_options", p(YSQL, "ysql.url_options=sslmode=require"));
    c.put("ysql.max_retries", p(YSQL, "ysql.max_retries=3"));
    c.put("ysql.fetch_size", p(YSQL, "ysql.fetch_size=10"));
    c.put("ycql.hosts", p(List.of("workloada", "--api", "ycql"), "ycql.hosts=h2:9042"));
    c.put("ycql.keyspace", p(YCQL, "ycql.keyspace=other"));
    c.put("ycql.user", p(YCQL, "ycql.user=u"));
    c.put("ycql.password", p(YCQL, "ycql.password=Secret-Pw-1"));
    c.put("ycql.consistency", p(YCQL, "ycql.consistency=ONE"));
    c.put("ycql.read_consistency", p(YCQL, "ycql.read_consistency=ONE"));
    c.put("ycql.write_consistency", p(YCQL, "ycql.write_consistency=ONE"));
    c.put("ycql.rf", p(YCQL, "ycql.rf=3"));
    c.put("ycql.local_dc", p(YCQL, "ycql.local_dc=dc2"));
    c.put("ycql.tls", p(YCQL, "ycql.tls=true"));
    String pem = "ycql.truststore=" + RunYcsbTest.HOME.resolve("ycsb-yugabyte/src/test/resources/tls/ca.crt");
    c.put("ycql.truststore", p(YCQL, pem));
    c.put("ycql.truststore_password", new Case(YCQL, List.of("-p", "ycql.truststore="
        + RunYcsbTest.HOME.resolve("ycsb-yugabyte/src/test/resources/tls/trust.p12"), "-p",
        "ycql.truststore_password=changeit")));
    c.put("ycql.transactions", p(YCQL, "ycql.transactions=true"));
    c.put("ycql.connections_per_node", p(YCQL, "ycql.connections_per_node=3"));
    c.put("ycql.request_timeout_ms", p(YCQL, "ycql.request_timeout_ms=2000"));
    c.put("ycql.connect_timeout_ms", p(YCQL, "ycql.connect_timeout_ms=2000"));
    c.put("ycql.max_retries", p(YCQL, "ycql.max_retries=3"));
    c.put("yb.layout", p(YSQL, "yb.layout=range"));
    c.put("yb.split", p(List.of("workloade-hashrange", "--hosts", "h1:5433"), "yb.split=50"));
    c.put("yb.tablets", p(YSQL, "yb.tablets=4"));
    c.put("yb.split_at", p(List.of("workloada", "--hosts", "h1:5433", "--layout", "range"), "yb.split_at=user5"));
    c.put("table", p(YSQL, "table=other"));
    c.put("fieldcount", p(YSQL, "fieldcount=3"));
    c.put("fieldnameprefix", p(YSQL, "fieldnameprefix=col"));
    // YCSB's client properties
    c.put("threadcount", p(YSQL, "threadcount=3"));
    c.put("target", p(YSQL, "target=100"));
    c.put("maxexecutiontime", p(YSQL, "maxexecutiontime=5"));
    c.put("operationcount", p(YSQL, "operationcount=500"));
    c.put("recordcount", p(YSQL, "recordcount=500"));
    c.put("dotransactions", p(YSQL, "dotransactions=false"));
    c.put("db", p(List.of("workloada"), "db=site.ycsb.db.CassandraCQLClient"));
    c.put("label", p(YSQL, "label=rc1"));
    c.put("status.interval", p(YSQL, "status.interval=5"));
    c.put("exportfile", p(YSQL, "exportfile=out.txt"));
    c.put("exporter", new Case(YSQL, List.of("-p", "exportfile=out.json", "-p",
        "exporter=site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter")));
    c.put("hdrhistogram.percentiles", p(YSQL, "hdrhistogram.percentiles=90,99"));
    // yugabyte/YCSB's binding properties
    c.put("db.url", p(List.of("workloada"), "db.url=jdbc:postgresql://h2:5433/ycsb"));
    c.put("db.driver", p(YSQL, "db.driver=org.postgresql.Driver"));
    c.put("db.user", p(YSQL, "db.user=u"));
    c.put("db.passwd", p(YSQL, "db.passwd=Secret-Pw-1"));
    c.put("db.batchsize", new Case(YSQL, List.of("-p", "db.batchsize=100", "-p", "jdbc.batchupdateapi=true")));
    c.put("jdbc.batchupdateapi", p(YSQL, "jdbc.batchupdateapi=false"));
    c.put("jdbc.fetchsize", p(YSQL, "jdbc.fetchsize=10"));
    c.put("db.keysplitsize", p(List.of("workloade-hashrange", "--hosts", "h1:5433"), "db.keysplitsize=50"));
    c.put("hosts", p(List.of("workloada"), "hosts=h2"));
    c.put("port", new Case(List.of("workloada", "-p", "hosts=h2"), List.of("-p", "port=9043")));
    c.put("cassandra.username", p(YCQL, "cassandra.username=u"));
    c.put("cassandra.password", p(YCQL, "cassandra.password=Secret-Pw-1"));
    c.put("cassandra.keyspace", p(YCQL, "cassandra.keyspace=other"));
    c.put("cassandra.readconsistencylevel", p(YCQL, "cassandra.readconsistencylevel=ALL"));
    c.put("cassandra.writeconsistencylevel", p(YCQL, "cassandra.writeconsistencylevel=ALL"));
    c.put("cassandra.maxconnections", p(YCQL, "cassandra.maxconnections=3"));
    c.put("cassandra.coreconnections", p(YCQL, "cassandra.coreconnections=3"));
    c.put("cassandra.connecttimeoutmillis", p(YCQL, "cassandra.connecttimeoutmillis=2000"));
    c.put("cassandra.readtimeoutmillis", p(YCQL, "cassandra.readtimeoutmillis=2000"));
    c.put("cassandra.useSSL", p(YCQL, "cassandra.useSSL=true"));
    return c;
  }

  /** The plan a dry run prints, from its first line on (the equivalent command above it left out). */
  private String plan(List<String> args) {
    // RESULTS: this test's directory, for what a dry run opens (the history).
    List<String> all = new ArrayList<>(args.stream().map(a -> a.replace("RESULTS", results.toString())).toList());
    all.addAll(List.of("--dry-run", "--no-install"));
    if (!all.contains("--results-dir")) {
      all.addAll(List.of("--results-dir", results.toString()));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = cmd.execute(all.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8));
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, all + ":\n" + printed);
    assertFalse(printed.contains("warning:"), all + " is named as unread:\n" + printed);
    return printed.substring(printed.indexOf("Plan (nothing started):"));
  }

  /**
   * The dry run's command line, pasted into a shell, is the same run: a shell splits it into words that
   * plan what the command it stands for planned (a URL's {@code &} and a label's space quoted).
   */
  @Test
  void theEquivalentCommandPastedIntoAShellPlansTheSameRun() throws Exception {
    List<String> given = List.of("run", "jdbc", "-P", RunYcsbTest.HOME.resolve("workloads/workloada").toString(),
        "-p", "db.url=jdbc:postgresql://h1:5433/ycsb?sslmode=verify-full&sslrootcert=/etc/ssl/root ca.crt",
        "-threads", "3", "--label", "rc 2.25", "--results-dir", results.toString());
    String first = plan(given);
    String printed = printed(with(given, "--dry-run", "--no-install"));
    Matcher m = Pattern.compile("(?m)^  command: \\./run_ycsb\\.sh (.*)$").matcher(printed);
    assertTrue(m.find(), printed);
    Process shell = new ProcessBuilder("bash", "-c", "printf '%s\\0' " + m.group(1)).start();
    String split = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, shell.waitFor(), m.group(1));
    List<String> words = List.of(split.substring(0, split.length() - 1).split("\0", -1));
    assertTrue(words.contains("rc 2.25"), words.toString());
    assertFalse(words.contains("--dry-run"), "a dry run's line is the run itself: " + words);
    String again = printed(with(words, "--dry-run"));
    assertEquals(first, again.substring(again.indexOf("Plan (nothing started):")), "pasted: " + m.group(1));
  }

  private static List<String> with(List<String> args, String... more) {
    List<String> all = new ArrayList<>(args);
    all.addAll(List.of(more));
    return all;
  }

  /** Everything a command prints; it must succeed. */
  private static String printed(List<String> all) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
    int rc = cmd.execute(all.toArray(new String[0]), new PrintStream(out, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, all + ":\n" + text);
    return text;
  }

  /** The backquoted names a doc's text lists: flags (--x) and property names (a.b, or YCSB's plain ones). */
  private static Set<String> listed(String text, Pattern pattern) {
    Set<String> names = new TreeSet<>();
    Matcher m = pattern.matcher(text);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  @Test
  void everyListedFlagAndPropertyChangesThePlan() throws Exception {
    String guide = Files.readString(RunYcsbTest.HOME.resolve("docs/ycsb.md"));
    String section = guide.substring(guide.indexOf("# run_ycsb.sh"), guide.indexOf("## Against a YugabyteDB cluster"));
    String docs = Files.readString(RunYcsbTest.HOME.resolve("docs/command-lines.md"));
    // Its two tables of properties: YCSB's own, and yugabyte/YCSB's bindings'.
    String ycsbDocs = table(docs, "| YCSB property |") + table(docs, "| property | binding | here |");
    Set<String> names = new TreeSet<>();
    // The flags table's first column, and the properties docs/ycsb.md names as binding properties.
    for (String row : section.lines().filter(l -> l.startsWith("| `")).toList()) {
      names.addAll(listed(row.substring(0, row.indexOf(" | ", 2)), Pattern.compile("(--[a-z-]+|-p)\\b")));
    }
    String binding = section.substring(section.indexOf("Binding properties of ybbench's own"));
    names.addAll(listed(binding.substring(0, binding.indexOf("\n\n")),
        Pattern.compile("`((?:ysql|ycql|yb)\\.[a-z_]+|table|fieldcount|fieldnameprefix)`")));
    // docs/command-lines.md: the first column of YCSB's and yugabyte/YCSB's tables.
    for (String row : ycsbDocs.lines().filter(l -> l.startsWith("| `")).toList()) {
      names.addAll(listed(row.substring(0, row.indexOf(" | ", 2)), Pattern.compile("`([a-zA-Z][a-zA-Z._]*)`")));
    }
    names.removeIf(n -> n.equals("true") || n.equals("false"));
    Map<String, Case> cases = cases();
    String ysqlPlan = plan(YSQL);
    Map<List<String>, String> bases = new LinkedHashMap<>();
    List<String> checked = new ArrayList<>();
    for (String name : names) {
      if (ELSEWHERE.containsKey(name)) {
        continue;
      }
      if (ALREADY_SO.contains(name)) {
        plan(concat(YSQL, List.of("-p", name + "=" + (name.equals("measurementtype") ? "hdrhistogram"
            : name.equals("measurement.interval") ? "both" : "true"))));
        checked.add(name);
        continue;
      }
      Case c = cases.get(name);
      assertTrue(c != null, name + " is listed in the docs but has no case here: add one (or drop it from the docs)");
      String base = bases.computeIfAbsent(c.base(), this::plan);
      assertNotEquals(base, plan(concat(c.base(), c.with())), name + " (" + c.with() + ") changes nothing that runs");
      checked.add(name);
    }
    assertTrue(checked.size() > 90, "the docs list what this walks: " + checked);
    assertTrue(ysqlPlan.contains("binding.endpoint"), ysqlPlan);
  }

  /** Every option of the sample apps that the docs list changes the translated command, or is named in a note. */
  @Test
  void everyListedSampleAppOptionIsTakenOrNamed() throws Exception {
    String docs = Files.readString(RunYcsbTest.HOME.resolve("docs/command-lines.md"));
    String table = docs.substring(docs.indexOf("## yb-sample-apps"), docs.indexOf("## Readers and writers apart"));
    Set<String> options = new TreeSet<>();
    for (String row : table.lines().filter(l -> l.startsWith("| `--")).toList()) {
      options.addAll(listed(row.substring(0, row.indexOf(" | ", 2)), Pattern.compile("`(--[a-z_]+)")));
    }
    Map<String, String> values = Map.ofEntries(Map.entry("--nodes", "h:5433"),
        Map.entry("--uuid", "00000000-0000-0000-0000-000000000001"), Map.entry("--num_unique_keys", "5"),
        Map.entry("--num_threads_write", "7"), Map.entry("--num_threads_read", "7"), Map.entry("--num_writes", "9"),
        Map.entry("--num_reads", "9"), Map.entry("--max_written_key", "99"), Map.entry("--value_size", "64"),
        Map.entry("--run_time", "30"), Map.entry("--read_rate", "10"), Map.entry("--write_rate", "10"),
        Map.entry("--username", "u"), Map.entry("--default_postgres_database", "d"),
        Map.entry("--create_table_name", "T"), Map.entry("--drop_table_name", "T"),
        Map.entry("--load_balance", "false"), Map.entry("--topology_keys", "cloud.region.zone"),
        Map.entry("--concurrent_clients", "8"), Map.entry("--cql_connect_timeout_ms", "2000"),
        Map.entry("--cql_read_timeout_ms", "2000"), Map.entry("--with_local_dc", "dc2"),
        Map.entry("--batch_size", "5"), Map.entry("--num_threads", "5"), Map.entry("--password", "p"),
        Map.entry("--workload", "CassandraKeyValue"), Map.entry("--ssl_cert", "c"), Map.entry("--ssl_key", "k"),
        Map.entry("--debug_driver", "true"), Map.entry("--yugabyte_password", "p"),
        Map.entry("--table_ttl_seconds", "60"));
    Set<String> cql = Set.of("--concurrent_clients", "--cql_connect_timeout_ms", "--cql_read_timeout_ms",
        "--with_local_dc", "--disable_yb_load_balancing_policy", "--use_ascii_values", "--value_size");
    Set<String> refused = Set.of("--ssl_cert", "--ssl_key", "--lock_step", "--debug_driver", "--report_read_restarts",
        "--skip_workload", "--yugabyte_password", "--table_ttl_seconds");
    for (String option : options) {
      String app = cql.contains(option) ? "CassandraKeyValue" : "SqlInserts";
      List<String> base = new ArrayList<>(List.of("--workload", app, "--uuid", "00000000-0000-0000-0000-000000000002"));
      if (option.equals("--password")) {
        base.addAll(List.of("--username", "u"));
      }
      if (option.equals("--read_only")) {
        base.addAll(List.of("--max_written_key", "10"));
      }
      List<String> with = new ArrayList<>(base);
      if (option.equals("--uuid") || option.equals("--nouuid")) {
        with.subList(2, 4).clear();
      }
      if (option.equals("--workload")) {
        with.set(1, values.get(option));
      } else {
        with.add(option);
        if (values.containsKey(option)) {
          with.add(values.get(option));
        }
      }
      if (refused.contains(option)) {
        try {
          SampleAppCommandLine.translate(with.toArray(new String[0]), UUID::randomUUID);
          throw new AssertionError(option + " is listed as refused but was taken");
        } catch (dev.ybbench.harness.UserError expected) {
          assertTrue(expected.getMessage().contains(option), expected.getMessage());
        }
        continue;
      }
      if (option.equals("--local_reads")) {
        base.set(1, "CassandraKeyValue");
        with.set(1, "CassandraKeyValue");
      }
      SampleAppCommandLine.Translation b = SampleAppCommandLine.translate(base.toArray(new String[0]),
          () -> UUID.fromString("00000000-0000-0000-0000-000000000003"));
      SampleAppCommandLine.Translation w = SampleAppCommandLine.translate(with.toArray(new String[0]),
          () -> UUID.fromString("00000000-0000-0000-0000-000000000003"));
      assertTrue(!b.args().equals(w.args()) || w.notes().size() > b.notes().size(), option
          + " neither changes the run nor is named in a note: " + w.args());
    }
    assertTrue(options.size() > 35, options.toString());
  }

  /** The markdown table that starts with {@code header}. */
  private static String table(String doc, String header) {
    int from = doc.indexOf(header);
    int to = doc.indexOf("\n\n", from);
    return doc.substring(from, to < 0 ? doc.length() : to);
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
