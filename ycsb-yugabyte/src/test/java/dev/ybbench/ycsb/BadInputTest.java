package dev.ybbench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ybbench.harness.benchmark.Runner;
import dev.ybbench.harness.results.Console;
import dev.ybbench.harness.testing.DryRuns;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input is refused before anything starts: one line naming what is wrong and what to do,
 * exit code 2, within seconds, no server started and no run directory written.
 */
class BadInputTest {
  @TempDir
  Path results;

  @Test
  void everyBadInputIsOneLineAndExitTwoBeforeAnythingStarts() throws Exception {
    Map<String[], String> cases = new LinkedHashMap<>();
    cases.put(new String[] {"workloada", "--records", "0"}, "--records must be at least 1, was 0");
    cases.put(new String[] {"workloada", "-p", "recordcount=-5"}, "-p recordcount=-5 must be at least 1");
    cases.put(new String[] {"workloada", "-p", "fieldcount=abc"}, "fieldcount=abc is not a whole number");
    cases.put(new String[] {"workloada", "-p", "readproportion=1.5"}, "readproportion=1.5 must lie between 0 and 1");
    cases.put(new String[] {"workloada", "-p", "requestdistribution=zipf"}, "requestdistribution=zipf is not one of");
    cases.put(new String[] {"workloada", "--hosts", ""}, "--hosts is empty (an unset variable?)");
    cases.put(new String[] {"workloada", "--hosts", " , "}, "names no host");
    cases.put(new String[] {"workloada", "--api", "ycql", "--rf", "3"},
        "--rf 3 needs at least 3 nodes; the embedded cluster has 1 (--nodes)");
    cases.put(new String[] {"workloada", "--api", "ycql", "--nodes", "50"},
        "--nodes must be between 1 and");
    cases.put(new String[] {"workloada", "--db-version", "99"}, "PostgreSQL major version 99 is not supported; use "
        + "one of 11, 12, 13, 14, 15, 16, 17, 18");
    cases.put(new String[] {"workloada", "--api", "ycql", "--db-version", "3.11"}, "Cassandra 3.11 is not supported");
    cases.put(new String[] {"workloada", "--results-dir", "/proc/ybbench-results"},
        "cannot create results directory /proc/ybbench-results");
    cases.put(new String[] {"workloada", "--max-error-pct", "150"}, "--max-error-pct, --max-abort-pct and "
        + "--max-outage-pct are percentages from 0 to 100, were 150, 50 and 10");
    cases.put(new String[] {"workloada", "--max-abort-pct", "-1"}, "--max-error-pct, --max-abort-pct and "
        + "--max-outage-pct are percentages from 0 to 100, were 1, -1 and 10");
    cases.put(new String[] {"workloada", "--server-interval", "0.1"}, "--server-interval must be 0 (phase edges "
        + "only) or from 0.5 to 3600 seconds, was 0.1");
    cases.put(new String[] {"workloada", "--metrics-ports", "9000,x"}, "--metrics-ports takes ports separated by "
        + "commas (e.g. 9000,13000) or none, was '9000,x'");
    cases.put(new String[] {"workloada", "--threads", "0"}, "--threads must be at least 1, was 0");
    cases.put(new String[] {"workloada", "--jobs", "0"}, "--jobs must be at least 1, was 0");
    cases.put(new String[] {"workloada", "--load-method", "bulk"}, "Unknown load method 'bulk'; use copy or insert");
    cases.put(new String[] {"workloada", "-p", "ysql.load_method=fast"}, "Unknown load method 'fast'");
    cases.put(new String[] {"workloada", "--api", "ycql", "--load-method", "copy"}, "--load-method is for YSQL loads");
    cases.put(new String[] {"workloada", "--api", "ycql", "--driver", "pgjdbc"}, "--driver chooses YSQL's client");
    cases.put(new String[] {"workloada", "--clients", "0"}, "--clients must be at least 1, was 0");
    cases.put(new String[] {"workloada", "--clients", "2", "--client-index", "2"},
        "--client-index must be 0 … 1 for --clients 2, was 2");
    cases.put(new String[] {"workloada", "--clients", "2", "--fleet", "a b"},
        "--fleet 'a b' must be 1-64 letters, digits, '.', '_' or '-'");
    cases.put(new String[] {"workloada", "--records", "3", "--clients", "4"},
        "--clients 4 is more than the 3 records to load: client 0 would have none");
    cases.put(new String[] {"workloada", "--clients", "2", "--client-index", "1"},
        "--client-index 1 needs --hosts: an embedded server would be this client's own, with no client 0 to "
            + "create its table");
    cases.put(new String[] {"workloada", "--clients", "2", "-p", "workload=site.ycsb.workloads.ConstantOccupancyWorkload"},
        "--clients splits the keys of YCSB's CoreWorkload; workload=site.ycsb.workloads.ConstantOccupancyWorkload");
    cases.put(new String[] {"workloada", "--phase", "all"}, "Unknown --phase 'all' (or ybbench.phase); use load, "
        + "run, both or create");
    cases.put(new String[] {"workloada", "-p", "ybbench.api=sql"}, "Unknown --api 'sql' (or ybbench.api)");
    cases.put(new String[] {"largedata-load", "-p", "ybbench.target_ops=fast"},
        "-p ybbench.target_ops=fast is not a number");
    cases.put(new String[] {"sqlinserts", "-p", "ybbench.batch_size=1.5"},
        "-p ybbench.batch_size=1.5 is not a whole number");
    cases.put(new String[] {"sqlinserts-read"}, "ybbench.phase=run (sqlinserts-read) needs --hosts of a server loaded "
        + "earlier");
    cases.put(new String[] {"workloada", "--phase", "run"}, "--phase run needs --hosts of a server loaded earlier");
    // A TLS or URL option with no hosts is refused by the name it was given, never dropped.
    cases.put(new String[] {"workloada", "--url-options", "sslmode=verify-full&sslrootcert=/etc/ca.crt"},
        "--url-options is for a server given by --hosts (or YSQL_NODES): the embedded PostgreSQL serves no TLS");
    cases.put(new String[] {"workloada", "-p", "ysql.url_options=sslmode=require"}, "-p ysql.url_options is for a "
        + "server given by --hosts (or YSQL_NODES)");
    cases.put(new String[] {"workloada", "--api", "ycql", "-p", "ycql.tls=true"}, "-p ycql.tls is for a server given "
        + "by --hosts (or YCQL_NODES): the embedded Cassandra serves no TLS");
    cases.put(new String[] {"workloadz"}, "Unknown workload 'workloadz'");
    cases.put(new String[] {"workloada", "--resume", "no/such/run"}, "--resume no/such/run is not a directory");
    cases.put(new String[] {"workloada", "--resume", RunYcsbTest.HOME.resolve("workloads").toString()},
        "is not the run directory of a load (it has no load-checkpoint.json)");
    cases.put(new String[] {"workloada", "--hosts", "127.0.0.1:1", "--phase", "run", "--resume", "x"},
        "--resume continues a load; --phase run has none");
    cases.put(new String[] {"workloada", "--no-such-flag"}, "unknown option '--no-such-flag'");
    cases.put(new String[] {"workloada", "-p", "recordcount"}, "error: -p recordcount has no value: give -p "
        + "recordcount=VALUE (see --help)");
    cases.put(new String[] {"workloada", "--treads", "16"}, "unknown option '--treads'; did you mean --reads or --threads?");
    cases.put(new String[] {"workloada", "--records", "1e6x"}, "'1e6x' is not a whole count; give e.g. 100000, "
        + "100k, 10M or 1e6");
    cases.put(new String[] {"workloada", "--hosts", "http://10.0.0.1:5433"}, "The host list takes host[:port],…, not "
        + "a URL: give '10.0.0.1:5433' for 'http://10.0.0.1:5433'");
    cases.put(new String[] {"workloada", "--api", "ycql", "--layout", "range"}, "The range layout needs YSQL");
    cases.put(new String[] {"workloada", "--split-at", "user5"}, "--split-at needs --layout range; a hashed key is "
        + "split by count (--tablets)");
    cases.put(new String[] {"workloada", "--layout", "range", "--split-at", "user5,user10"}, "--split-at must ascend "
        + "without repeats; 'user5' comes before 'user10'");
    cases.put(new String[] {"workloada", "--layout", "range", "--split-at", "user5", "--tablets", "3"}, "--split-at "
        + "and --tablets both pre-split the table: give one (--split-at for a range key, --tablets for a hashed one)");
    cases.put(new String[] {"workloada", "--api", "ycql", "--split-at", "user5"}, "--split-at needs YSQL: a CQL "
        + "partition key is always hashed; pre-split a YCQL table by count (--tablets)");
    // Command lines in YCSB's and yugabyte/YCSB's words: a setting given twice that disagrees, or one that cannot be
    // honoured, is refused by name.
    cases.put(new String[] {"workloada", "--threads", "4", "-p", "threadcount=3"},
        "--threads 4 and -p threadcount=3 disagree; give one of them");
    cases.put(new String[] {"workloada", "-threads", "3", "--threads", "4"},
        "--threads 4 and -p threadcount=3 disagree; give one of them");
    cases.put(new String[] {"workloada", "-target", "300", "--target", "100"},
        "--target 100 and -p target=300 disagree; give one of them");
    cases.put(new String[] {"workloadc", "-p", "db.url=jdbc:postgresql://h1:5433/ycsb", "--hosts", "h2"},
        "--hosts h2 and -p db.url=jdbc:postgresql://h1:5433/ycsb disagree; give one of them");
    cases.put(new String[] {"workloada", "-p", "jdbc.autocommit=false"}, "jdbc.autocommit=false: yugabyte/YCSB's "
        + "binding then keeps every read and update in one transaction until the run ends");
    cases.put(new String[] {"workloada", "-p", "measurementtype=timeseries"}, "-p measurementtype=timeseries: "
        + "ybbench records every operation in HdrHistogram");
    cases.put(new String[] {"load", "basic", "-P", "workloads/workloada"}, "'basic' is not a binding ybbench has");
    cases.put(new String[] {"workloada", "--prometheus-port", "70000"}, "--prometheus-port takes a port from 1 to "
        + "65535, or 0 for any free one; was 70000");
    java.net.ServerSocket taken = new java.net.ServerSocket(0);
    cases.put(new String[] {"workloada", "--prometheus-port", Integer.toString(taken.getLocalPort())},
        "--prometheus-port " + taken.getLocalPort() + " is in use: choose another port, or 0 for any free one");
    for (Map.Entry<String[], String> c : cases.entrySet()) {
      String[] args = c.getKey();
      String[] all = java.util.Arrays.copyOf(args, args.length + 2);
      if (!java.util.Arrays.asList(args).contains("--results-dir")) {
        all[args.length] = "--results-dir";
        all[args.length + 1] = results.toString();
      } else {
        all = args;
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      Runner cmd = new Runner(new Ycsb(), new Console(new PrintStream(out, true, StandardCharsets.UTF_8)), RunYcsbTest.HOME);
      long start = System.nanoTime();
      int rc = cmd.execute(all, new PrintStream(err, true, StandardCharsets.UTF_8));
      double seconds = (System.nanoTime() - start) / 1e9;
      String line = err.toString(StandardCharsets.UTF_8).strip();
      String what = String.join(" ", args) + " -> " + line;
      System.out.println(what);
      assertEquals(2, rc, what);
      assertEquals(1, line.lines().count(), what);
      assertTrue(line.startsWith("error: ") && line.contains(c.getValue()), what);
      assertFalse(line.contains("Exception") || line.contains("\tat "), what);
      assertTrue(seconds < 10, what + " took " + seconds + " s");
      assertFalse(out.toString(StandardCharsets.UTF_8).contains("Starting embedded"), what + ": a server was started");
      assertNull(cmd.runDirectory(), what);
      // A dry run refuses what the run refuses, with the same line.
      String[] dry = java.util.Arrays.copyOf(all, all.length + 1);
      dry[all.length] = "--dry-run";
      ByteArrayOutputStream dryErr = new ByteArrayOutputStream();
      int dryRc = new Runner(new Ycsb(), new Console(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)),
          RunYcsbTest.HOME).execute(dry, new PrintStream(dryErr, true, StandardCharsets.UTF_8));
      assertEquals(2, dryRc, what + " passed a dry run");
      assertEquals(DryRuns.refusal(line), DryRuns.refusal(dryErr.toString(StandardCharsets.UTF_8)),
          what + " with --dry-run");
    }
    taken.close();
    try (var s = Files.list(results)) {
      assertEquals(0, s.count(), "a refused run left a directory");
    }
  }
}
