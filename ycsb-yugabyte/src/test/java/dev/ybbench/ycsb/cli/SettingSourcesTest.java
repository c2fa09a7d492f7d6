package dev.ybbench.ycsb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.ServerTarget.Api;
import dev.ybbench.harness.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One precedence for every setting — the files in order, then -p, then the flag; a flag and a -p
 * that disagree refused naming both — and yugabyte/YCSB's binding properties with their
 * binding's meaning, each checked exactly.
 */
class SettingSourcesTest {
  @TempDir
  Path dir;

  private final List<Path> files = new ArrayList<>();

  private SettingSourcesTest file(String name, String... lines) throws Exception {
    Path f = dir.resolve(name);
    Files.write(f, List.of(lines));
    files.add(f);
    return this;
  }

  private static YcsbOptions options(String... p) {
    YcsbOptions o = new YcsbOptions();
    for (int i = 0; i < p.length; i += 2) {
      o.properties.put(p[i], p[i + 1]);
    }
    return o;
  }

  private YcsbSettings settle(YcsbOptions o) throws Exception {
    if (files.isEmpty()) {
      file("workload", "workload=site.ycsb.workloads.CoreWorkload", "recordcount=1000");
    }
    return SettingSources.settle(o, files);
  }

  private String refusal(YcsbOptions o) {
    return assertThrows(UserError.class, () -> settle(o)).getMessage();
  }

  @Test
  void filesThenPThenFlags() throws Exception {
    file("w", "threadcount=16", "target=100", "maxexecutiontime=30", "operationcount=5000");
    file("later", "threadcount=12");
    YcsbOptions o = options();
    YcsbSettings s = settle(o);
    assertEquals(12, s.threads(), "a later -P file replaces an earlier one's value");
    assertEquals(100.0, s.target());
    assertEquals(30L, s.duration(), "maxexecutiontime is the run's time limit");
    assertEquals(5000L, s.operations());

    files.clear();
    file("w", "threadcount=16");
    o = options("threadcount", "3", "target", "250", "maxexecutiontime", "4");
    s = settle(o);
    Properties p = s.properties();
    assertEquals(3, s.threads(), "-p replaces the file's");
    assertEquals(250.0, s.target());
    assertEquals(4L, s.duration());
    assertEquals("3", p.getProperty("threadcount"), "the workload sees the settled value");
    assertNull(p.getProperty("maxexecutiontime"), "YCSB's client setting, taken by the runner");

    o = options();
    o.threads = 4;
    assertEquals(4, settle(o).threads(), "a flag replaces the file's silently, as -p does in YCSB");
    assertEquals(4, o.threads, "the flags are only read");
  }

  @Test
  void defaultsWhereNothingIsGiven() throws Exception {
    YcsbOptions o = options();
    YcsbSettings s = settle(o);
    assertEquals(YcsbSettings.DEFAULT_THREADS, s.threads());
    assertEquals(YcsbSettings.DEFAULT_DURATION_S, s.duration());
    assertEquals(0.0, s.target());
    assertEquals(Phase.BOTH, s.phase());
    assertEquals(Api.YSQL, s.api());
    assertEquals("ycsb", s.database());
    assertEquals(YcsbSettings.YSQL_BATCH_ROWS, s.batchSize());
    assertEquals("copy", s.loadMethod());
    assertNull(o.threads, "a flag left out stays out of the flags");
    assertNull(o.phase);
  }

  @Test
  void aFlagAndAPThatDisagreeAreRefusedNamingBoth() throws Exception {
    YcsbOptions o = options("threadcount", "3");
    o.threads = 4;
    assertEquals("--threads 4 and -p threadcount=3 disagree; give one of them", refusal(o));
    o = options("threadcount", "4");
    o.threads = 4;
    settle(o); // the same value twice is no disagreement
    o = options("maxexecutiontime", "4");
    o.duration = 60L;
    assertEquals("--duration 60 and -p maxexecutiontime=4 disagree; give one of them", refusal(o));
    o = options("dotransactions", "true");
    o.phase = "both";
    assertEquals("--phase both and -p dotransactions=true disagree; give one of them", refusal(o));
    o = options("db.url", "jdbc:postgresql://h1:5433/ycsb");
    o.server.hosts = "h2";
    assertEquals("--hosts h2 and -p db.url=jdbc:postgresql://h1:5433/ycsb disagree; give one of them", refusal(o));
    files.clear();
    file("w", "target=300", "ybbench.target_ops=1000");
    String both = refusal(options());
    assertTrue(both.contains("target=300 (w)") && both.contains("ybbench.target_ops=1000 (w)")
        && both.endsWith(" disagree; give one of them"), both);
  }

  @Test
  void ycsbsPhaseAndBindingPropertiesAreSettings() throws Exception {
    YcsbSettings s = settle(options("dotransactions", "false", "db", "site.ycsb.db.CassandraCQLClient"));
    assertEquals(Phase.LOAD, s.phase());
    assertEquals(Api.YCQL, s.api());
    assertEquals("db=site.ycsb.db.BasicDB is not a binding ybbench has: its YSQL binding stands for yugabyteSQL "
        + "(site.ycsb.db.JdbcDBClient), its YCQL binding for yugabyteCQL (site.ycsb.db.CassandraCQLClient)",
        refusal(options("db", "site.ycsb.db.BasicDB")));
  }

  @Test
  void dbUrlIsTheServerItNames() throws Exception {
    YcsbOptions o = options("db.url", "jdbc:postgresql://10.0.0.1:5433/bench?sslmode=require;"
        + "jdbc:postgresql://10.0.0.2:5433/bench?sslmode=require;", "db.user", "yugabyte", "db.passwd", "pw");
    YcsbSettings s = settle(o);
    Properties p = s.properties();
    assertEquals(Api.YSQL, s.api(), "db.url is YSQL's");
    assertEquals("10.0.0.1:5433,10.0.0.2:5433", s.hosts());
    assertEquals("bench", s.database());
    assertEquals("yugabyte", s.user());
    assertEquals("pw", s.password());
    assertEquals("pgjdbc", s.driver(), "a jdbc:postgresql: URL is pgjdbc's");
    assertEquals("sslmode=require", p.getProperty("ysql.url_options"));
    assertEquals(1, s.batchSize(), "yugabyte/YCSB's binding inserts one row per statement unless its batch API is on");

    o = options("db.url", "jdbc:yugabytedb://h:5433/ycsb?load-balance=true", "db.driver", "com.yugabyte.Driver");
    assertEquals("yugabyte", settle(o).driver());
    assertEquals("db.driver=org.postgresql.Driver does not take db.url's jdbc:yugabytedb: URLs; use "
        + "com.yugabyte.Driver or change the URLs", refusal(options("db.url", "jdbc:yugabytedb://h:5433/ycsb",
            "db.driver", "org.postgresql.Driver")));
    assertEquals("db.url's URLs differ in database (a, b); ybbench runs one database over one driver: give URLs "
        + "that differ only in host", refusal(options("db.url", "jdbc:postgresql://h1:5433/a;jdbc:postgresql://h2:5433/b")));
    assertTrue(refusal(options("db.url", "postgres://h/x")).startsWith("db.url 'postgres://h/x' is not a "
        + "jdbc:postgresql:// or jdbc:yugabytedb:// URL"));
  }

  @Test
  void yugabyteYcsbsLoadIsItsBindingsLoad() throws Exception {
    YcsbOptions o = options("db.url", "jdbc:postgresql://h:5433/ycsb", "db.batchsize", "1000",
        "jdbc.batchupdateapi", "true", "jdbc.fetchsize", "10");
    YcsbSettings s = settle(o);
    Properties p = s.properties();
    assertEquals(1000, s.batchSize());
    assertEquals("insert", s.loadMethod(), "JDBC batches: one multi-row INSERT each");
    assertEquals("10", p.getProperty("ysql.fetch_size"));
    s = settle(options("db.url", "jdbc:postgresql://h:5433/ycsb", "db.batchsize", "1000"));
    assertEquals(1, s.batchSize());
    assertEquals(List.of("db.batchsize=1000 batches nothing without jdbc.batchupdateapi=true, as in yugabyte/YCSB's "
        + "binding: the load writes one row per INSERT (--batch-size N for ybbench's batched COPY)"), s.notes());
    assertEquals("jdbc.autocommit=false: yugabyte/YCSB's binding then keeps every read and update in one transaction "
        + "until the run ends; ybbench commits each operation; leave it out or set it true",
        refusal(options("db.url", "jdbc:postgresql://h:5433/ycsb", "jdbc.autocommit", "false")));
    assertEquals("jdbc.batchupdateapi=true with no db.batchsize above 0: yugabyte/YCSB's binding then never sends "
        + "its batches; give db.batchsize", refusal(options("jdbc.batchupdateapi", "true")));
    files.clear();
    file("db.properties", "db.url=jdbc:postgresql://h:5433/ycsb", "db.batchsize=1000");
    o = options();
    o.batchSize = 256;
    assertEquals(256, settle(o).batchSize(), "--batch-size over a file's or the binding's");
    o = options("db.batchsize", "1000");
    o.batchSize = 256;
    assertEquals("--batch-size 256 and -p db.batchsize=1000 disagree; give one of them", refusal(o));
  }

  @Test
  void yugabyteCqlPropertiesAndItsConsistencyLevels() throws Exception {
    YcsbOptions o = options("hosts", "10.0.0.1,10.0.0.2", "port", "9043", "cassandra.username", "cassandra",
        "cassandra.password", "pw", "cassandra.keyspace", "bench", "cassandra.writeconsistencylevel", "QUORUM",
        "cassandra.maxconnections", "4", "cassandra.readtimeoutmillis", "2000", "cassandra.useSSL", "true");
    YcsbSettings s = settle(o);
    Properties p = s.properties();
    assertEquals(Api.YCQL, s.api());
    assertEquals("10.0.0.1:9043,10.0.0.2:9043", s.hosts());
    assertEquals("bench", s.database());
    assertEquals("cassandra", s.user());
    assertEquals("ONE", p.getProperty("ycql.read_consistency"), "CassandraCQLClient reads at ONE by default");
    assertEquals("QUORUM", p.getProperty("ycql.write_consistency"));
    assertEquals("4", p.getProperty("ycql.connections_per_node"));
    assertEquals("2000", p.getProperty("ycql.request_timeout_ms"));
    assertEquals("true", p.getProperty("ycql.tls"));

    o = options("hosts", "h");
    o.consistency = "ALL";
    p = settle(o).properties();
    assertEquals("ALL", p.getProperty("ycql.read_consistency"), "--consistency over the binding's default ONE");
    assertEquals("ALL", p.getProperty("ycql.write_consistency"));
    o = options("hosts", "h", "cassandra.readconsistencylevel", "ONE");
    o.consistency = "ALL";
    assertEquals("--consistency ALL and -p cassandra.readconsistencylevel=ONE disagree; give one of them", refusal(o));
    assertEquals("db.url is yugabyteSQL's property and hosts yugabyteCQL's: one run uses one API; give one "
        + "binding's properties", refusal(options("db.url", "jdbc:postgresql://h:5433/x", "hosts", "h")));
    o = options("hosts", "h");
    o.api = "ysql";
    assertEquals("hosts is yugabyteCQL's (YCQL) property, and this run is --api ysql; give the binding's own "
        + "properties, or --api ycql", refusal(o));
    assertEquals("cassandra.tracing=true has the server trace every request, which a benchmark cannot stand for; "
        + "ybbench does not trace: leave it out", refusal(options("hosts", "h", "cassandra.tracing", "true")));
  }

  @Test
  void ycsbsClientPropertiesAreHonouredOrRefused() throws Exception {
    Properties p = settle(options("status.interval", "2", "status", "true", "measurementtype", "hdrhistogram"))
        .properties();
    assertEquals("2", p.getProperty(YcsbSettings.STATUS_INTERVAL));
    assertEquals("-p measurementtype=raw: ybbench records every operation in HdrHistogram (latency/*.hlog) and per "
        + "second in timeseries.csv; measurementtype=raw is not one of its outputs",
        refusal(options("measurementtype", "raw")));
    assertEquals("-p spin.sleep=true: ybbench's threads wait for the target schedule by parking, not spinning; leave "
        + "spin.sleep out", refusal(options("spin.sleep", "true")));
  }
}
